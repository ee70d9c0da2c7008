// Money cube decisions in textbook positions (Janowski's model).
#include "eval/backgammon_cube.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "eval/backgammon_evaluator.h"
#include "search/backgammon_ply.h"

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
  // 21.4% in contact (cube efficiency 0.68) and 21.3% in a long race (0.70).
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
  EXPECT_NEAR(take_point(0, true), 0.5 / (2 + 0.5 * 0.70), 1e-6);
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

// Cube decisions in whole positions: the chances from the exact bear-off tables or the shipped
// net at 0 ply (as level 6 decides), the action from cube_action. South is on roll with its
// side `me`; both sides from their own view (index i = point i + 1).
using backgammon::Move;
using backgammon::Side;

backgammon::State on_roll(const Side& me, const Side& opp, bool jacoby = false) {
  backgammon::Rules r;
  r.jacoby = jacoby;
  backgammon::State s(r);
  s.set_position({me, opp}, Player::South, 0, 0);
  return s;
}

bgnet::Probs chances(const backgammon::State& s) {
  return bgsearch::evaluate_on_roll(bgeval::shipped_net(),
                                    {s.side(s.on_roll()), s.side(opponent(s.on_roll()))}, 0);
}

// The doubler's action before the roll, and the taker's answer once doubled.
std::pair<Move::Kind, Move::Kind> actions(backgammon::State s) {
  const bgnet::Probs p = chances(s);
  const Move::Kind first = cube_action(s, p).kind;
  s.play(Move::of(Move::Kind::Double));
  return {first, cube_action(s, p).kind};
}

Side side_of(std::initializer_list<std::pair<int, int>> point_counts) {
  Side s{};
  for (auto [point, n] : point_counts) s[point - 1] = static_cast<std::uint8_t>(n);
  return s;
}

// A race of `pips` for one side: 70 pips in the home board, the rest in the outfield below
// the 13-point (no contact with a like side).
Side race_side(int pips) {
  Side s = side_of({{6, 5}, {5, 4}, {4, 3}, {3, 2}, {2, 1}});
  for (int p = 70; p < pips; ++p) {
    int i = 10;
    while (s[i] == 0) --i;
    --s[i], ++s[i + 1];
  }
  return s;
}

TEST(BackgammonCube, LastRollBearOffIsDoublePass) {
  // One checker on the 5-point against one on the opponent's ace point: only 1-1, 2-1 and
  // 3-1 miss (5 rolls of 36), so the doubler wins 31/36 = 86% and the opponent, with no
  // second chance, needs 25% to take (Keeler and Spencer 1975, dead cube): double, pass.
  const auto s = on_roll(side_of({{5, 1}}), side_of({{1, 1}}));
  EXPECT_NEAR(chances(s)[bgnet::Probs::Win], 31.0 / 36, 1e-5);
  EXPECT_EQ(actions(s), std::pair(Move::Kind::Double, Move::Kind::Drop));
}

TEST(BackgammonCube, LongShotIsNoDoubleAndADoubleThereIsTakenNotBeavered) {
  // Checkers on the 6- and 4-points against one on the ace: only 6-5, 6-4 and doubles from
  // 3-3 up bear both off (8/36 = 22%): no double. If doubled anyway the opponent takes; he
  // would beaver where beavers are played, and naqala's rules (RULES.md section 21) have
  // none, so the answer is a plain take.
  const auto s = on_roll(side_of({{6, 1}, {4, 1}}), side_of({{1, 1}}));
  EXPECT_NEAR(chances(s)[bgnet::Probs::Win], 8.0 / 36, 1e-5);
  EXPECT_EQ(actions(s), std::pair(Move::Kind::Roll, Move::Kind::Take));
  EXPECT_TRUE(money_decision(chances(s), Access::Centred, true).beaver);
  EXPECT_FALSE(money_decision(plain(0.72f), Access::Centred, false).beaver);
}

TEST(BackgammonCube, RaceDecisionsFollowThePipLead) {
  // Trice's rule of thumb for long races (Backgammon Boot Camp, 2004): the leader on roll
  // doubles from a lead of about 8% of his count and the opponent passes beyond about 12%.
  // At 80 pips: 80 against 80 no double, 80 against 88 (10%) double/take, 80 against 100
  // (25%) double/pass.
  EXPECT_EQ(actions(on_roll(race_side(80), race_side(80))).first, Move::Kind::Roll);
  EXPECT_EQ(actions(on_roll(race_side(80), race_side(88))),
            std::pair(Move::Kind::Double, Move::Kind::Take));
  EXPECT_EQ(actions(on_roll(race_side(80), race_side(100))),
            std::pair(Move::Kind::Double, Move::Kind::Drop));
}

