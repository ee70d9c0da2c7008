// The hand-written player: legal and sensible moves, whole matches, cube actions.
#include "eval/backgammon_heuristic.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "core/rng.h"

using namespace naqala;
using namespace naqala::backgammon;
using namespace naqala::bgheuristic;

namespace {

void roll(State& s, Rng& rng) {
  ChanceList list;
  s.chance_outcomes(list);
  double r = rng.uniform(), acc = 0;
  for (const auto& c : list) {
    acc += c.probability;
    if (r < acc) {
      s.apply_chance(c.chance);
      return;
    }
  }
  s.apply_chance(list[list.size() - 1].chance);
}

// Plays one game or match; `bot_side` is played by the bot, the other side at random.
State play_out(Rules rules, std::optional<Player> bot_side, Rng& rng) {
  State s(rules);
  while (!s.is_over()) {
    if (s.is_chance_node()) {
      roll(s, rng);
      continue;
    }
    MoveList moves;
    s.legal_moves(moves);
    Move m;
    if (!bot_side || s.to_move() == *bot_side) {
      m = choose_move(s, &rng).move;
      EXPECT_TRUE(moves.contains(m)) << "bot chose an illegal move at " << s.gnubg_id();
    } else {
      m = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
    }
    s.play(m);
  }
  return s;
}

}  // namespace

TEST(BackgammonBot, BeatsRandomPlay) {
  Rng rng(5);
  Rules r;
  r.cube = false;
  int wins = 0;
  const int games = 200;
  for (int g = 0; g < games; ++g) {
    const Player bot = g % 2 ? Player::South : Player::North;
    const State s = play_out(r, bot, rng);
    if (s.outcome().winner == bot) ++wins;
  }
  EXPECT_GE(wins, games * 9 / 10) << wins << " of " << games;
}

TEST(BackgammonBot, PlaysWholeMatchesWithTheCube) {
  Rng rng(9);
  Rules r;
  r.match = 5;
  for (int m = 0; m < 10; ++m) {
    State s = play_out(r, std::nullopt, rng);
    EXPECT_TRUE(s.is_over());
    EXPECT_GE(std::max(s.score(Player::South), s.score(Player::North)), 5);
  }
}

TEST(BackgammonBot, CubeDecisions) {
  // South far ahead in a race: South doubles and North drops.
  Board b{};
  b[0][0] = 5;
  b[0][1] = 5;
  b[0][2] = 5;   // South: 30 pips, all home
  b[1][5] = 15;  // North: 90 pips
  State s;
  s.set_position(b, Player::South, 0, 0);
  ASSERT_EQ(s.phase(), Phase::TurnStart);
  EXPECT_EQ(choose_move(s).move.kind, Move::Kind::Double);
  s.play(Move::of(Move::Kind::Double));
  EXPECT_EQ(choose_move(s).move.kind, Move::Kind::Drop);
  // An even race: no double.
  Board even{};
  even[0][5] = 15;
  even[1][5] = 15;
  State t;
  t.set_position(even, Player::South, 0, 0);
  EXPECT_EQ(choose_move(t).move.kind, Move::Kind::Roll);
  // Slightly behind when doubled in an even race: take.
  t.play(Move::of(Move::Kind::Double));
  EXPECT_EQ(choose_move(t).move.kind, Move::Kind::Take);
}

TEST(BackgammonBot, TakesADoubleGnubgTakes) {
  // From bot self-play: South on roll, the bot gives him 76% (cubeless equity +0.58);
  // gnubg 2-ply: 77% and "Double, take" (+0.939). The dead-cube rule dropped it.
  Rules r;
  State s = State::from_gnubg_id("3+4BACDYuwVDAA:MAEAAAAAAAAE", r);
  ASSERT_EQ(s.phase(), Phase::TurnStart);
  s.play(Move::of(Move::Kind::Double));
  EXPECT_EQ(choose_move(s).move.kind, Move::Kind::Take);
}
