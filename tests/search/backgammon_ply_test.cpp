// Backgammon n-ply search: legal moves, ordering, the guards.
#include "search/backgammon_ply.h"

#include <gtest/gtest.h>

#include <memory>

namespace naqala::bgsearch {
namespace {

using backgammon::State;

Board board_of(const std::string& id) {
  const State s = State::from_gnubg_id(id, backgammon::Rules{});
  return {s.side(s.on_roll()), s.side(opponent(s.on_roll()))};
}

TEST(BackgammonPly, EverySearchedMoveIsLegalAndRankedBestFirst) {
  const Net& net = bgeval::shipped_net();
  const Board b = board_of("4HPwATDgc/ABMA:cAnlAAAAAAAE");
  auto legal = std::make_unique<backgammon::MoveList>();
  for (int plies = 0; plies <= 2; ++plies) {
    Config c;
    c.plies = plies;
    c.threads = 2;
    const Result r = rank_moves(net, b, 3, 1, c);
    backgammon::generate_moves(b, Player::South, 3, 1, *legal);
    ASSERT_EQ(r.moves.size(), legal->size());
    for (const auto& m : r.moves) EXPECT_TRUE(legal->contains(m.move));
    EXPECT_EQ(r.plies, plies);
    EXPECT_EQ(r.moves[0].plies, plies);
    for (std::size_t i = 1; i < r.moves.size() && r.moves[i].plies == plies; ++i)
      EXPECT_GE(r.moves[i - 1].equity, r.moves[i].equity);
  }
}

TEST(BackgammonPly, TheEvaluationBudgetStopsDeepening) {
  const Net& net = bgeval::shipped_net();
  const Board b = board_of("4HPwATDgc/ABMA:cAnlAAAAAAAE");
  Config c;
  c.plies = 2;
  c.max_evaluations = 2000;  // enough for 1 ply of a few moves, not for 2
  const Result r = rank_moves(net, b, 6, 5, c);
  EXPECT_LT(r.plies, 2);
  EXPECT_FALSE(r.moves.empty());
}

TEST(BackgammonPly, BearoffUsesTheDatabase) {
  // Both sides bearing off: 1-ply on roll equals the database's exact value.
  const Net& net = bgeval::shipped_net();
  Board b{};
  b[0][0] = 2, b[0][3] = 1;
  b[1][1] = 2, b[1][4] = 1;
  const auto exact = bearoff::evaluate(b[0], b[1]);
  ASSERT_TRUE(exact.has_value());
  EXPECT_FLOAT_EQ(evaluate_on_roll(net, b, 1)[0], (*exact)[0]);
}

}  // namespace
}  // namespace naqala::bgsearch
