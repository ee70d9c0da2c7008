// Race training from one-sided race distributions (eval/backgammon_race_train.h).
#include "eval/backgammon_race_train.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "eval/backgammon_bearoff.h"
#include "eval/backgammon_evaluator.h"

namespace naqala::bgrace {
namespace {

using backgammon::Side;

float total(const std::array<float, kRolls>& d) {
  return std::accumulate(d.begin(), d.end(), 0.0f);
}

TEST(RaceTrain, HomeSidesAreTheBearOffDatabase) {
  // Both sides home with more than six checkers: the evaluation combines the same one-sided
  // distributions, so the chances agree.
  Side a{}, b{};
  a[0] = 3, a[2] = 4, a[5] = 2;  // 9 checkers, 6 off
  b[1] = 5, b[3] = 3, b[4] = 7;  // 15 checkers
  Rng rng(1);
  const Distribution da = sample(a, 10, rng), db = sample(b, 10, rng);
  const auto exact = bearoff::evaluate(a, b);
  ASSERT_TRUE(exact);
  const bgnet::Probs p = race_probs(da, db);
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(p[k], (*exact)[k], 1e-4) << k;
  EXPECT_NEAR(total(da.off), 1, 1e-4);
  EXPECT_FLOAT_EQ(da.first_off[0], 1);  // a checker is off: no gammon against it
  EXPECT_EQ(p[bgnet::Probs::LoseGammon], 0);
}

TEST(RaceTrain, SampledRacesFollowTheDice) {
  // One checker on the 7-point gets off in one roll with 23 of the 36 rolls (a total of 7 or
  // more, or doubles from 2-2); sampling 20,000 races finds that within 1%.
  Side s{};
  s[6] = 1;
  Rng rng(3);
  const Distribution d = sample(s, 20000, rng);
  EXPECT_NEAR(d.off[1], 23.0 / 36, 0.01);
  EXPECT_NEAR(total(d.off), 1, 1e-4);
  EXPECT_NEAR(d.first_off[0], 1, 1e-3);  // 14 checkers are off already
  EXPECT_NEAR(d.cleared[0], 1, 1e-3);    // nothing on its 19-24 points
  // None off: the first checker comes off in the roll that brings the last one home at the
  // earliest, never before the start.
  Side in{};
  in[6] = 1, in[0] = 14;
  const Distribution i = sample(in, 2000, rng);
  EXPECT_EQ(i.first_off[0], 0);
  EXPECT_GT(i.first_off[1], 0.5f);
  // A checker on the 20-point must clear the opponent's home board first.
  Side far{};
  far[19] = 1, far[0] = 14;
  const Distribution f = sample(far, 2000, rng);
  EXPECT_EQ(f.cleared[0], 0);
  EXPECT_GT(f.cleared[1], 0.9f);  // every roll but 1-1 takes it past the 19-point
  // Two equal sides: the one on roll is the favourite, and the gammons are symmetric zero-ish.
  Side mid{};
  for (int i = 6; i < 12; ++i) mid[i] = i < 9 ? 3 : 2;
  const Distribution m = sample(mid, 2000, rng);
  const bgnet::Probs even = race_probs(m, m);
  EXPECT_GT(even[0], 0.5f);
  EXPECT_LT(even[0], 0.75f);
  EXPECT_LT(even[bgnet::Probs::WinGammon], 0.01f);
}

TEST(RaceTrain, TrainingMovesTheRaceNetTowardsTheDistributions) {
  // A small run from random weights: the race net's error against the targets falls, and the
  // other nets are left alone.
  bgnet::Net net;
  const bgnet::Net before = net;
  Config c;
  c.games = 0;
  c.random_sides = 60;
  c.trials = 40;
  c.steps = 20000;
  c.rate = 0.01f;
  const std::vector<Side> sides = collect_sides(net, c);
  ASSERT_EQ(sides.size(), 60u);
  std::vector<Distribution> d;
  Rng rng(7);
  for (const Side& s : sides) d.push_back(sample(s, 200, rng));
  auto error = [&](const bgnet::Net& n) {
    double e = 0;
    int count = 0;
    for (std::size_t i = 0; i + 1 < sides.size(); ++i) {
      const Side& a = sides[i];
      const Side& b = sides[i + 1];
      if (!(bgnet::classify(a, b) == bgnet::PositionClass::Race)) continue;
      e += std::fabs(n.evaluate(a, b)[0] - race_probs(d[i], d[i + 1])[0]);
      ++count;
    }
    EXPECT_GT(count, 5);
    return e / count;
  };
  const double error_before = error(net);
  train(net, c, [](const Progress&) {});
  EXPECT_LT(error(net), error_before * 0.6);
  EXPECT_EQ(net.mlp(bgnet::PositionClass::Contact).w1,
            before.mlp(bgnet::PositionClass::Contact).w1);
  EXPECT_NE(net.mlp(bgnet::PositionClass::Race).w1, before.mlp(bgnet::PositionClass::Race).w1);
}

}  // namespace
}  // namespace naqala::bgrace

namespace naqala::bgrace {
namespace {

TEST(RaceTrain, ShippedRaceNetAgreesWithTheDistributions) {
  // The shipped race net (trained by `train backgammon --race`, docs/games/backgammon.md) is
  // within 3 points of the sampled distributions' winning chance on a short race and on
  // symmetric outfield races, where the self-play net read 15 points high for the side on roll.
  const bgnet::Net& net = bgeval::shipped_net();
  Side race_me{}, race_opp{};
  race_me[0] = 3, race_me[2] = 4, race_me[4] = 4, race_me[7] = 4;
  race_opp[1] = 5, race_opp[3] = 5, race_opp[5] = 3, race_opp[8] = 2;
  std::vector<std::pair<Side, Side>> races{{race_me, race_opp}};
  Rng pick(11);
  for (int k = 0; k < 4; ++k) {
    Side s{};
    for (int n = 0; n < backgammon::kCheckers; ++n) ++s[6 + pick.below(6)];
    races.push_back({s, s});
  }
  for (const auto& [me, opp] : races) {
    Rng rng(5);
    const bgnet::Probs target = race_probs(sample(me, 2000, rng), sample(opp, 2000, rng));
    EXPECT_NEAR(net.evaluate(me, opp)[bgnet::Probs::Win], target[bgnet::Probs::Win], 0.03);
  }
}

}  // namespace
}  // namespace naqala::bgrace
