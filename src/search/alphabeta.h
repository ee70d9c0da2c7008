#pragma once
// Iterative-deepening alpha-beta for every naqala game: negamax with principal variation
// search, aspiration windows, a shared transposition table, and move ordering by the table's
// move, killers, history and (near the root) a one-ply look at the evaluation.
//
// Generic over the game concept (games/game.h):
// - an extra turn (the same player moves again, Kalah) is not a sign flip: the child's value
//   is already from the mover's view, and its window is the parent's;
// - games that end on a repeated position (CycleEndingState, Oware) end the game when a
//   position on the search path comes back, so the search never loops and scores the cycle
//   by the preset's own rule;
// - chance nodes (ChanceGameState, backgammon dice) are expectation nodes, pruned by Ballard's
//   *-minimax (Star1) from a configurable ply on;
// - at a joint node (both players choose at once, search/joint.h: Congklak's start) each
//   player takes his maximin half: the best value he can be sure of if the other player saw
//   his half. It is a sound, pessimistic bound, not the mixed value of the matrix game.
// Threads share the table and search the same root at staggered depths (Lazy SMP); the
// first thread's result is the answer.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <concepts>
#include <functional>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "games/game.h"
#include "search/joint.h"
#include "search/tt.h"
#include "search/values.h"

namespace naqala::search {

// An evaluation: the value of a position that is not over, from the view of the player to move,
// on the scale of values.h.
template <class E, class S>
concept Evaluation = std::copy_constructible<E> && requires(const E e, const S s) {
  { e(s) } -> std::convertible_to<int>;
};

struct AlphaBetaOptions {
  int threads = 1;
  std::size_t hash_mb = 16;
  // Give every root move an exact value (analysis, levels with noise); otherwise only the best
  // move's value is exact and the others are bounds.
  bool score_all_moves = false;
  // Lines with exact values (analysis' multipv): the best `multipv` root moves get exact values,
  // the others are tested against the worst of them with a null window and keep upper bounds.
  int multipv = 1;
  int aspiration = 25 * kPoint / 100;  // first half-window, widened on failure; 0 = off
  int eval_ordering_depth = 3;         // order moves by a look at the children from this depth up
  int star1_from_ply = 0;              // chance nodes are pruned (Star1) from this ply on
  int tt_min_depth = 3;                // nodes with less depth left neither probe nor store
  // Late move reductions: from this depth up, moves after the first `lmr_after` that are not
  // the table's move or a killer are first searched one ply shallower with a null window, and
  // again at full depth only if they beat alpha; 0 = off (the sowing engines turn it on).
  int lmr_from_depth = 0;
  int lmr_after = 2;
  // Reverse futility: a node that is not on the principal variation, with at most
  // `futility_depth` plies left, whose evaluation beats beta by `futility_margin` a ply left
  // returns the evaluation without a search; 0 = off.
  int futility_depth = 0;
  int futility_margin = 0;
  // An endgame database (solve/): called with a `const S*` reached by an irreversible move
  // (nothing before it can repeat) or in a game without cycles; true when it knows the
  // position's value (values.h scale, the mover's view), `exact` when that is proven.
  std::function<bool(const void* state, int& value, bool& exact)> probe;
};

// The table depth of a solved entry: searched to the end of every line, good for any depth.
inline constexpr int kSolvedDepth = 255;

template <GameState S, Evaluation<S> Eval>
class AlphaBeta {
 public:
  using Move = typename S::Move;
  using MoveList = typename S::MoveList;

  struct MoveValue {
    Move move;
    int value;
    bool exact = true;  // false: an upper bound (the move is not among the lines asked for)
  };
  struct Result {
    bool has_move = false;
    Move best{};
    int value = 0;
    std::vector<Move> pv;
    std::vector<MoveValue> scores;  // every root move, best first
    int depth = 0;                  // of the last completed iteration
    std::uint64_t nodes = 0;
    double seconds = 0;
    bool exact = false;  // every line reached the end of the game: the value is proven
  };
  // Called by the first thread after each completed iteration.
  using Progress = std::function<void(const Result&)>;
  // Seconds since any fixed origin; tests give a fake one.
  using Clock = std::function<double()>;

