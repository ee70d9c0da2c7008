// The sowing evaluation's features on hand-made positions, and the tuning command's fit.
#include "eval/sowing_eval.h"

#include <gtest/gtest.h>

#include "eval/tune.h"
#include "games/sowing/rules_toml.h"

namespace naqala::eval {
namespace {

std::shared_ptr<const sowing::Rules> preset(const char* name) {
  for (const auto& p : sowing::presets())
    if (p.name == name) return sowing::load_rules(p.toml, name, {});
  return nullptr;
}

TEST(SowingEval, KalahFeatures) {
  const auto rules = preset("kalah");
  // South: pit 3 (4 seeds) ends in his store: an extra turn; pit 1 (1 seed) lands in the empty
  // pit 2 opposite North's 5 seeds: a capture of 6.
  const auto s = sowing::State::from_position(*rules, "1,0,4,0,0,0/4,5,5,4,5,4/10,6/S");
  const SowingEval eval(*rules);
  std::array<int, kSowingFeatures> f;
  eval.features(s, f);
  EXPECT_EQ(f[kStoreDiff], 4);
  EXPECT_EQ(f[kRowDiff], 5 - 27);
  EXPECT_EQ(f[kMobilityDiff], 2 - 6);
  EXPECT_EQ(f[kExtraTurns], 1);
  EXPECT_EQ(f[kCaptureNow], 1 + 5);
}

TEST(SowingEval, OwareChainedCapture) {
  const auto rules = preset("oware");
  // South's pit 6 (3 seeds) sows North's pits 1-3, making 2, 3, 2: a chain of 7 seeds.
  const auto s = sowing::State::from_position(*rules, "4,4,4,4,4,3/1,2,1,4,4,4/8,1/S");
  const SowingEval eval(*rules);
  std::array<int, kSowingFeatures> f;
  eval.features(s, f);
  EXPECT_EQ(f[kCaptureNow], 7);
  EXPECT_EQ(f[kStoreDiff], 7);
}

TEST(Tune, IsReproducibleAndFitsBetter) {
  const auto rules = preset("oware");
  TuneOptions o;
  o.games = 12;
  o.depth = 2;
  const auto a = tune_sowing(*rules, default_sowing_weights(*rules), o);
  const auto b = tune_sowing(*rules, default_sowing_weights(*rules), o);
  EXPECT_EQ(a.weights.w, b.weights.w);
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_GT(a.positions, 100u);
  EXPECT_LE(a.rms_after, a.rms_before + 1e-6);
}

}  // namespace
}  // namespace naqala::eval
