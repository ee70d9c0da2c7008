// Alpha-beta against exhaustive search on games small enough to solve.
#include "search/alphabeta.h"

#include <gtest/gtest.h>

#include <map>
#include <unordered_map>
#include <vector>

#include "core/rng.h"
#include "tiny_games.h"

namespace naqala::search {
namespace {

using test::DiceRace;
using test::Ring;
using test::Shuttle;
using test::TinyKalah;

// Full-width negamax to the end of the game, value for the player to move.
template <class S>
int solve(const S& s, std::unordered_map<std::uint64_t, int>& memo) {
  if (auto it = memo.find(s.hash()); it != memo.end()) return it->second;
  typename S::MoveList moves;
  s.legal_moves(moves);
  int best = -kInfinity;
  for (auto m : moves) {
    S child = s;
    child.play(m);
    int v;
    if (child.is_over()) {
      v = terminal_value(child.outcome(), s.to_move());
    } else {
      v = solve(child, memo);
      if (child.to_move() != s.to_move()) v = -v;
    }
    best = std::max(best, v);
  }
  memo[s.hash()] = best;
  return best;
}

// Full-width negamax to `depth` plies with the given evaluation at the horizon.
template <class S, class E>
int minimax(const S& s, int depth, const E& eval) {
  if (depth == 0) return eval(s);
  typename S::MoveList moves;
  s.legal_moves(moves);
  int best = -kInfinity;
  for (auto m : moves) {
    S child = s;
    child.play(m);
    int v;
    if (child.is_over()) {
      v = terminal_value(child.outcome(), s.to_move());
    } else {
      v = minimax(child, depth - 1, eval);
      if (child.to_move() != s.to_move()) v = -v;
    }
    best = std::max(best, v);
  }
  return best;
}

// Random positions reached by random play from the start.
template <class S>
std::vector<S> random_positions(S start, int count, std::uint64_t seed) {
  std::vector<S> out;
  Rng rng(seed);
  while (static_cast<int>(out.size()) < count) {
    S s = start;
    const int plies = static_cast<int>(rng.below(12));
    for (int i = 0; i < plies && !s.is_over(); ++i) {
      typename S::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    if (!s.is_over()) out.push_back(s);
  }
  return out;
}

template <int N>
void expect_solves(int seeds, int threads) {
  std::unordered_map<std::uint64_t, int> memo;
  AlphaBetaOptions options;
  options.threads = threads;
  options.hash_mb = 1;
  for (bool all : {false, true}) {
    options.score_all_moves = all;
    AlphaBeta<TinyKalah<N>, test::TinyKalahEval> search({}, options);
    for (const auto& s : random_positions(TinyKalah<N>(seeds), 40, 7 * N + seeds)) {
      const int truth = solve(s, memo);
      const auto r = search.search(s, {});
      ASSERT_TRUE(r.has_move);
      EXPECT_TRUE(r.exact);
      EXPECT_EQ(r.value, truth);
      // The chosen move is worth the position's value, and with all moves scored every score
      // is the exact value of that move.
      for (const auto& mv : r.scores) {
        TinyKalah<N> child = s;
        child.play(mv.move);
        int v = terminal_value(child.outcome(), s.to_move());
        if (!child.is_over())
          v = child.to_move() == s.to_move() ? solve(child, memo) : -solve(child, memo);
        if (mv.move == r.best) {
          EXPECT_EQ(v, truth);
        }
        if (all) {
          EXPECT_EQ(mv.value, v);
        }
      }
      // The principal variation is a sequence of legal moves.
      TinyKalah<N> walk = s;
      for (auto m : r.pv) {
        ASSERT_FALSE(walk.is_over());
        typename TinyKalah<N>::MoveList moves;
        walk.legal_moves(moves);
        ASSERT_TRUE(moves.contains(m));
        walk.play(m);
      }
    }
  }
}

TEST(AlphaBeta, SolvesTinyKalah2x2) {
  for (int seeds = 1; seeds <= 3; ++seeds) expect_solves<2>(seeds, 1);
}
TEST(AlphaBeta, SolvesTinyKalah2x3) {
  for (int seeds = 1; seeds <= 3; ++seeds) expect_solves<3>(seeds, 1);
}
TEST(AlphaBeta, SolvesTinyKalah2x4WithTwoThreads) {
  expect_solves<4>(2, 2);
}

TEST(AlphaBeta, DepthLimitedAgreesWithMinimaxOnForcedWins) {
  // A win minimax sees within d plies, alpha-beta at depth d must see too, and a win or loss
  // alpha-beta reports is the true result.
  std::unordered_map<std::uint64_t, int> memo;
  AlphaBetaOptions options;
  options.hash_mb = 1;
  AlphaBeta<TinyKalah<4>, test::TinyKalahEval> search({}, options);
  const test::TinyKalahEval eval;
  int wins_seen = 0;
  for (const auto& s : random_positions(TinyKalah<4>(2), 60, 11)) {
    const int truth = solve(s, memo);
    for (int depth = 1; depth <= 5; ++depth) {
      const int reference = minimax(s, depth, eval);
      Limits limits;
      limits.depth = depth;
      search.clear();
      const auto r = search.search(s, limits);
      if (is_decisive(reference)) {
        ++wins_seen;
        EXPECT_TRUE(is_decisive(r.value)) << "depth " << depth;
      }
      if (is_decisive(r.value)) {
        EXPECT_EQ(r.value > 0, truth > 0);
      }
      if (depth <= 2 && !is_decisive(reference)) {
        EXPECT_EQ(r.value, reference) << "depth " << depth;
      }
    }
  }
  EXPECT_GT(wins_seen, 0);
}

TEST(AlphaBeta, ExtraTurnIsNotASignFlip) {
  // South: pit 0 holds 2 seeds and sowing them ends in his store (extra turn); then pit 1
  // captures. Without the extra turn South could not win. Board: S pits, N pits, S store, N store.
  const auto s = TinyKalah<2>::from({1, 1, 0, 3, 0, 2}, Player::South);
  std::unordered_map<std::uint64_t, int> memo;
  AlphaBeta<TinyKalah<2>, test::TinyKalahEval> search;
  const auto r = search.search(s, {});
  EXPECT_EQ(r.value, solve(s, memo));
}

// Reverse futility (AlphaBetaOptions::futility_depth) stands on the evaluation near the
// horizon off the principal variation: fewer nodes at a fixed depth, and a search to the end
// of every line, which no longer meets a node that close to the horizon, is still exact.
TEST(AlphaBeta, ReverseFutilityPrunesAndStillSolves) {
  std::unordered_map<std::uint64_t, int> memo;
  AlphaBetaOptions options;
  options.hash_mb = 1;
  AlphaBeta<TinyKalah<4>, test::TinyKalahEval> plain({}, options);
  options.futility_depth = 2;
  options.futility_margin = 0;
  AlphaBeta<TinyKalah<4>, test::TinyKalahEval> futile({}, options);
  std::uint64_t plain_nodes = 0, futile_nodes = 0;
  for (const auto& s : random_positions(TinyKalah<4>(2), 20, 5)) {
    Limits limits;
    limits.depth = 5;
    plain.clear();
    futile.clear();
    plain_nodes += plain.search(s, limits).nodes;
    futile_nodes += futile.search(s, limits).nodes;
    futile.clear();
    const auto r = futile.search(s, {});
    EXPECT_TRUE(r.exact);
    EXPECT_EQ(r.value, solve(s, memo));
  }
  EXPECT_LT(futile_nodes, plain_nodes);
}

TEST(AlphaBeta, StopsOnTimeAndNodes) {
  AlphaBeta<TinyKalah<6>, test::TinyKalahEval> search;
  Limits limits;
  limits.nodes = 5000;
  auto r = search.search(TinyKalah<6>(4), limits);
  ASSERT_TRUE(r.has_move);
  EXPECT_LT(r.nodes, 50000u);
  limits = {};
  limits.seconds = 0.05;
  r = search.search(TinyKalah<6>(4), limits);
  ASSERT_TRUE(r.has_move);  // returning is the check: no upper bound a loaded machine could reach
  TinyKalah<6>::MoveList moves;
  TinyKalah<6>(4).legal_moves(moves);
  EXPECT_TRUE(moves.contains(r.best));
}

// Expectimax over the dice race, rounding each chance node as the search does (memoised).
int expectimax(const DiceRace& s, std::unordered_map<std::uint64_t, int>& memo) {
  if (auto it = memo.find(s.hash()); it != memo.end()) return it->second;
  int value;
  if (s.is_chance_node()) {
    DiceRace::ChanceList outcomes;
    s.chance_outcomes(outcomes);
    double sum = 0;
    for (const auto& o : outcomes) {
      DiceRace next = s;
      next.apply_chance(o.chance);
      sum += o.probability * expectimax(next, memo);
    }
    value = static_cast<int>(std::lround(sum));
  } else {
    DiceRace::MoveList moves;
    s.legal_moves(moves);
    value = -kInfinity;
    for (auto m : moves) {
      DiceRace child = s;
      child.play(m);
      const int v =
          child.is_over() ? terminal_value(child.outcome(), s.to_move()) : -expectimax(child, memo);
      value = std::max(value, v);
    }
  }
  memo[s.hash()] = value;
  return value;
}

TEST(AlphaBeta, ExpectiminimaxWithStar1MatchesExpectimax) {
  for (int target : {3, 5, 7}) {
    DiceRace start(target);
    start.apply_chance(2);
    std::unordered_map<std::uint64_t, int> memo;
    const int truth = expectimax(start, memo);
    for (int star1 : {0, 2, 100}) {
      AlphaBetaOptions options;
      options.star1_from_ply = star1;
      options.score_all_moves = true;
      AlphaBeta<DiceRace, test::DiceRaceEval> search({}, options);
      Limits limits;
      limits.depth = 40;
      const auto r = search.search(start, limits);
      EXPECT_NEAR(r.value, truth, 40) << "target " << target << " star1 from " << star1;
    }
  }
}

// Ring solved with repetition on the path: a position seen since the last point ends the game.
int solve_ring(const Ring& s, std::vector<std::uint64_t>& path) {
  Ring::MoveList moves;
  s.legal_moves(moves);
  int best = -kInfinity;
  for (auto m : moves) {
    Ring child = s;
    child.play(m);
    int v;
    if (child.is_over()) {
      v = terminal_value(child.outcome(), s.to_move());
    } else if (child.irreversible_count() != s.irreversible_count()) {
      std::vector<std::uint64_t> fresh{child.hash()};
      v = -solve_ring(child, fresh);
    } else if (std::find(path.begin(), path.end(), child.hash()) != path.end()) {
      Ring ended = child;
      ended.end_by_cycle();
      v = terminal_value(ended.outcome(), s.to_move());
    } else {
      path.push_back(child.hash());
      v = -solve_ring(child, path);
      path.pop_back();
    }
    best = std::max(best, v);
  }
  return best;
}

TEST(AlphaBeta, RepetitionEndsTheGameOnThePath) {
  Ring start;
  std::vector<std::uint64_t> path{start.hash()};
  const int truth = solve_ring(start, path);
  AlphaBetaOptions options;
  options.hash_mb = 1;
  AlphaBeta<Ring, test::RingEval> search({}, options);
  Limits limits;
  limits.depth = 60;
  const auto r = search.search(start, limits);
  ASSERT_TRUE(r.has_move);
  EXPECT_EQ(r.value > 0, truth > 0);
  EXPECT_EQ(r.value < 0, truth < 0);
}

// The position right after a capture is on the path too: the cycle back to it ends the game at
// its first recurrence (ply 3), scored there, not one ply later at the next position's.
TEST(AlphaBeta, RepetitionOfThePositionAfterACapture) {
  Shuttle after_capture;
  after_capture.play(0);
  Shuttle again = after_capture;
  again.play(0);
  again.play(0);
  ASSERT_EQ(again.hash(), after_capture.hash());
  again.end_by_cycle();
  AlphaBeta<Shuttle, test::ShuttleEval> search;
  Limits limits;
  limits.depth = 20;
  const auto r = search.search(Shuttle{}, limits);
  ASSERT_TRUE(r.has_move);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.pv.size(), 3u);
  EXPECT_EQ(r.value, terminal_value(again.outcome(), Player::South));
  EXPECT_LT(r.value, 0);  // North wins 2-1
}

}  // namespace
}  // namespace naqala::search
