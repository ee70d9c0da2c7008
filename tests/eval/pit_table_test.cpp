// The pit table: its value in the evaluation, its file, and the fit that makes it.
#include "eval/pit_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <tuple>

#include "core/error.h"
#include "core/rng.h"
#include "eval/pit_table_fit.h"
#include "eval/sowing_eval.h"
#include "games/sowing/rules_toml.h"
#include "scratch_dir.h"

namespace naqala::eval {
namespace {

std::shared_ptr<const sowing::Rules> rules_of(
    const char* name, const std::vector<std::pair<std::string, std::string>>& options = {}) {
  for (const auto& p : sowing::presets())
    if (p.name == name) return sowing::load_rules(p.toml, name, options);
  return nullptr;
}

// Entry (side, pit, count) = 1000 x side + 100 x pit + count: every term of a sum is legible.
PitTable legible_table(int pits) {
  PitTable t;
  t.pits = pits;
  for (int side = 0; side < 2; ++side)
    for (int pit = 0; pit < pits; ++pit)
      for (int c = 0; c < kTableCounts; ++c) t.value.push_back(1000 * side + 100 * pit + c);
  return t;
}

SowingWeights with_table(const sowing::Rules& rules, PitTable t) {
  SowingWeights w = default_sowing_weights(rules);
  w.table = std::make_shared<const PitTable>(std::move(t));
  return w;
}

// North to move: his row (pits 1-6 from his left) is the mover's, South's the opponent's; a
// pit of 30 seeds reads the last entry (24 or more).
TEST(PitTable, ValueSumsTheMoversAndTheOpponentsPits) {
  const auto rules = rules_of("oware");
  const SowingEval eval(*rules, with_table(*rules, legible_table(6)));
  std::array<int, kSowingFeatures> f;
  eval.features(sowing::State::from_position(*rules, "1,0,2,0,3,0/30,1,0,0,0,0/3,8/N"), f);
  const int mover = 24 + (100 + 1) + 200 + 300 + 400 + 500;
  const int other = 6 * 1000 + 1 + (100 + 0) + (200 + 2) + 300 + (400 + 3) + 500;
  EXPECT_EQ(f[kPitTable], mover + other);
  SowingWeights none = default_sowing_weights(*rules);
  none.table = nullptr;
  SowingEval(*rules, none)
      .features(sowing::State::from_position(*rules, "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S"), f);
  EXPECT_EQ(f[kPitTable], 0);
}

// Each preset with a file in data/ plays its own table: Oware, Kalah (4 and 6 seeds) and
// Toguz; an option without a file of its own, and a preset without one, play the linear weights.
TEST(PitTable, EachPresetPlaysTheFileItShips) {
  for (const auto& [name, options] :
       std::vector<std::pair<const char*, std::vector<std::pair<std::string, std::string>>>>{
           {"oware", {}}, {"kalah", {}}}) {
    const auto rules = rules_of(name, options);
    const SowingWeights w = default_sowing_weights(*rules);
    ASSERT_NE(w.table, nullptr) << name;
    EXPECT_EQ(w.table->pits, rules->pits) << name;
    EXPECT_EQ(w.w[kPitTable], 1) << name;
    // Played: the evaluation adds the table's entries of the position to the linear features.
    sowing::State s = sowing::State::initial(*rules);
    sowing::State::MoveList moves;
    s.legal_moves(moves);
    s.play(moves[0]);
    const SowingEval eval(*rules);
    SowingWeights linear = w;
    linear.table = nullptr;
    int sum = 0;
    for (int side = 0; side < 2; ++side) {
      const int first = rules->first_pit(side ? opponent(s.to_move()) : s.to_move());
      for (int i = 0; i < rules->pits; ++i)
        sum += w.table->value[PitTable::index(side, i, rules->pits, s.seeds(first + i))];
    }
    EXPECT_EQ(eval(s), SowingEval(*rules, linear)(s) + sum) << name;
  }
  EXPECT_EQ(default_sowing_weights(*rules_of("oware", {{"cycle", "draw"}})).table, nullptr);
  EXPECT_EQ(default_sowing_weights(*rules_of("kalah", {{"seeds", "3"}})).table, nullptr);
  EXPECT_EQ(default_sowing_weights(*rules_of("awale")).table, nullptr);
  EXPECT_THROW(SowingEval(*rules_of("toguz"), with_table(*rules_of("toguz"), legible_table(6))),
               Error);
}

TEST(PitTable, FileRoundTripsAndBadFilesAreRefused) {
  const naqala::testing::ScratchDir dir;
  TrainedSowingEval e;
  e.weights = {100, 2, 3, -4};
  e.table = legible_table(6);
  e.made_by = "a test";
  save_trained_eval(dir / "eval.txt", e);
  const TrainedSowingEval back = load_trained_eval(dir / "eval.txt");
  EXPECT_EQ(back.weights, e.weights);
  EXPECT_EQ(back.table.pits, 6);
  EXPECT_EQ(back.table.value, e.table.value);
  EXPECT_EQ(back.made_by, "a test");
  for (const char* text :
       {"weights 1 2\ntable 6\n1 2 3\n", "weights 1 x\n", "table 6\n", "weights 1\ntable 0\n",
        "weights 1\nbogus\n", "weights 1\ntable 1\n" /* rows missing */}) {
    std::ofstream(dir / "bad.txt") << text;
    EXPECT_THROW(load_trained_eval(dir / "bad.txt"), Error) << text;
  }
  // The error names the file's line and what it should hold.
  std::ofstream(dir / "bad.txt") << "# a comment\nweights 100 5\ntable 6\n1 2 x\n";
  try {
    load_trained_eval(dir / "bad.txt");
    ADD_FAILURE() << "a table row of 2 numbers was read";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("bad.txt:4: expected 25 table values"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(load_trained_eval(dir / "missing.txt"), Error);
  // A table of another board, or more weights than features.
  const auto rules = rules_of("oware");
  e.table = legible_table(5);
  EXPECT_THROW(trained_sowing_weights(*rules, e), Error);
  e.table = legible_table(6);
  e.weights.assign(kSowingFeatures + 1, 0);
  EXPECT_THROW(trained_sowing_weights(*rules, e), Error);
}

// Labels made by a table (plus the store difference, and a capture on offer in Kalah or the tuz in
// Toguz) are what the fit gives back: the fitted evaluation scores them within rounding, where the
// linear weights miss by seeds.
TEST(PitTableFit, RecoversTheTableThatMadeTheLabels) {
  for (const auto& [name, feature, weight] :
       std::vector<std::tuple<const char*, SowingFeature, int>>{
           {"oware", kStoreDiff, 100}, {"kalah", kCaptureNow, 80}, {"toguz", kTuz, 400}}) {
    const auto rules = rules_of(name);
    SowingWeights truth = default_sowing_weights(*rules);
    truth.w.fill(0);
    truth.w[kStoreDiff] = 100;
    truth.w[feature] = weight;
    truth.w[kPitTable] = 1;
    PitTable t = legible_table(rules->pits);
    Rng rng(7);
    for (auto& v : t.value) v = static_cast<std::int16_t>(static_cast<int>(rng.below(601)) - 300);
    truth.table = std::make_shared<const PitTable>(t);
    const SowingEval made(*rules, truth);
    std::vector<LabelledPosition> data;
    for (int game = 0; game < 300; ++game) {
      sowing::State s = sowing::State::initial(*rules);
      for (int ply = 0; ply < 60 && !s.is_over(); ++ply) {
        data.push_back({s, made(s) / 100.0});
        sowing::State::MoveList moves;
        s.legal_moves(moves);
        s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      }
    }
    SowingWeights linear = default_sowing_weights(*rules);
    linear.table = nullptr;
    const PitTableFit fit = fit_pit_table(*rules, data, linear, 0.001, 0);
    EXPECT_EQ(fit.positions, data.size()) << name;
    EXPECT_GT(fit.rms_before, 1.0) << name;
    EXPECT_LT(fit.rms_after, 0.05) << name;
    EXPECT_EQ(fit.eval.weights[kStoreDiff], 100) << name;
    EXPECT_EQ(fit.eval.weights[kPitTable], 1) << name;
    EXPECT_NEAR(fit.eval.weights[feature], weight, 1) << name;
  }
}

}  // namespace
}  // namespace naqala::eval
