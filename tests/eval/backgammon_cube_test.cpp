// Money cube decisions in textbook positions (Janowski's model).
#include "eval/backgammon_cube.h"

#include <gtest/gtest.h>

namespace naqala::bgcube {
namespace {

bgnet::Probs plain(float win) {
  return {{win, 0, 0, 0, 0}};
}

TEST(BackgammonCube, DeadCubeTakePointIsTwentyFivePercent) {
  // Keeler and Spencer, "Optimal doubling in backgammon" (1975): with a dead cube and no
  // gammons the taker needs 25%.
  const auto at = [](float taker) { return 2 * cubeful(plain(1 - taker), Access::Theirs, 0.0f); };
  EXPECT_LT(at(0.26f), 1.0f);  // the doubler gets less than the pass: take
  EXPECT_GT(at(0.24f), 1.0f);
}

TEST(BackgammonCube, LiveCubeTakePointIsTwentyPercent) {
  // Janowski, "Take-points in money games" (1993): a fully live cube moves the take point
  // to (L - 1/2) / (W + L + 1/2) = 20% without gammons.
  const auto at = [](float taker) { return 2 * cubeful(plain(1 - taker), Access::Theirs, 1.0f); };
  EXPECT_LT(at(0.21f), 1.0f);
  EXPECT_GT(at(0.19f), 1.0f);
}

TEST(BackgammonCube, ContactDecisionsWithoutGammons) {
  // Cube efficiency 0.68: the take point is about 21.4%, the doubling window opens near 68%.
  EXPECT_EQ(money_decision(plain(0.60f), Access::Centred, false).verdict, "No double, take");
  EXPECT_EQ(money_decision(plain(0.65f), Access::Centred, false).verdict, "No double, take");
  EXPECT_EQ(money_decision(plain(0.72f), Access::Centred, false).verdict, "Double, take");
  EXPECT_EQ(money_decision(plain(0.77f), Access::Centred, false).verdict, "Double, take");
  EXPECT_EQ(money_decision(plain(0.80f), Access::Centred, false).verdict, "Double, pass");
}

TEST(BackgammonCube, TooGoodWithBigGammonChances) {
  // 85% with 50% gammons: cashing one point throws away more than playing on (a classic
  // blitz "too good" position).
  const bgnet::Probs blitz{{0.85f, 0.50f, 0.02f, 0.02f, 0}};
  const auto d = money_decision(blitz, Access::Centred, false);
  EXPECT_FALSE(d.should_double);
  EXPECT_EQ(d.verdict, "Too good, pass");
}

TEST(BackgammonCube, TakePointCountsTheCubeTheTakerOwns) {
  // Without gammons a dead cube takes at 25%; owning the cube lowers the take point to about
  // 21.5% in contact (cube efficiency 0.68) and 20.6% in a race (0.85).
  auto take_point = [](double gammons, bool race) {
    double lo = 0, hi = 0.5;  // the taker's chance where the equity crosses -0.5
    for (int i = 0; i < 60; ++i) {
      const double p = (lo + hi) / 2;
      const Estimate doubler{1 - p, gammons * (1 - p), 0};
      (equity_after_take(doubler, race) >= -0.5 ? hi : lo) = p;
    }
    return hi;
  };
  EXPECT_NEAR(take_point(0, false), 0.5 / (2 + 0.5 * 0.68), 1e-6);
  EXPECT_NEAR(take_point(0, true), 0.5 / (2 + 0.5 * 0.85), 1e-6);
  // The doubler's gammons make taking worse.
  EXPECT_GT(take_point(0.2, false), take_point(0, false) + 0.02);
  // A certain loss is worth -1 (or -2 with a certain gammon), never more.
  EXPECT_NEAR(equity_after_take({1, 0, 0}, false), -1, 1e-9);
  EXPECT_NEAR(equity_after_take({1, 1, 0}, false), -2, 1e-9);
}

TEST(BackgammonCube, TheEngineDoublesAsTheAnalysisJudges) {
  // The engines' cube action before the roll follows money_decision: in contact (the opening
  // position stands in for any contact position) no double at 60%, double at 72%, and not
  // when too good (85% with 50% gammons, the blitz above).
  using backgammon::Move;
  const auto action = [](const Estimate& e, bool jacoby) {
    backgammon::Rules r;
    r.jacoby = jacoby;
    backgammon::State s(r);
    s.set_position(backgammon::start_board(), Player::South, 0, 0);
    EXPECT_EQ(s.phase(), backgammon::Phase::TurnStart);
    return cube_action(s, e).kind;
  };
  EXPECT_EQ(action({0.60, 0, 0}, false), Move::Kind::Roll);
  EXPECT_EQ(action({0.72, 0, 0}, false), Move::Kind::Double);
  EXPECT_EQ(action({0.85, 0.50, 0.02}, false), Move::Kind::Roll);
  // With the Jacoby rule and a centred cube the gammons do not count unless the cube is
  // turned: double (and cash, or play on for the gammons at twice the stake).
  EXPECT_EQ(action({0.85, 0.50, 0.02}, true), Move::Kind::Double);
}

}  // namespace
}  // namespace naqala::bgcube
