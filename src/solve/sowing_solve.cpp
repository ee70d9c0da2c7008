#include "solve/sowing_solve.h"

#include <algorithm>
#include <chrono>

#include "solve/kalah.h"

namespace naqala::solve {

namespace {

using sowing::State;

// The final margin of a finished game, from `me`'s view.
int final_margin(const State& s, Player me) {
  const Outcome o = s.outcome();
  const int margin = s.store(me) - s.store(opponent(me));
  if (!o.winner && margin != 0) return 0;  // a draw whatever the stores (cycle = draw)
  return margin;
}

class Searcher {
 public:
  Searcher(const SowingDb* db, const sowing::Rules& rules, double seconds, std::uint64_t max_nodes)
      : db_(db),
        rules_(rules),
        seconds_(seconds),
        max_nodes_(max_nodes),
        start_(std::chrono::steady_clock::now()) {}

  // A bound on the final margin of the mover at s: the lower one, or (optimistic) the upper.
  // `fresh`: no position before s can come back (s is the root or was reached by a capture).
  int value(const State& s, int depth, int alpha, int beta, bool optimistic, bool fresh) {
    ++nodes_;
    if ((nodes_ & 0xfff) == 0 && seconds_ > 0 && elapsed() > seconds_) stopped_ = true;
    if (max_nodes_ && nodes_ > max_nodes_) stopped_ = true;
    if (stopped_) return 0;
    const Player me = s.to_move();
    if (s.is_over()) return final_margin(s, me);
    const std::uint64_t hash = s.hash();
    if (std::find(path_.begin(), path_.end(), hash) != path_.end()) {
      State ended = s;  // a repetition: the cycle rule ends the game here
      ended.end_by_cycle();
      return final_margin(ended, me);
    }
    if (fresh) {
      int low, high;
      if (database(s, low, high)) return optimistic ? high : low;
    }
    if (depth == 0) {
      cut_ = true;
      int low, high;
      widest(s, low, high);
      return optimistic ? high : low;
    }
    State::MoveList moves;
    s.legal_moves(moves);
    path_.push_back(hash);
    int best = -1000;
    for (const auto m : moves) {
      State c = s;
      c.play(m);
      const bool capture = c.irreversible_count() != s.irreversible_count();
      const int v = c.to_move() == me ? value(c, depth - 1, alpha, beta, optimistic, capture)
                                      : -value(c, depth - 1, -beta, -alpha, !optimistic, capture);
      if (stopped_) break;
      best = std::max(best, v);
      alpha = std::max(alpha, v);
      if (alpha >= beta) break;
    }
    path_.pop_back();
    return best;
  }

  // What the database says of s for the game as naqala plays it (false: nothing).
  bool database(const State& s, int& low, int& high) const {
    const int n = s.seeds_in_play();
    if (!db_ || n > db_->max_seeds()) return false;
    const Player me = s.to_move();
    const int diff = s.store(me) - s.store(opponent(me));
    const auto b = db_->bounds(board_of(s), n);
    // The database counts a play that never ends as none of the seeds left for the bound's
    // player. Under the draw rule a cycle can be worse than that for him (when he leads by more
    // than the seeds left): then this board is left to the search. A bound strictly inside
    // (-n, n) is reached without any cycle and holds under every rule.
    if (rules_.cycle == sowing::CycleRule::Draw &&
        ((b.low == -n && diff - n > 0) || (b.high == n && diff + n < 0)))
      return false;
    const int stop = rules_.threshold;
    if (stop == 0 || (s.store(me) + n < stop && s.store(opponent(me)) + n < stop)) {
      low = diff + b.low;
      high = diff + b.high;
    } else if (2 * stop > rules_.total_seeds) {
      // The stop at a majority keeps the result of the game played to the end, not its margin.
      widest(s, low, high);
      if (diff + b.low > 0) low = 1;
      if (diff + b.low == 0) low = 0;
      if (diff + b.high < 0) high = -1;
      if (diff + b.high == 0) high = 0;
    } else {
      return false;
    }
    return true;
  }

  // Bounds that hold for any end of the game from s.
  void widest(const State& s, int& low, int& high) const {
    const Player me = s.to_move();
    const int diff = s.store(me) - s.store(opponent(me)), n = s.seeds_in_play();
    low = diff - n;
    high = diff + n;
    if (rules_.cycle == sowing::CycleRule::Draw) {
      low = std::min(low, 0);
      high = std::max(high, 0);
    }
  }

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool stopped() const { return stopped_; }
  bool cut() const { return cut_; }
  void new_iteration() { cut_ = false; }
  // Positions played before the ones searched (the root): they too end the game if they repeat.
  void enter(std::uint64_t hash) { path_.push_back(hash); }
  std::uint64_t nodes() const { return nodes_; }

 private:
  const SowingDb* db_;
  const sowing::Rules& rules_;
  double seconds_;
  std::uint64_t max_nodes_;
  std::chrono::steady_clock::time_point start_;
  std::vector<std::uint64_t> path_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false, cut_ = false;
};

}  // namespace

SowingProof solve_sowing(const State& s, const SowingDb* db, double seconds,
                         std::span<const std::uint64_t> before, std::uint64_t max_nodes) {
  if (db) db->check_rules(s.rules());
  Searcher search(db, s.rules(), seconds, max_nodes);
  SowingProof proof;
  const Player me = s.to_move();
  int root_low, root_high;
  search.widest(s, root_low, root_high);
  {
    int low, high;
    if (before.empty() && search.database(s, low, high)) {
      root_low = std::max(root_low, low);
      root_high = std::min(root_high, high);
    }
  }
  proof.low = root_low;
  proof.high = root_high;
  for (const std::uint64_t h : before) search.enter(h);
  search.enter(s.hash());
  State::MoveList moves;
  s.legal_moves(moves);
  for (int depth = 1; depth < 1000; ++depth) {
    search.new_iteration();
    struct Scored {
      State::Move move;
      int low, high;
    };
    std::vector<Scored> scored;
    int low = -1000, high = -1000;
    for (const auto m : moves) {
      State c = s;
      c.play(m);
      const bool capture = c.irreversible_count() != s.irreversible_count();
      const bool same = c.to_move() == me;
      Scored x{m, 0, 0};
      x.low = same ? search.value(c, depth - 1, -1000, 1000, false, capture)
                   : -search.value(c, depth - 1, -1000, 1000, true, capture);
      x.high = same ? search.value(c, depth - 1, -1000, 1000, true, capture)
                    : -search.value(c, depth - 1, -1000, 1000, false, capture);
      if (search.stopped()) break;
      scored.push_back(x);
      low = std::max(low, x.low);
      high = std::max(high, x.high);
    }
    if (search.stopped()) break;
    proof.depth = depth;
    proof.low = std::max(root_low, low);
    proof.high = std::min(root_high, high);
    std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
      return a.low != b.low ? a.low > b.low : a.high > b.high;
    });
    proof.best_move = scored.empty() ? "" : s.format_move(scored.front().move);
    proof.optimal_moves.clear();
    for (const Scored& x : scored) {
      // Proven optimal: no other move can do better than this one surely does.
      if (x.low >= proof.high) proof.optimal_moves.push_back(s.format_move(x.move));
    }
    // The root's own database entry can make the value exact before the search has proven
    // any move (its bounds come from the database, the moves' from the search below it):
    // then go deeper until a move reaches the value, or nothing more is cut.
    if ((proof.exact() && !proof.optimal_moves.empty()) || !search.cut()) break;
  }
  proof.nodes = search.nodes();
  proof.seconds = search.elapsed();
  return proof;
}

}  // namespace naqala::solve
