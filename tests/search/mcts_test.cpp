// MCTS: legal moves, sound choices on games solved exhaustively, tree reuse, threads.
#include "search/mcts.h"

#include <gtest/gtest.h>

#include <unordered_map>

#include "core/rng.h"
#include "search/alphabeta.h"
#include "tiny_games.h"

namespace naqala::search {
namespace {

using test::TinyKalah;

template <class S>
int solve(const S& s, std::unordered_map<std::uint64_t, int>& memo) {
  if (auto it = memo.find(s.hash()); it != memo.end()) return it->second;
  typename S::MoveList moves;
  s.legal_moves(moves);
  int best = -kInfinity;
  for (auto m : moves) {
    S child = s;
    child.play(m);
    int v = terminal_value(child.outcome(), s.to_move());
    if (!child.is_over())
      v = child.to_move() == s.to_move() ? solve(child, memo) : -solve(child, memo);
    best = std::max(best, v);
  }
  memo[s.hash()] = best;
  return best;
}

template <class S>
int move_value(const S& s, typename S::Move m, std::unordered_map<std::uint64_t, int>& memo) {
  S child = s;
  child.play(m);
  if (child.is_over()) return terminal_value(child.outcome(), s.to_move());
  return child.to_move() == s.to_move() ? solve(child, memo) : -solve(child, memo);
}

class MctsBatch : public ::testing::TestWithParam<int> {};

TEST_P(MctsBatch, PicksWinningMovesOnTinyKalah) {
  // Where some moves win and others do not, MCTS with enough simulations picks a winning move,
  // whether its simulations run one by one or in batches (virtual loss, playouts side by side).
  std::unordered_map<std::uint64_t, int> memo;
  Rng rng(3);
  int tested = 0, right = 0;
  for (int game = 0; game < 200 && tested < 40; ++game) {
    TinyKalah<3> s(2);
    for (int ply = static_cast<int>(rng.below(6)); ply > 0 && !s.is_over(); --ply) {
      TinyKalah<3>::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    if (s.is_over()) continue;
    TinyKalah<3>::MoveList moves;
    s.legal_moves(moves);
    int winning = 0;
    for (auto m : moves) winning += move_value(s, m, memo) > 0;
    if (winning == 0 || winning == static_cast<int>(moves.size())) continue;
    ++tested;
    MctsOptions options;
    options.seed = game + 1;
    options.batch = GetParam();
    Mcts<TinyKalah<3>> mcts(options);
    const auto r = mcts.search(s, 20000, 0);
    ASSERT_TRUE(r.has_move);
    ASSERT_TRUE(moves.contains(r.best));
    right += move_value(s, r.best, memo) > 0;
  }
  EXPECT_GE(tested, 20);
  EXPECT_GE(right, tested * 9 / 10) << right << " of " << tested;
}

TEST_P(MctsBatch, BacksUpEverySimulationOnce) {
  // Each simulation passes through one root child: their visits add up to the simulations,
  // and no result is left out (a win rate is between 0 and 1).
  MctsOptions options;
  options.batch = GetParam();
  options.reuse_tree = false;
  Mcts<TinyKalah<6>> mcts(options);
  const auto r = mcts.search(TinyKalah<6>(4), 5000, 0);
  ASSERT_TRUE(r.has_move);
  std::uint64_t visits = 0;
  for (const auto& m : r.moves) {
    visits += m.visits;
    EXPECT_GE(m.win_rate, 0.0);
    EXPECT_LE(m.win_rate, 1.0);
  }
  EXPECT_EQ(visits, r.simulations);
  EXPECT_EQ(r.simulations % static_cast<std::uint64_t>(GetParam()), 0u);
}

INSTANTIATE_TEST_SUITE_P(Batches, MctsBatch, ::testing::Values(1, 4, 8));

TEST(Mcts, ReusesTheTreeAfterAMove) {
  MctsOptions options;
  Mcts<TinyKalah<6>> mcts(options);
  TinyKalah<6> s(4);
  auto r = mcts.search(s, 20000, 0);
  ASSERT_TRUE(r.has_move);
  EXPECT_EQ(r.reused, 0u);
  s.play(r.best);
  if (s.to_move() == Player::South) {  // an extra turn: play on until North moves
    r = mcts.search(s, 2000, 0);
    s.play(r.best);
  }
  TinyKalah<6>::MoveList moves;
  s.legal_moves(moves);
  s.play(moves[0]);
  r = mcts.search(s, 1000, 0);
  EXPECT_GT(r.reused, 0u);
  TinyKalah<6>::MoveList legal;
  s.legal_moves(legal);
  EXPECT_TRUE(legal.contains(r.best));
}

TEST(Mcts, RunsOnTwoThreads) {
  MctsOptions options;
  options.threads = 2;
  Mcts<TinyKalah<6>> mcts(options);
  const auto r = mcts.search(TinyKalah<6>(4), 20000, 0);
  ASSERT_TRUE(r.has_move);
  EXPECT_GE(r.simulations, 20000u);
  std::uint64_t visits = 0;
  for (const auto& m : r.moves) visits += m.visits;
  EXPECT_GE(visits, 20000u);
}

TEST(Mcts, StopsOnTime) {
  Mcts<TinyKalah<6>> mcts;
  const auto r = mcts.search(TinyKalah<6>(4), 0, 0.05);
  ASSERT_TRUE(r.has_move);
  // No simulation limit: returning at all shows the clock stopped it (CTest's timeout guards a
  // hang); an upper bound on the time would fail on a loaded machine.
  EXPECT_GE(r.seconds, 0.05);
}

}  // namespace
}  // namespace naqala::search