  explicit AlphaBeta(Eval eval = Eval{}, AlphaBetaOptions options = {})
      : eval_(std::move(eval)), options_(options), tt_(options.hash_mb) {}

  const AlphaBetaOptions& options() const { return options_; }
  void set_options(const AlphaBetaOptions& o) {
    if (o.hash_mb != options_.hash_mb) tt_.resize(o.hash_mb);
    options_ = o;
  }
  void clear() { tt_.clear(); }
  const Eval& eval() const { return eval_; }
  // Ask a running search (from another thread) to stop and return what it has.
  void stop() { stop_.store(true); }
  // The clock the time limit is read from (default: steady_clock).
  void set_clock(Clock clock) { clock_ = std::move(clock); }

  // When a search with a time limit of `seconds` stops: late enough to use nearly all of it,
  // early enough that unwinding the search and returning the move stay within it.
  static double stop_time(double seconds) {
    return seconds - std::min(0.05 * seconds, 0.003 + 0.01 * seconds);
  }

  // `history`: the game so far, as the hashes of the positions before `root` since its last
  // irreversible change (TypedState::history()), oldest first. A line of the search that comes
  // back to one of them ends by the ruleset's cycle rule, as the game would.
  Result search(const S& root, const Limits& limits, const Progress& progress = {},
                std::span<const std::uint64_t> history = {}) {
    Result result;
    history_ = history;
    start_ = now();
    limits_ = limits;
    deadline_ = limits.seconds > 0 ? stop_time(limits.seconds) : 0;
    last_elapsed_ = 0;
    stop_.store(false);
    total_nodes_.store(0);
    tt_.new_search();
    if (root.is_over()) return result;
    if constexpr (ChanceGameState<S>) {
      if (root.is_chance_node()) return result;
    }
    const int threads = std::max(1, options_.threads);
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < threads; ++i) workers.push_back(std::make_unique<Worker>(*this, i, root));
    std::vector<std::thread> helpers;
    for (int i = 1; i < threads; ++i)
      helpers.emplace_back([&, i] { workers[i]->iterate(nullptr, nullptr); });
    workers[0]->iterate(&result, &progress);
    stop_.store(true);
    for (auto& t : helpers) t.join();
    result.nodes = 0;
    for (auto& w : workers) result.nodes += w->nodes;
    result.seconds = elapsed();
    return result;
  }

