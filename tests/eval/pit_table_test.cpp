// The pit table: its value in the evaluation, its file, and the fit that makes it.
#include "eval/pit_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <tuple>

#include "core/error.h"
#include "core/rng.h"
#include "eval/mirrored_position.h"
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

// The late half: entry (side, pit, count) = -(2000 + 1000 x side + 100 x pit + count); the pair
// table: entry (pit, mine, opposite) = 1000 x (pit + 1) + 10 x mine + opposite.
PitTable legible_late_and_pairs(int pits) {
  PitTable t = legible_table(pits);
  for (auto v : t.value) t.late.push_back(static_cast<std::int16_t>(-2000 - v));
  for (int pit = 0; pit < pits; ++pit)
    for (int mine = 0; mine < kPairCounts; ++mine)
      for (int opposite = 0; opposite < kPairCounts; ++opposite)
        t.pair.push_back(static_cast<std::int16_t>(1000 * (pit + 1) + 10 * mine + opposite));
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
           {"oware", {}}, {"kalah", {}}, {"kalah", {{"seeds", "6"}}}, {"toguz", {}}}) {
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

// The late half is blended in by the stores' share of the seeds, and each column adds its pair
// entry: the mover's pit k (from his left) and the opponent's pit opposite it, his pit
// pits - 1 - k; counts of 9 or more read the last entry.
TEST(PitTable, LateHalfAndPairsFollowTheirDefinitions) {
  const auto rules = rules_of("kalah");
  const SowingEval eval(*rules, with_table(*rules, legible_late_and_pairs(6)));
  std::array<int, kSowingFeatures> f;
  // North to move: his pits from his left 4,5,5,4,5,4; South's 1,0,4,0,0,12; stores 3 + 1 of 48.
  eval.features(sowing::State::from_position(*rules, "1,0,4,0,0,12/4,5,5,4,5,4/3,1/N"), f);
  const int mover = (4) + (100 + 5) + (200 + 5) + (300 + 4) + (400 + 5) + (500 + 4);
  const int other = 6000 + 1 + (100 + 0) + (200 + 4) + 300 + 400 + (500 + 12);
  const int early = mover + other, late = -12 * 2000 - early;
  int pairs = 0;
  const int north[6] = {4, 5, 5, 4, 5, 4}, south[6] = {1, 0, 4, 0, 0, 12};
  for (int k = 0; k < 6; ++k) pairs += 1000 * (k + 1) + 10 * north[k] + std::min(9, south[5 - k]);
  EXPECT_EQ(f[kPitTable], (early * (48 - 4) + late * 4) / 48 + pairs);
}

// Seen from the mover, a position and its mirror (rows, stores and the mover swapped) are the
// same position: every feature and the value agree, with the shipped file and the late and pair
// tables alike.
TEST(PitTable, MirroredPositionsEvaluateAlike) {
  const auto rules = rules_of("kalah");
  const SowingEval shipped(*rules);
  const SowingEval with_pairs(*rules, with_table(*rules, legible_late_and_pairs(6)));
  Rng rng(3);
  for (int game = 0; game < 40; ++game) {
    sowing::State s = sowing::State::initial(*rules);
    for (int ply = 0; ply < 80 && !s.is_over(); ++ply) {
      const std::string position = s.position();
      const auto mirror = sowing::State::from_position(*rules, mirrored(position));
      ASSERT_EQ(mirrored(mirror.position()), position);
      for (const SowingEval* eval : {&shipped, &with_pairs}) {
        std::array<int, kSowingFeatures> a, b;
        eval->features(s, a);
        eval->features(mirror, b);
        EXPECT_EQ(a, b) << position;
        EXPECT_EQ((*eval)(s), (*eval)(mirror)) << position;
      }
      sowing::State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
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
  EXPECT_TRUE(back.table.late.empty());
  EXPECT_TRUE(back.table.pair.empty());
  e.table = legible_late_and_pairs(6);
  save_trained_eval(dir / "pairs.txt", e);
  const TrainedSowingEval with_pairs = load_trained_eval(dir / "pairs.txt");
  EXPECT_EQ(with_pairs.table.value, e.table.value);
  EXPECT_EQ(with_pairs.table.late, e.table.late);
  EXPECT_EQ(with_pairs.table.pair, e.table.pair);
  // A pair table is for captures of the pit opposite (Kalah), not Oware's; Bao reads none.
  EXPECT_NO_THROW(trained_sowing_weights(*rules_of("kalah"), e));
  EXPECT_THROW(trained_sowing_weights(*rules_of("oware"), e), Error);
  e.table.pair.pop_back();
  EXPECT_THROW(trained_sowing_weights(*rules_of("kalah"), e), Error);
  e.table = legible_table(6);
  std::string row;  // one row of a one-pit table
  for (int c = 0; c < kTableCounts; ++c) row += "1 ";
  const std::string one_pit = "weights 1\ntable 1\n" + row + "\n" + row + "\n";
  std::string pair_rows;
  for (int r = 0; r < kPairCounts; ++r) pair_rows += "1 1 1 1 1 1 1 1 1 1\n";
  for (const std::string& text :
       {std::string("weights 1 2\ntable 6\n1 2 3\n"), std::string("weights 1 x\n"),
        std::string("table 6\n"), std::string("weights 1\ntable 0\n"),
        std::string("weights 1\nbogus\n"), std::string("weights 1\ntable 1\n") /* rows missing */,
        std::string("weights 1\nlate\n") /* before the table */,
        one_pit + "late\n" + row + "\n" /* a late row missing */,
        one_pit + "pairs\n1 1 1\n" /* a short pair row */,
        one_pit + "pairs\n" + pair_rows + "pairs\n" + pair_rows /* twice */}) {
    std::ofstream(dir / "bad.txt") << text;
    EXPECT_THROW(load_trained_eval(dir / "bad.txt"), Error) << text;
  }
  std::ofstream(dir / "good.txt") << one_pit << "late\n"
                                  << row << "\n"
                                  << row << "\npairs\n"
                                  << pair_rows;
  EXPECT_EQ(load_trained_eval(dir / "good.txt").table.pair.size(), kPairCounts * kPairCounts);
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

// The positions of random games, each labelled by `made` (in points).
std::vector<LabelledPosition> labelled_random_games(const sowing::Rules& rules,
                                                    const SowingEval& made, int games, int plies,
                                                    Rng& rng) {
  std::vector<LabelledPosition> data;
  for (int game = 0; game < games; ++game) {
    sowing::State s = sowing::State::initial(rules);
    for (int ply = 0; ply < plies && !s.is_over(); ++ply) {
      data.push_back({s, made(s) / 100.0});
      sowing::State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
  return data;
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
    const auto data = labelled_random_games(*rules, made, 300, 60, rng);
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

// The same with a late half and a pair table (Kalah): labels made by random tables of all three
// are fitted back within rounding.
TEST(PitTableFit, RecoversTheLateHalfAndThePairTable) {
  const auto rules = rules_of("kalah");
  SowingWeights truth = default_sowing_weights(*rules);
  truth.w.fill(0);
  truth.w[kStoreDiff] = 100;
  truth.w[kPitTable] = 1;
  PitTable t = legible_late_and_pairs(rules->pits);
  Rng rng(11);
  for (auto* part : {&t.value, &t.late, &t.pair})
    for (auto& v : *part) v = static_cast<std::int16_t>(static_cast<int>(rng.below(401)) - 200);
  truth.table = std::make_shared<const PitTable>(t);
  const SowingEval made(*rules, truth);
  const auto data = labelled_random_games(*rules, made, 150, 80, rng);
  SowingWeights linear = default_sowing_weights(*rules);
  linear.table = nullptr;
  const PitTableFit plain = fit_pit_table(*rules, data, linear, 0.001, 0);
  const PitTableFit fit = fit_pit_table(*rules, data, linear, 0.001, 0, {true, true});
  EXPECT_EQ(fit.eval.table.late.size(), t.late.size());
  EXPECT_EQ(fit.eval.table.pair.size(), t.pair.size());
  EXPECT_GT(plain.rms_after, 1.0);  // one table alone cannot make these labels
  EXPECT_LT(fit.rms_after, 0.05);
  EXPECT_THROW(fit_pit_table(*rules_of("oware"), data, linear, 1, 0, {false, true}), Error);
}

}  // namespace
}  // namespace naqala::eval