TEST(BackgammonCube, ClosedOutBlitzIsTooGoodUnlessJacoby) {
  // A closed board against three checkers on the bar, the opponent's others still far from
  // home: a gammon most of the time, so cashing one point is too little (too good: play on);
  // with the Jacoby rule the undoubled gammon scores single, so double and cash.
  const Side me = side_of({{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {8, 3}});
  Side opp = side_of({{13, 4}, {12, 4}, {11, 4}});
  opp[backgammon::kBar] = 3;
  const auto p = chances(on_roll(me, opp));
  EXPECT_GT(p[bgnet::Probs::WinGammon], 0.5f);
  EXPECT_EQ(actions(on_roll(me, opp)).first, Move::Kind::Roll);
  EXPECT_EQ(actions(on_roll(me, opp, true)), std::pair(Move::Kind::Double, Move::Kind::Drop));
}

TEST(BackgammonCube, CubefulEquityAfterAMoveCountsTheOpponentsCube) {
  // After my move the opponent has 85% without gammons: for him a double and a pass, so my
  // move is worth -1 with the cube centred (cubeless it would be -0.7). When I own the cube
  // he cannot double and it is worth more than -1.
  const bgnet::Probs mine = plain(0.15f);
  EXPECT_NEAR(equity_after_move(mine, Access::Centred, false, false), -1, 1e-6);
  EXPECT_NEAR(mine.equity(), -0.7, 1e-6);
  const float owned = equity_after_move(mine, Access::Mine, false, false);
  EXPECT_GT(owned, -0.9f);
  EXPECT_NEAR(owned, -cubeful(plain(0.85f), Access::Theirs, efficiency(false)), 1e-6);
  // A move that wins a gammon outright: 2 points, or 1 under the Jacoby rule (cube centred).
  const bgnet::Probs gammon{{1, 1, 0, 0, 0}};
  EXPECT_NEAR(equity_after_move(gammon, Access::Centred, true, false), 2, 1e-3);
  EXPECT_NEAR(equity_after_move(gammon, Access::Centred, true, true), 1, 1e-3);
  EXPECT_NEAR(equity_after_move(gammon, Access::Theirs, true, true), 2, 1e-3);
}

TEST(BackgammonCube, CubefulSearchRanksByCubefulEquity) {
  // With a cube the root's scores are equity_after_move of each move's chances.
  bgsearch::Config c;
  c.cube = bgsearch::Config::Cube{Access::Theirs, false};
  const auto r = bgsearch::rank_moves(bgeval::shipped_net(), backgammon::start_board(), 6, 5, c);
  ASSERT_FALSE(r.moves.empty());
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const auto& m = r.moves[i];
    EXPECT_NEAR(m.equity,
                equity_after_move(m.probs, Access::Theirs,
                                  !bgnet::in_contact(m.after[1], m.after[0]), false),
                1e-6);
    if (i > 0) EXPECT_LE(m.equity, r.moves[i - 1].equity);
  }
}

TEST(BackgammonCube, TheCubeDiesAsTheRaceEnds) {
  // Measured from exact cubeful bear-off equities (bench/backgammon_cube_life.cpp): the
  // cube's life falls from a long race's 0.70 to about 0.6 at 35 pips and 0.22 at 5.
  EXPECT_FLOAT_EQ(efficiency(Stage{false}), 0.68f);
  EXPECT_FLOAT_EQ(efficiency(Stage{true, 100}), 0.70f);
  EXPECT_FLOAT_EQ(efficiency(Stage{true, 35}), 0.60f);
  EXPECT_FLOAT_EQ(efficiency(Stage{true, 5}), 0.22f);
  EXPECT_FLOAT_EQ(efficiency(Stage{true, 1}), 0.22f);
  for (int pips = 2; pips <= 80; ++pips)
    EXPECT_GE(efficiency(Stage{true, pips}), efficiency(Stage{true, pips - 1})) << pips;
  // So a short bear-off doubles where a long race waits: 65% without gammons is a
  // double/take at 10 pips (x 0.35) and no double in a 100-pip race, whose window runs from
  // 70% to 79% (Trice's leads of 8% and 12% of the count, about 71% and 79% at 100 pips).
  const auto verdict = [](float p, int pips) {
    return money_decision(plain(p), Access::Centred, Stage{true, pips}).verdict;
  };
  EXPECT_EQ(verdict(0.65f, 10), "Double, take");
  EXPECT_EQ(verdict(0.65f, 100), "No double, take");
  EXPECT_EQ(verdict(0.72f, 100), "Double, take");
  EXPECT_EQ(verdict(0.80f, 100), "Double, pass");
  const backgammon::Board bearoff{side_of({{6, 2}, {5, 1}}), side_of({{4, 2}, {2, 1}})};
  EXPECT_TRUE(stage_of(bearoff).race);
  EXPECT_EQ(stage_of(bearoff).pips, (17 + 10) / 2);
  EXPECT_FALSE(stage_of(backgammon::start_board()).race);
}

TEST(BackgammonCube, CubeLifeIsCheckedAndSet) {
  EXPECT_THROW(set_cube_life(1.2f, 0.5f), naqala::Error);
  EXPECT_THROW(set_cube_life(0.5f, -0.1f), naqala::Error);
  const float contact = efficiency(false), race = efficiency(true);
  set_cube_life(0.5f, 0.6f, false);
  EXPECT_FLOAT_EQ(efficiency(false), 0.5f);
  EXPECT_FLOAT_EQ(efficiency(true), 0.6f);
  EXPECT_FLOAT_EQ(efficiency(Stage{true, 5}), 0.6f);
  set_cube_life(contact, race);
  EXPECT_FLOAT_EQ(efficiency(Stage{true, 5}), 0.22f);
}

}  // namespace
}  // namespace naqala::bgcube
