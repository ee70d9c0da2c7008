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

// The features of a position of a preset, from the view of the player to move.
std::array<int, kSowingFeatures> features_of(const char* name, const std::string& position) {
  const auto rules = preset(name);
  std::array<int, kSowingFeatures> f;
  SowingEval(*rules).features(sowing::State::from_position(*rules, position), f);
  return f;
}

TEST(SowingEval, KalahFeatures) {
  // South: pit 3 (4 seeds) ends in his store: an extra turn; pit 1 (1 seed) lands in the empty
  // pit 2 opposite North's 5 seeds: a capture of 6.
  const auto f = features_of("kalah", "1,0,4,0,0,0/4,5,5,4,5,4/10,6/S");
  EXPECT_EQ(f[kStoreDiff], 4);
  EXPECT_EQ(f[kRowDiff], 5 - 27);
  EXPECT_EQ(f[kMobilityDiff], 2 - 6);
  EXPECT_EQ(f[kExtraTurns], 1);
  EXPECT_EQ(f[kCaptureNow], 1 + 5);
}

// Oware's kroo: a pit of 12 or more seeds laps the board (11 holes a lap, the origin skipped).
// South's 12 count, his 11 do not; North's 15 count against him.
TEST(SowingEval, OwareKroo) {
  const auto f = features_of("oware", "12,0,0,0,0,11/1,1,1,1,1,15/3,2/S");
  EXPECT_EQ(f[kKroo], 12 - 15);
  EXPECT_EQ(features_of("oware", "12,0,0,0,0,11/1,1,1,1,1,15/3,2/N")[kKroo], 15 - 12);
}

// Gabata's board has three rows: North's own row is the third, and each player owns half of the
// middle row (South columns 4-6, North columns 1-3), where only North has seeds here.
TEST(SowingEval, GabataCountsOwnPitsOfEveryRow) {
  const auto f = features_of("gabata", "1,1,1,1,1,1/2,2,2,0,0,0/5,0,5,0,5,0/14,13/S");
  EXPECT_EQ(f[kRowDiff], 6 - (15 + 6));
  EXPECT_EQ(f[kMobilityDiff], 6 - (3 + 3));
}

// After a Nam-Nam round South owns N1-N3 too: his side is his row and those pits. Read by rows,
// the position was South's 1 seed and 1 playable pit against North's 15 and 6, and its value
// had the wrong sign.
TEST(SowingEval, NamNamFollowsOwnership) {
  const auto rules = preset("namnam");
  const auto s =
      sowing::State::from_position(*rules, "0,0,0,0,0,1/4,4,4,1,1,1/16,16/S/owners:SSSSSSSSSNNN");
  std::array<int, kSowingFeatures> f;
  const SowingEval eval(*rules);
  eval.features(s, f);
  EXPECT_EQ(f[kRowDiff], (1 + 12) - 3);
  EXPECT_EQ(f[kMobilityDiff], 4 - 3);
  EXPECT_GT(eval(s), 0);
  // North to move sees the same position from the other side.
  const auto n =
      sowing::State::from_position(*rules, "0,0,0,0,0,1/4,4,4,1,1,1/16,16/N/owners:SSSSSSSSSNNN");
  eval.features(n, f);
  EXPECT_EQ(f[kRowDiff], 3 - 13);
  EXPECT_EQ(f[kMobilityDiff], 3 - 4);
  EXPECT_LT(eval(n), 0);
}

TEST(SowingEval, OwareChainedCapture) {
  // South's pit 6 (3 seeds) sows North's pits 1-3, making 2, 3, 2: a chain of 7 seeds.
  const auto f = features_of("oware", "4,4,4,4,4,3/1,2,1,4,4,4/8,1/S");
  EXPECT_EQ(f[kCaptureNow], 7);
  EXPECT_EQ(f[kStoreDiff], 7);
}

TEST(SowingEval, OwareExposedPits) {
  // South's pits with 1 or 2 seeds become 2 or 3 with one more: 1 + 2 + 1 = 4 seeds close to
  // capture; North's 2 in his pit 2 and 1 in pit 5: 3.
  const auto f = features_of("oware", "1,2,4,5,1,6/4,2,4,4,1,4/8,2/S");
  EXPECT_EQ(f[kExposed], 4 - 3);
  EXPECT_EQ(f[kTuz], 0);
}

TEST(SowingEval, ToguzTuz) {
  // South owns a tuz in North's row (N3), North none: +1 for South to move, -1 for North.
  const std::string board = "9,9,9,9,9,9,9,9,9/9,9,0,9,9,9,9,9,9/9,0/";
  EXPECT_EQ(features_of("toguz", board + "S/tuz:N3")[kTuz], 1);
  const auto f = features_of("toguz", board + "N/tuz:N3");
  EXPECT_EQ(f[kTuz], -1);
  // Toguz captures even counts: odd pits are close to capture. North (to move) has eight
  // pits of 9 (N3 is his emptied pit, South's tuz), South nine.
  EXPECT_EQ(f[kExposed], 8 * 9 - 9 * 9);
}

TEST(Tune, IsReproducibleAndFitsBetter) {
  const auto rules = preset("oware");
  TuneOptions o;
  o.games = 12;
  o.depth = 2;
  const auto a = tune_sowing(*rules, default_sowing_weights(*rules), o);
  const auto b = tune_sowing(*rules, default_sowing_weights(*rules), o);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_GT(a.positions, 100u);
  EXPECT_LE(a.rms_after, a.rms_before + 1e-6);
  EXPECT_EQ(a.weights.size(), static_cast<std::size_t>(kSowingFeatures));
}

TEST(Tune, FitRecoversALinearRule) {
  // Margins made exactly by 2 x f0 - 0.5 x f1: the fit finds those weights (in hundredths).
  std::vector<std::vector<int>> f;
  std::vector<double> m;
  for (int a = -5; a <= 5; ++a)
    for (int b = -3; b <= 4; ++b) {
      f.push_back({a, b});
      m.push_back(2.0 * a - 0.5 * b);
    }
  const auto r = fit_weights(f, m, {0, 0}, 1e-9);
  EXPECT_EQ(r.weights, (std::vector<int>{200, -50}));
  EXPECT_NEAR(r.rms_after, 0, 1e-6);
  EXPECT_GT(r.rms_before, 1);
}

}  // namespace
}  // namespace naqala::eval
