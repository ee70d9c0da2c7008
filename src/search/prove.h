#pragma once
// Proving a game's result by search: "does player R finish with a point margin of at least
// t?" answered exactly, by a depth-first AND/OR search to the end of the game with
// - bounds on the final margin at every node (for sowing games the stores only grow, so the
//   margin is at least 2 * store(R) - total and at most total - 2 * store(opponent)): a node
//   whose bounds decide the question is not searched further;
// - a transposition table of answered positions (the answer is exact, so it never depends
//   on depth);
// - moves ordered by an evaluation, best first, so the proving move is usually tried first.
// The exact margin is found by a binary search over t. For games that end on cycles the
// prover does not track repetitions, so it is meant for games without them (Kalah).
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "games/game.h"
#include "search/values.h"

namespace naqala::search {

// Bounds on R's final point margin in a position that is not over.
template <class B, class S>
concept MarginBounds = requires(const B b, const S s, Player r) {
  { b.lower(s, r) } -> std::convertible_to<int>;
  { b.upper(s, r) } -> std::convertible_to<int>;
};

template <GameState S, MarginBounds<S> Bounds, class Eval>
class Prover {
 public:
  using Move = typename S::Move;
  using MoveList = typename S::MoveList;

  Prover(Bounds bounds, Eval eval, std::size_t table_mb = 256)
      : bounds_(std::move(bounds)), eval_(std::move(eval)) {
    std::size_t n =
        std::bit_floor(std::max<std::size_t>(1024, (table_mb << 20) / sizeof(std::uint64_t)));
    table_ = std::make_unique<std::uint64_t[]>(n);
    mask_ = n - 1;
  }

  struct Stats {
    std::uint64_t nodes = 0;
    double seconds = 0;
    bool finished = false;  // false: the time ran out before an answer
  };

  // Does `r` finish with a margin of at least `t` from `s`, with best play by both?
  // nullopt when `seconds` (0 = no limit) run out first.
  std::optional<bool> at_least(const S& s, Player r, int t, double seconds,
                               Stats* stats = nullptr) {
    // Answers of earlier questions stay in the table under other keys: the question (R, t)
    // is mixed into every key, so the table need not be cleared.
    salt_ = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(2 * (t + 100000) + index(r) + 1);
    r_ = r;
    t_ = t;
    nodes_ = 0;
    stopped_ = false;
    deadline_ = seconds;
    start_ = std::chrono::steady_clock::now();
    const bool answer = solve(s);
    if (stats) {
      stats->nodes = nodes_;
      stats->seconds = elapsed();
      stats->finished = !stopped_;
    }
    if (stopped_) return std::nullopt;
    return answer;
  }

  // The exact margin for `r` by binary search between the root's bounds; nullopt on timeout.
  // `low`/`high` report how far the search got.
  std::optional<int> margin(const S& s, Player r, double seconds, int& low, int& high,
                            Stats* stats = nullptr) {
    low = bounds_.lower(s, r);
    high = bounds_.upper(s, r);
    const auto start = std::chrono::steady_clock::now();
    Stats total;
    while (low < high) {
      const int mid = low + (high - low + 1) / 2;  // is the margin >= mid?
      double left = 0;
      if (seconds > 0) {
        left = seconds -
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (left <= 0) break;
      }
      Stats st;
      const auto answer = at_least(s, r, mid, left, &st);
      total.nodes += st.nodes;
      if (!answer) break;
      if (*answer) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total.finished = low == high;
    if (stats) *stats = total;
    if (low != high) return std::nullopt;
    return low;
  }

 private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  bool final_margin_at_least(const S& s) const {
    const Outcome o = s.outcome();
    return o.scores[index(r_)] - o.scores[index(opponent(r_))] >= t_;
  }

  // True when R reaches the margin t from s (not over) with best play.
  bool solve(const S& s) {
    if (stopped_) return false;
    if ((++nodes_ & 0xffff) == 0 && deadline_ > 0 && elapsed() > deadline_) stopped_ = true;
    if (bounds_.lower(s, r_) >= t_) return true;
    if (bounds_.upper(s, r_) < t_) return false;
    // Entries hold the position's key with its lowest bit replaced by the answer.
    const std::uint64_t key = (s.hash() ^ salt_) | 1;
    {
      const std::uint64_t entry = table_[(key >> 1) & mask_];
      if (entry != 0 && (entry | 1) == key) return entry & 1;
    }
    MoveList moves;
    s.legal_moves(moves);
    const bool maximizer = s.to_move() == r_;
    // Children ordered by the evaluation from the mover's view; finished games first when
    // they answer the question.
    std::array<int, 64> score{};
    const int n = static_cast<int>(moves.size());
    for (int i = 0; i < n && i < 64; ++i) {
      S child = s;
      child.play(moves[i]);
      if (child.is_over()) {
        score[i] = final_margin_at_least(child) == maximizer ? kInfinity : -kInfinity;
      } else {
        const int v = eval_(child);
        score[i] = child.to_move() == s.to_move() ? v : -v;
      }
    }
    bool answer = !maximizer;  // OR over moves for R, AND for the opponent
    for (int k = 0; k < n; ++k) {
      int pick = k;
      for (int j = k + 1; j < n && j < 64; ++j)
        if (score[j] > score[pick]) pick = j;
      std::swap(score[k], score[pick]);
      std::swap(moves[k], moves[pick]);
      S child = s;
      child.play(moves[k]);
      const bool reached = child.is_over() ? final_margin_at_least(child) : solve(child);
      if (stopped_) return false;
      if (maximizer && reached) {
        answer = true;
        break;
      }
      if (!maximizer && !reached) {
        answer = false;
        break;
      }
    }
    // (A key of 1 answered false would read as an empty slot and is simply not kept.)
    table_[(key >> 1) & mask_] = answer ? key : (key & ~1ULL);
    return answer;
  }

  Bounds bounds_;
  Eval eval_;
  std::unique_ptr<std::uint64_t[]> table_;
  std::size_t mask_ = 0;
  std::uint64_t salt_ = 0;
  Player r_ = Player::South;
  int t_ = 1;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
  double deadline_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace naqala::search