 private:
  double now() const {
    if (clock_) return clock_();
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  double elapsed() const { return now() - start_; }

  // The history table's index of a move; moves that are not small integers share one slot.
  static std::size_t move_key(const Move& m) {
    if constexpr (std::integral<Move>) {
      return static_cast<std::size_t>(m);
    } else if constexpr (requires { std::hash<Move>{}(m); }) {
      return std::hash<Move>{}(m);
    } else {
      (void)m;
      return 0;
    }
  }

  // What a parent already computed about a child (the look at the children that orders moves):
  // its hash (0: not computed) and its evaluation from its own mover's view. The search reads
  // them instead of computing them again; the tree is the same.
  // No default member values: a node's array of them is not written before it is used.
  struct Known {
    std::uint64_t hash;
    bool has_eval;
    int eval;
  };

  struct RootMove {
    Move move;
    S child;
    int value = -kInfinity;
    int previous = -kInfinity;
    std::vector<Move> pv;
    bool exact = false;
  };

  struct Worker {
    static constexpr std::size_t kHistory = 1024;
    // At least the move list's capacity (a list is its moves plus a count).
    static constexpr std::size_t kCapacity = sizeof(MoveList) / sizeof(Move);

    Worker(AlphaBeta& o, int i, const S& r)
        : owner(o), id(i), root(r), eval(o.eval_), joint_root(is_joint_node(r)) {
      MoveList moves;
      root.legal_moves(moves);
      for (Move m : moves) {
        S child = root;
        child.play(m);
        root_moves.push_back(RootMove{m, child, -kInfinity, -kInfinity, {}, false});
      }
      for (auto& h : history) h.fill(0);
      for (const std::uint64_t h : o.history_) history_bits |= std::uint64_t{1} << (h >> 58);
      for (auto& k : killers) k.fill(Move{});
      for (auto& k : killer_set) k.fill(false);
    }

    AlphaBeta& owner;
    int id;
    S root;
    Eval eval;
    // At a joint root every pair of halves gets an exact value, and the answer is the pair of
    // maximin halves (settle_joint).
    bool joint_root;
    int joint_value = 0;
    std::vector<RootMove> root_moves;
    std::uint64_t history_bits = 0;  // a filter of the game history's hashes (top 6 bits)
    std::uint64_t nodes = 0;
    // Heuristic values used so far: leaf evaluations and table entries that are not solved.
    // A subtree searched without adding to it is solved: its value is exact for any depth.
    std::uint64_t guesses = 0;
    std::uint64_t published = 0;
    bool stopped = false;
    int poll_countdown = 256;
    std::uint64_t polls = 0;    // of the clock, by the first thread
    int completed = 0;          // iterations finished
    bool has_new_best = false;  // the iteration under way found a move better than its first
    Move new_best{};
    std::array<std::array<Move, 2>, kMaxPly + 1> killers;
    std::array<std::array<bool, 2>, kMaxPly + 1> killer_set;
    std::array<std::array<std::int32_t, kHistory>, 2> history;
    std::array<std::uint64_t, kMaxPly + 2> path{};
    std::array<std::uint64_t, kMaxPly + 2> progress_mark{};
    std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1> pv{};
    std::array<int, kMaxPly + 1> pv_len{};
    // The children the look at a node of ply p played, kept for its search of them.
    std::array<std::vector<S>, kMaxPly + 1> looked;

    void iterate(Result* result, const Progress* progress) {
      if (root_moves.empty()) return;
      const int max_depth =
          owner.limits_.depth > 0 ? std::min(owner.limits_.depth, kMaxPly - 1) : kMaxPly - 1;
      path[0] = root.hash();
      mark_progress(root, 0);
      int value = 0;
      for (int depth = 1 + (id & 1); depth <= max_depth; ++depth) {
        const std::uint64_t guesses_before = guesses;
        has_new_best = false;
        value = aspirate(depth, value);
        if (stopped) {
          // The unfinished iteration already showed a better move than the last one's: play it.
          if (result && has_new_best && completed > 0) take_new_best(*result);
          break;
        }
        ++completed;
        std::stable_sort(root_moves.begin(), root_moves.end(),
                         [](const RootMove& a, const RootMove& b) {
                           return a.value != b.value ? a.value > b.value : a.exact > b.exact;
                         });
        for (auto& rm : root_moves) rm.previous = rm.value;
        if (joint_root) joint_value = settle_joint();
        if (!result) continue;
        // A completed iteration that used no heuristic value saw the end of every line.
        fill(*result, depth);
        result->exact = guesses == guesses_before;
        if (progress && *progress) (*progress)(*result);
        if (result->exact) break;
      }
    }

    void take_new_best(Result& r) {
      const auto it = std::find_if(root_moves.begin(), root_moves.end(),
                                   [&](const RootMove& rm) { return rm.move == new_best; });
      if (it == root_moves.end() || it == root_moves.begin()) return;
      std::rotate(root_moves.begin(), it, it + 1);
      const RootMove& best = root_moves.front();
      r.best = best.move;
      r.value = best.value;
      r.pv = best.pv;
      r.scores.clear();
      for (const auto& rm : root_moves) r.scores.push_back({rm.move, rm.value, rm.exact});
    }

    void fill(Result& r, int depth) {
      const RootMove& best = root_moves.front();
      r.has_move = true;
      r.best = best.move;
      r.value = joint_root ? joint_value : best.value;
      r.pv = best.pv;
      r.depth = depth;
      r.scores.clear();
      for (const auto& rm : root_moves) r.scores.push_back({rm.move, rm.value, rm.exact});
      r.nodes = owner.total_nodes_.load(std::memory_order_relaxed) + (nodes - published);
      // Under a time limit, the last poll's reading: a test's fake clock moves on at every read.
      r.seconds = owner.deadline_ > 0 ? owner.last_elapsed_ : owner.elapsed();
    }

    int aspirate(int depth, int guess) {
      const int window0 = owner.options_.aspiration;
      if (lines() > 1) return search_lines(depth, lines());
      if (window0 <= 0 || depth < 4 || is_decisive(guess))
        return search_root(depth, -kInfinity, kInfinity);
      int window = window0;
      int alpha = guess - window, beta = guess + window;
      while (true) {
        const int v = search_root(depth, alpha, beta);
        if (stopped) return v;
        if (v <= alpha) {
          alpha = std::max(-kInfinity, alpha - window);
        } else if (v >= beta) {
          beta = std::min(kInfinity, beta + window);
        } else {
          return v;
        }
        window *= 4;
        if (window > 50 * kPoint) alpha = -kInfinity, beta = kInfinity;
      }
    }

    // How many root moves get exact values.
    int lines() const {
      const int n = static_cast<int>(root_moves.size());
      if (owner.options_.score_all_moves || joint_root) return n;
      return std::clamp(owner.options_.multipv, 1, n);
    }

    // The best `k` root moves get exact values: each move is first tested with a null window
    // at the k-th best value so far and searched with an open window only if it beats it.
    int search_lines(int depth, int k) {
      std::vector<int> top;  // the exact values so far, best first, at most k
      for (std::size_t i = 0; i < root_moves.size(); ++i) {
        RootMove& rm = root_moves[i];
        ++nodes;
        pv_len[1] = 1;
        const int floor = static_cast<int>(top.size()) < k ? -kInfinity : top.back();
        int v = floor == -kInfinity
                    ? child_value(root, rm.child, depth - 1, -kInfinity, kInfinity, 1)
                    : child_value(root, rm.child, depth - 1, floor, floor + 1, 1);
        if (floor != -kInfinity && v > floor && !stopped)
          v = child_value(root, rm.child, depth - 1, floor, kInfinity, 1);
        if (stopped) return top.empty() ? -kInfinity : top.front();
        if (i > 0 && !top.empty() && v > top.front()) {
          has_new_best = true;
          new_best = rm.move;
        }
        rm.exact = v > floor;
        rm.value = rm.exact ? v : std::min(v, floor);
        if (!rm.exact) continue;
        rm.pv.assign(1, rm.move);
        for (int j = 1; j < pv_len[1]; ++j) rm.pv.push_back(pv[1][j]);
        top.insert(std::upper_bound(top.begin(), top.end(), v, std::greater<int>()), v);
        if (static_cast<int>(top.size()) > k) top.pop_back();
      }
      return top.front();
    }

    int search_root(int depth, int alpha, int beta) {
      int best = -kInfinity;
      for (std::size_t i = 0; i < root_moves.size(); ++i) {
        RootMove& rm = root_moves[i];
        ++nodes;
        pv_len[1] = 1;
        int v;
        if (i == 0) {
          v = child_value(root, rm.child, depth - 1, alpha, beta, 1);
        } else {
          v = child_value(root, rm.child, depth - 1, alpha, alpha + 1, 1);
          if (v > alpha && v < beta && !stopped)
            v = child_value(root, rm.child, depth - 1, alpha, beta, 1);
        }
        if (stopped) return best;
        rm.value = v;
        rm.exact = v > alpha && v < beta;
        if (v > best || i == 0) {
          rm.pv.assign(1, rm.move);
          for (int k = 1; k < pv_len[1]; ++k) rm.pv.push_back(pv[1][k]);
        }
        if (i > 0 && v > best && v > alpha) {
          // Better than the first move at this depth.
          has_new_best = true;
          new_best = rm.move;
        }
        if (v > best) {
          best = v;
          if (v > alpha) {
            alpha = v;
            if (v >= beta) {
              // Fail high: the moves not yet searched keep their order behind this one.
              for (std::size_t j = i + 1; j < root_moves.size(); ++j)
                root_moves[j].value = -kInfinity, root_moves[j].exact = false;
              break;
            }
          }
        } else if (i > 0) {
          rm.value = std::min(v, alpha);  // an upper bound: keep it below the best
        }
      }
      return best;
    }

    // The pair of maximin halves goes first; returns the root mover's maximin value.
    int settle_joint() {
      if constexpr (JointMoveState<S>) {
        // worst[p][l]: the least player p gets with half l, whatever the other's half.
        std::array<std::array<int, kJointLabels>, 2> worst;
        for (auto& w : worst) w.fill(kInfinity);
        const Player me = root.to_move();
        for (const auto& rm : root_moves)
          for (Player p : {Player::South, Player::North}) {
            int& w = worst[index(p)][joint_half(rm.move, p)];
            w = std::min(w, p == me ? rm.value : -rm.value);
          }
        int half[2];
        for (int p = 0; p < 2; ++p) {
          const auto& w = worst[p];
          int best = -1;
          for (int l = 0; l < kJointLabels; ++l)
            if (w[l] < kInfinity && (best < 0 || w[l] > w[best])) best = l;
          half[p] = best;
        }
        const Move joint = joint_move<S>(half[0], half[1]);
        const auto it = std::find_if(root_moves.begin(), root_moves.end(),
                                     [&](const RootMove& rm) { return rm.move == joint; });
        if (it != root_moves.end()) std::rotate(root_moves.begin(), it, it + 1);
        return worst[index(me)][half[index(me)]];
      } else {
        return 0;
      }
    }

    // A joint node inside the tree: the mover's best half by its worst case over the other
    // player's halves (maximin), searched with the window narrowed as bounds come in.
    int joint(const S& s, int depth, int alpha, int beta, int ply) {
      MoveList moves;
      s.legal_moves(moves);
      const Player me = s.to_move();
      int best = -kInfinity;
      std::uint64_t done = 0;  // bit: my half already searched
      for (Move first : moves) {
        const int half = joint_half(first, me);
        if ((done >> half) & 1) continue;
        done |= std::uint64_t{1} << half;
        int row = kInfinity;
        for (Move m : moves) {
          if (joint_half(m, me) != half) continue;
          const int lo = std::max(alpha, best), hi = std::min(beta, row);
          S child = s;
          child.play(m);
          ++nodes;
          row = std::min(row, child_value(s, child, depth - 1, lo, hi, ply + 1));
          if (stopped) return 0;
          if (row <= lo) break;  // this half cannot do better than one already found
        }
        best = std::max(best, row);
        if (best >= beta) break;
      }
      pv_len[ply] = ply;
      return best;
    }

    void mark_progress(const S& s, int ply) {
      if constexpr (requires { s.irreversible_count(); }) {
        progress_mark[ply] = s.irreversible_count();
      } else {
        progress_mark[ply] = 0;
      }
    }

    // A finished game for `view`: the evaluation's own scale when it has one.
    int terminal(const S& s, Player view) const {
      if constexpr (requires { eval.terminal(s, view); }) {
        return eval.terminal(s, view);
      } else {
        return terminal_value(s.outcome(), view);
      }
    }

    // The value of `child` (just reached from `parent` at ply-1) for the parent's mover.
    int child_value(const S& parent, const S& child, int depth, int alpha, int beta, int ply,
                    const Known& known = {}) {
      const Player me = parent.to_move();
      if (child.is_over()) {
        pv_len[ply] = ply;
        return terminal(child, me);
      }
      if (owner.options_.probe) {
        bool fresh = true;
        if constexpr (requires { child.irreversible_count(); })
          fresh = child.irreversible_count() != parent.irreversible_count();
        int v;
        bool exact;
        if (fresh && owner.options_.probe(&child, v, exact)) {
          pv_len[ply] = ply;
          if (!exact) ++guesses;
          return child.to_move() == me ? v : -v;
        }
      }
      if (depth <= 0 && !is_chance(child)) {
        // A leaf: evaluate here without the bookkeeping of an inner node. (A repetition at
        // the horizon is not looked for: the leaf is evaluated like any other.)
        pv_len[ply] = ply;
        ++guesses;
        const int v = known.has_eval ? known.eval : eval(child);
        return child.to_move() == me ? v : -v;
      }
      if constexpr (CycleEndingState<S>) {
        if (child.ends_on_cycle()) {
          // Every position is recorded, the one right after a capture too: it cannot repeat
          // an earlier one (the marks differ), but the positions after it can come back to it.
          mark_progress(child, ply);
          const std::uint64_t h = known.hash ? known.hash : child.hash();
          path[ply] = h;
          int p = ply - 1;
          for (; p >= 0 && progress_mark[p] == progress_mark[ply]; --p)
            if (path[p] == h) return cycle_end(child, me, ply);
          // Nothing irreversible since the root: the game before it counts too.
          if (p < 0 && in_game_history(h)) return cycle_end(child, me, ply);
          const Known k{h, known.has_eval, known.eval};
          if (child.to_move() == me) return search(child, depth, alpha, beta, ply, k);
          return -search(child, depth, -beta, -alpha, ply, k);
        }
      }
      if (child.to_move() == me) return search(child, depth, alpha, beta, ply, known);
      return -search(child, depth, -beta, -alpha, ply, known);
    }

    int cycle_end(const S& child, Player me, int ply) {
      S ended = child;
      ended.end_by_cycle();
      pv_len[ply] = ply;
      return terminal(ended, me);
    }

    bool in_game_history(std::uint64_t h) const {
      if (!(history_bits >> (h >> 58) & 1)) return false;
      return std::find(owner.history_.begin(), owner.history_.end(), h) != owner.history_.end();
    }

    static bool is_chance(const S& s) {
      if constexpr (ChanceGameState<S>) {
        return s.is_chance_node();
      } else {
        (void)s;
        return false;
      }
    }

    bool poll() {
      if (--poll_countdown > 0) return stopped;
      poll_countdown = 256;
      owner.total_nodes_.fetch_add(nodes - published, std::memory_order_relaxed);
      published = nodes;
      if (id == 0) {
        const Limits& l = owner.limits_;
        // Stops at the last poll before the deadline: the one after it is expected to pass
        // it. The expected gap is the last one, but at least the mean gap of this search and
        // at most twice it: on a loaded machine the last gap is often a wait for a core, and
        // taking it as the next one stopped searches a quarter of their time early (Bao,
        // docs/engines.md); the mean keeps a 2 ms budget's few polls inside it.
        double next_poll = 0;
        if (owner.deadline_ > 0) {
          const double previous = owner.last_elapsed_;
          owner.last_elapsed_ = owner.elapsed();
          ++polls;
          const double mean = owner.last_elapsed_ / polls;
          next_poll =
              owner.last_elapsed_ + std::clamp(owner.last_elapsed_ - previous, mean, 2 * mean);
        }
        if ((owner.deadline_ > 0 && next_poll >= owner.deadline_) ||
            (l.nodes > 0 && owner.total_nodes_.load(std::memory_order_relaxed) >= l.nodes))
          owner.stop_.store(true);
      }
      // The first thread always finishes depth 1, so there is a move to play.
      if (owner.stop_.load(std::memory_order_relaxed) && (id != 0 || completed > 0)) stopped = true;
      return stopped;
    }

    // `known`: s's hash and evaluation when the caller has them already.
    int search(const S& s, int depth, int alpha, int beta, int ply, const Known& known = {}) {
      pv_len[ply] = ply;
      if (depth <= 0 || ply >= kMaxPly) {
        ++guesses;
        return known.has_eval ? known.eval : eval(s);
      }
      if (poll()) return 0;
      if constexpr (ChanceGameState<S>) {
        if (s.is_chance_node()) return chance(s, depth, alpha, beta, ply);
      }
      if constexpr (JointMoveState<S>) {
        if (is_joint_node(s)) return joint(s, depth, alpha, beta, ply);
      }
      const bool pv_node = beta - alpha > 1;
      const std::uint64_t key = depth < owner.options_.tt_min_depth ? 0
                                : known.hash                        ? known.hash
                                                                    : s.hash();
      TTEntry hit;
      int tt_move = -1;
      // Nodes next to the horizon skip the table: their subtree costs less than a cache miss.
      const bool use_tt = depth >= owner.options_.tt_min_depth;
      if (use_tt && owner.tt_.probe(key, hit)) {
        tt_move = hit.move_index;
        if (!pv_node && hit.depth >= depth &&
            (hit.bound == Bound::Exact || (hit.bound == Bound::Lower && hit.value >= beta) ||
             (hit.bound == Bound::Upper && hit.value <= alpha))) {
          if (hit.depth != kSolvedDepth) ++guesses;
          return hit.value;
        }
      }
      // Reverse futility: far enough above beta this close to the horizon, stand on the
      // evaluation.
      if (!pv_node && depth <= owner.options_.futility_depth && !is_decisive(beta)) {
        const int v = known.has_eval ? known.eval : eval(s);
        if (v - owner.options_.futility_margin * depth >= beta) {
          ++guesses;
          return v;
        }
      }
      const std::uint64_t guesses_before = guesses;
      MoveList moves;
      s.legal_moves(moves);
      const int n = static_cast<int>(moves.size());
      if (n == 0) {
        ++guesses;
        return known.has_eval ? known.eval : eval(s);
      }
      const int side = index(s.to_move());
      std::array<int, kCapacity> order_score;
      std::array<std::uint16_t, kCapacity> generated;  // each move's index in the generated list
      const bool look = depth >= owner.options_.eval_ordering_depth && n <= 64;
      // The look's children by generated index (slot in looked[ply], or -1) and what it knows.
      std::array<std::int8_t, kCapacity> slot;
      std::array<Known, kCapacity> known_child;
      std::vector<S>& kids = looked[ply];
      if (look) kids.clear();
      for (int i = 0; i < n; ++i) {
        slot[i] = -1;
        const Move m = moves[i];
        int score = history[side][move_key(m) & (kHistory - 1)];
        if (i == tt_move) {
          score = 1 << 30;
        } else if (killer_set[ply][0] && m == killers[ply][0]) {
          score = (1 << 29) + 1;
        } else if (killer_set[ply][1] && m == killers[ply][1]) {
          score = 1 << 29;
        } else if (look) {
          slot[i] = static_cast<std::int8_t>(kids.size());
          S& child = kids.emplace_back(s);
          child.play(m);
          ++nodes;
          Known& k = known_child[i];
          k = Known{};
          // The child will probe the table: start fetching its bucket now.
          if (depth - 1 >= owner.options_.tt_min_depth) {
            k.hash = child.hash();
            owner.tt_.prefetch(k.hash);
          }
          int v;
          if (child.is_over()) {
            v = terminal(child, s.to_move());
          } else {
            k.has_eval = true;
            k.eval = eval(child);
            v = child.to_move() == s.to_move() ? k.eval : -k.eval;
          }
          score = (1 << 27) + std::clamp(v, -(1 << 26), 1 << 26);
        }
        order_score[i] = score;
        generated[i] = static_cast<std::uint16_t>(i);
      }
      const int alpha0 = alpha;
      int best = -kInfinity;
      int best_index = -1;
      for (int k = 0; k < n; ++k) {
        // Selection sort step: the best remaining move first.
        int pick = k;
        for (int j = k + 1; j < n; ++j)
          if (order_score[j] > order_score[pick]) pick = j;
        std::swap(order_score[k], order_score[pick]);
        std::swap(moves[k], moves[pick]);
        std::swap(generated[k], generated[pick]);
        const Move m = moves[k];
        // A child the look played is searched as it is (and counted again, as it was when it
        // was played twice).
        const int g = generated[k];
        std::optional<S> played;
        if (slot[g] < 0) {
          played.emplace(s);
          played->play(m);
        }
        const S& child = slot[g] < 0 ? *played : kids[static_cast<std::size_t>(slot[g])];
        const Known known_k = slot[g] < 0 ? Known{} : known_child[g];
        ++nodes;
        int v;
        if (k == 0) {
          v = child_value(s, child, depth - 1, alpha, beta, ply + 1, known_k);
        } else {
          const int lmr_depth = owner.options_.lmr_from_depth;
          const bool reduce = lmr_depth > 0 && depth >= lmr_depth &&
                              k >= owner.options_.lmr_after && order_score[k] < (1 << 29);
          v = child_value(s, child, depth - 1 - reduce, alpha, alpha + 1, ply + 1, known_k);
          if (reduce && v > alpha && !stopped)
            v = child_value(s, child, depth - 1, alpha, alpha + 1, ply + 1, known_k);
          if (v > alpha && v < beta && !stopped)
            v = child_value(s, child, depth - 1, alpha, beta, ply + 1, known_k);
        }
        if (stopped) return 0;
        if (v > best) {
          best = v;
          best_index = k;
          if (v > alpha) {
            alpha = v;
            pv[ply][ply] = m;
            for (int j = ply + 1; j < pv_len[ply + 1]; ++j) pv[ply][j] = pv[ply + 1][j];
            pv_len[ply] = std::max(pv_len[ply + 1], ply + 1);
            if (v >= beta) {
              reward(side, ply, depth, m);
              break;
            }
          }
        }
      }
      // The table keeps indices below 255 only.
      const int stored_index =
          best_index >= 0 && generated[best_index] < 255 ? generated[best_index] : -1;
      const Bound bound = best >= beta ? Bound::Lower : best > alpha0 ? Bound::Exact : Bound::Upper;
      if (use_tt)
        owner.tt_.store(key, best, guesses == guesses_before ? kSolvedDepth : depth, bound,
                        bound == Bound::Upper ? -1 : stored_index);
      return best;
    }

    void reward(int side, int ply, int depth, Move m) {
      auto& h = history[side][move_key(m) & (kHistory - 1)];
      h += depth * depth;
      if (h > (1 << 24))
        for (auto& x : history[side]) x /= 2;
      if (!(killer_set[ply][0] && killers[ply][0] == m)) {
        killers[ply][1] = killers[ply][0];
        killer_set[ply][1] = killer_set[ply][0];
        killers[ply][0] = m;
        killer_set[ply][0] = true;
      }
    }

    // Expectation over the chance outcomes. Past star1_from_ply, Star1 cuts off as soon as the
    // outcomes seen so far decide the comparison with the window whatever the rest bring,
    // using the widest values a position can have.
    int chance(const S& s, int depth, int alpha, int beta, int ply) {
      if constexpr (ChanceGameState<S>) {
        typename S::ChanceList outcomes;
        s.chance_outcomes(outcomes);
        const bool prune = ply >= owner.options_.star1_from_ply;
        double lo = -kWin - 1000.0 * kPoint, hi = kWin + 1000.0 * kPoint;
        if constexpr (requires { Eval::lowest(); }) lo = Eval::lowest(), hi = Eval::highest();
        double sum = 0, mass = 0;
        for (const auto& o : outcomes) {
          S next = s;
          next.apply_chance(o.chance);
          ++nodes;
          const double p = o.probability;
          int a = -kInfinity, b = kInfinity;
          if (prune) {
            const double rest = 1.0 - mass - p;
            a = static_cast<int>(std::max(lo, std::floor((alpha - sum - hi * rest) / p)));
            b = static_cast<int>(std::min(hi, std::ceil((beta - sum - lo * rest) / p)));
          }
          int v = child_value(s, next, depth, a, b, ply);  // a chance event is not a ply of depth
          if (stopped) return 0;
          sum += p * v;
          mass += p;
          if (prune && v >= b && b < kInfinity) return beta;
          if (prune && v <= a && a > -kInfinity) return alpha;
        }
        pv_len[ply] = ply;
        return static_cast<int>(std::lround(sum));
      } else {
        (void)s, (void)depth, (void)alpha, (void)beta, (void)ply;
        return 0;
      }
    }
  };

  Eval eval_;
  AlphaBetaOptions options_;
  TranspositionTable tt_;
  std::span<const std::uint64_t> history_;  // valid during search() only
  Limits limits_;
  Clock clock_;
  double start_ = 0;
  double deadline_ = 0;      // seconds after start_; 0 = none
  double last_elapsed_ = 0;  // as the first thread last read it
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> total_nodes_{0};
};

}  // namespace naqala::search
