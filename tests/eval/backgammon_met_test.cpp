// naqala's match equity table (continuous game model) and the cube decisions it drives.
#include "eval/backgammon_met.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "eval/backgammon_evaluator.h"
#include "search/backgammon_ply.h"

namespace naqala::bgmet {
namespace {

using bgcube::Access;

TEST(BackgammonMet, RatesAreTheShippedNetsOpeningChances) {
  const bgnet::Probs p =
      bgsearch::evaluate_on_roll(bgeval::shipped_net(), backgammon::start_board(), 1);
  EXPECT_NEAR(p[bgnet::Probs::WinGammon] + p[bgnet::Probs::LoseGammon], kNetRates.gammon, 1e-4);
  EXPECT_NEAR(p[bgnet::Probs::WinBackgammon] + p[bgnet::Probs::LoseBackgammon],
              kNetRates.backgammon, 1e-4);
}

TEST(BackgammonMet, SymmetricAndMonotone) {
  const Table& t = table();
  for (int a = 1; a <= kMaxAway; ++a)
    for (int b = 1; b <= kMaxAway; ++b) {
      EXPECT_NEAR(t.pre_crawford(a, b) + t.pre_crawford(b, a), 1, 1e-9) << a << " " << b;
      if (a > 1) {
        EXPECT_GT(t.pre_crawford(a - 1, b), t.pre_crawford(a, b)) << a << " " << b;
      }
    }
  for (int n = 2; n <= kMaxAway; ++n) EXPECT_GE(t.post_crawford(n), t.post_crawford(n - 1));
  EXPECT_THROW(t.pre_crawford(0, 3), naqala::Error);
  EXPECT_THROW(t.pre_crawford(3, kMaxAway + 1), naqala::Error);
  const GameRates more_backgammons_than_gammons{0.2, 0.3};
  EXPECT_THROW(Table{more_backgammons_than_gammons}, naqala::Error);
  EXPECT_THROW((Table{kNetRates, kMaxAway + 1}), naqala::Error);
}

TEST(BackgammonMet, WithoutGammonsTheEndgameIsHalving) {
  // No gammons: after the Crawford game the trailer doubles at once, so each game is worth 2
  // points and the leader needs one win in k games when the trailer is 2k away.
  const Table t(GameRates{0, 0}, 11);
  for (int k = 1; k <= 5; ++k) EXPECT_NEAR(t.post_crawford(2 * k), 1 - std::pow(0.5, k), 1e-12);
  EXPECT_NEAR(t.pre_crawford(1, 2), 0.75, 1e-12);  // the Crawford game at 1-away 2-away
  EXPECT_NEAR(t.pre_crawford(2, 2), 0.5, 1e-12);
}

TEST(BackgammonMet, TheTrailersGammonsInTheCrawfordGame) {
  // 1-away 2-away, Crawford: the trailer's gammon wins the match.
  const Table t(GameRates{0.3, 0.01}, 2);
  EXPECT_NEAR(t.pre_crawford(1, 2), 0.5 + 0.5 * 0.7 * 0.5, 1e-12);
}

// Where the taker is indifferent: the chance p of the doubler at which the taken cube's MWC
// curve meets the drop's.
double take_point(const Table& t, const Score& s, int cube) {
  const Curve taken = t.curve(s, 2 * cube, Access::Theirs);
  const double dropped = t.next(s.away - cube, s.opp_away, s.post_crawford);
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double p = (lo + hi) / 2;
    (at(taken, p) < dropped ? lo : hi) = p;
  }
  return 1 - lo;  // the taker's chance
}

TEST(BackgammonMet, LongMatchesApproachTheLiveMoneyCube) {
  // Far from the end a point is worth about the same at every score, so the take point nears
  // money play's with a fully live cube: 20% without gammons (Keeler and Spencer 1975;
  // Janowski 1993), and at 2-away 2-away, where the taken cube is dead, it is the Crawford
  // game's 1 - MWC(1-away, 2-away) = 25% without gammons.
  const Table t(GameRates{0, 0}, 15);  // 25-away each: 20.1%; 15-away: 20.3%
  EXPECT_NEAR(take_point(t, {15, 15, false}, 1), 0.20, 0.01);
  EXPECT_NEAR(take_point(t, {2, 2, false}, 1), 0.25, 0.01);
}

TEST(BackgammonMet, CurvesAreBoundedAndEndAtTheGameValues) {
  const Table& t = table();
  const Score s{4, 7, false};
  for (Access a : {Access::Centred, Access::Mine, Access::Theirs}) {
    const Curve c = t.curve(s, 1, a);
    EXPECT_DOUBLE_EQ(c[0], t.loss_value(s, 1));
    EXPECT_DOUBLE_EQ(c[kGrid], t.win_value(s, 1));
    for (int i = 1; i <= kGrid; ++i) EXPECT_GE(c[i], c[i - 1] - 1e-12);
  }
  // Owning the cube is worth something, facing it costs.
  EXPECT_GT(at(t.curve(s, 2, Access::Mine), 0.6), at(t.curve(s, 2, Access::Theirs), 0.6));
}

backgammon::Move::Kind match_action(int south, int north, const bgcube::Estimate& e, bool doubled) {
  backgammon::Rules r;
  r.match = 5;
  backgammon::State s(r);
  s.set_score(south, north, false);
  s.set_position(backgammon::start_board(), Player::South, 0, 0);
  if (doubled) s.play(backgammon::Move::of(backgammon::Move::Kind::Double));
  return bgcube::cube_action(s, e).kind;
}

TEST(BackgammonMet, MatchCubeActionsFollowTheTable) {
  using K = backgammon::Move::Kind;
  // 2-away 2-away (3-3 in a 5-point match): the taken cube is dead, and a drop leaves the
  // taker in the Crawford game 2 away: he takes while his chance is above 1 - MWC(1, 2),
  // about 31.6% with the net's gammon rate (a dead cube in money play: 25%).
  const double taker_needs = 1 - table().pre_crawford(1, 2);
  EXPECT_NEAR(taker_needs, 0.5 - 0.25 * (1 - kNetRates.gammon), 1e-9);
  EXPECT_EQ(match_action(3, 3, {1 - taker_needs - 0.02, 0, 0}, true), K::Take);
  EXPECT_EQ(match_action(3, 3, {1 - taker_needs + 0.02, 0, 0}, true), K::Drop);
  // Money play would not double at 66% in contact (the window opens near 68%); at 2-away
  // 2-away, where holding the cube is worth nothing to the doubler, it doubles.
  EXPECT_EQ(match_action(3, 3, {0.66, 0, 0}, false), K::Double);
  // At 0-0 of 5 (5-away 5-away) 55% is no double.
  EXPECT_EQ(match_action(0, 0, {0.55, 0, 0}, false), K::Roll);
}

}  // namespace
}  // namespace naqala::bgmet
