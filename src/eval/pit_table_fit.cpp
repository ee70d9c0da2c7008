#include "eval/pit_table_fit.h"

#include <cmath>

#include "core/error.h"
#include "eval/table_fit.h"

namespace naqala::eval {

namespace {

// The features fitted beside the table; the store difference is not among them (weight 1).
// Extra turns (Kalah) and the tuz (Toguz) are 0 in Oware, and their weights fit to 0 there.
constexpr std::array<SowingFeature, 10> kFitted = {
    kRowDiff,       kMobilityDiff, kCaptureNow, kCaptureThreat, kExtraTurns,
    kOpponentExtra, kExposed,      kTuz,        kCycleRow,      kKroo};

// One ridge solve over the labels: `fixed` (hundredths of a point, kFitted order) are
// weights already decided and taken off the target; the columns are the other linear features
// (when `fixed` is empty) and the table's entries.
std::vector<double> solve(const sowing::Rules& rules, const std::vector<LabelledPosition>& data,
                          const SowingEval& features_of, const std::vector<int>& fixed,
                          double ridge, double smooth, PitTableShape shape) {
  const int pits = rules.pits;
  const int linear = fixed.empty() ? static_cast<int>(kFitted.size()) : 0;
  const int table_rows = (shape.late ? 4 : 2) * pits;
  const int late_start = linear + 2 * pits * kTableCounts;
  const int pair_start = linear + table_rows * kTableCounts;
  TableFit fit(linear, table_rows, shape.pairs ? pits : 0, kPairCounts);
  const double total = std::max(1, rules.total_seeds);
  std::vector<std::pair<int, double>> active;  // (column, value) of one position
  for (const auto& p : data) {
    const sowing::State& s = p.state;
    const Player me = s.to_move();
    std::array<int, kSowingFeatures> f;
    features_of.features(s, f);
    double target = p.label - f[kStoreDiff];
    for (std::size_t i = 0; i < fixed.size(); ++i)
      target -= fixed[i] * f[kFitted[i]] / double(search::kPoint);
    active.clear();
    for (int i = 0; i < linear; ++i)
      if (f[kFitted[i]]) active.emplace_back(i, f[kFitted[i]]);
    // With a late table each entry is read twice, weighted as the evaluation blends them.
    const double stored = (s.store(me) + s.store(opponent(me))) / total;
    for (int side = 0; side < 2; ++side) {
      const int first = rules.first_pit(side ? opponent(me) : me);
      for (int i = 0; i < pits; ++i) {
        const int entry = PitTable::index(side, i, pits, s.seeds(first + i));
        active.emplace_back(linear + entry, shape.late ? 1 - stored : 1.0);
        if (shape.late) active.emplace_back(late_start + entry, stored);
      }
    }
    if (shape.pairs) {
      const int mine = rules.first_pit(me), theirs = rules.first_pit(opponent(me)) + pits - 1;
      for (int k = 0; k < pits; ++k)
        active.emplace_back(
            pair_start + PitTable::pair_index(k, s.seeds(mine + k), s.seeds(theirs - k)), 1.0);
    }
    fit.add(active, target);
  }
  return fit.solve(ridge, smooth);
}

int hundredths(double points) {
  return static_cast<int>(std::lround(points * search::kPoint));
}

}  // namespace

PitTableFit fit_pit_table(const sowing::Rules& rules, const std::vector<LabelledPosition>& data,
                          const SowingWeights& before, double ridge, double smooth,
                          PitTableShape shape) {
  if (rules.rows != 2 || rules.labels > rules.pits)
    throw Error("a pit table needs a board of two rows whose pits never change hands");
  if (shape.pairs && rules.capture != sowing::CaptureKind::Opposite)
    throw Error("a pair table is for rulesets that capture the pit opposite; " + rules.name +
                " does not");
  SowingWeights plain = before;
  plain.table = nullptr;
  const SowingEval features_of(rules, plain);
  // The linear weights are fitted with the table, rounded, and the table fitted again around
  // the rounded ones: a weight on a feature of 40 seeds, off by half a hundredth, would be off
  // by a fifth of a seed.
  const std::vector<double> first = solve(rules, data, features_of, {}, ridge, smooth, shape);
  std::vector<int> linear;
  for (std::size_t i = 0; i < kFitted.size(); ++i) linear.push_back(hundredths(first[i]));
  const std::vector<double> table = solve(rules, data, features_of, linear, ridge, smooth, shape);

  PitTableFit fit;
  fit.positions = data.size();
  TrainedSowingEval& e = fit.eval;
  e.weights.assign(kSowingFeatures, 0);
  e.weights[kStoreDiff] = search::kPoint;
  for (std::size_t i = 0; i < kFitted.size(); ++i) e.weights[kFitted[i]] = linear[i];
  e.weights[kPitTable] = 1;
  e.table.pits = rules.pits;
  const std::size_t entries = 2 * rules.pits * kTableCounts;
  for (std::size_t i = 0; i < table.size(); ++i) {
    auto& part = i < entries                     ? e.table.value
                 : shape.late && i < 2 * entries ? e.table.late
                                                 : e.table.pair;
    part.push_back(static_cast<std::int16_t>(std::clamp(hundredths(table[i]), -32768, 32767)));
  }
  // Scored as the search will play them: rounded weights and table.
  const SowingEval old_eval(rules, before);
  const SowingEval fitted(rules, trained_sowing_weights(rules, e));
  double before_sq = 0, after_sq = 0;
  for (const auto& p : data) {
    const double old = old_eval(p.state) / double(search::kPoint);
    const double now = fitted(p.state) / double(search::kPoint);
    before_sq += (old - p.label) * (old - p.label);
    after_sq += (now - p.label) * (now - p.label);
  }
  if (!data.empty()) {
    fit.rms_before = std::sqrt(before_sq / data.size());
    fit.rms_after = std::sqrt(after_sq / data.size());
  }
  return fit;
}

}  // namespace naqala::eval
