#include "eval/pit_table_fit.h"

#include <cmath>

#include "core/error.h"
#include "core/linear_solve.h"

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
                          double ridge, double smooth) {
  const int pits = rules.pits;
  const int linear = fixed.empty() ? static_cast<int>(kFitted.size()) : 0;
  const int n = linear + 2 * pits * kTableCounts;
  DenseMatrix a(n, std::vector<double>(n));
  std::vector<double> b(n);
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
    for (int side = 0; side < 2; ++side) {
      const int first = rules.first_pit(side ? opponent(me) : me);
      for (int i = 0; i < pits; ++i)
        active.emplace_back(linear + PitTable::index(side, i, pits, s.seeds(first + i)), 1.0);
    }
    for (const auto& [i, x] : active) {
      b[i] += x * target;
      for (const auto& [j, y] : active) a[i][j] += x * y;
    }
  }
  for (int i = 0; i < n; ++i) a[i][i] += ridge;
  // The penalty smooth x (v[c + 1] - v[c])^2 along each pit's counts: a count seldom seen
  // takes its neighbours' value rather than noise.
  for (int row = 0; row < 2 * pits; ++row)
    for (int c = 0; c + 1 < kTableCounts; ++c) {
      const int i = linear + row * kTableCounts + c, j = i + 1;
      a[i][i] += smooth;
      a[j][j] += smooth;
      a[i][j] -= smooth;
      a[j][i] -= smooth;
    }
  return solve_linear(a, b);
}

int hundredths(double points) {
  return static_cast<int>(std::lround(points * search::kPoint));
}

}  // namespace

PitTableFit fit_pit_table(const sowing::Rules& rules, const std::vector<LabelledPosition>& data,
                          const SowingWeights& before, double ridge, double smooth) {
  if (rules.rows != 2 || rules.labels > rules.pits)
    throw Error("a pit table needs a board of two rows whose pits never change hands");
  SowingWeights plain = before;
  plain.table = nullptr;
  const SowingEval features_of(rules, plain);
  // The linear weights are fitted with the table, rounded, and the table fitted again around
  // the rounded ones: a weight on a feature of 40 seeds, off by half a hundredth, would be off
  // by a fifth of a seed.
  const std::vector<double> first = solve(rules, data, features_of, {}, ridge, smooth);
  std::vector<int> linear;
  for (std::size_t i = 0; i < kFitted.size(); ++i) linear.push_back(hundredths(first[i]));
  const std::vector<double> table = solve(rules, data, features_of, linear, ridge, smooth);

  PitTableFit fit;
  fit.positions = data.size();
  TrainedSowingEval& e = fit.eval;
  e.weights.assign(kSowingFeatures, 0);
  e.weights[kStoreDiff] = search::kPoint;
  for (std::size_t i = 0; i < kFitted.size(); ++i) e.weights[kFitted[i]] = linear[i];
  e.weights[kPitTable] = 1;
  e.table.pits = rules.pits;
  for (double v : table)
    e.table.value.push_back(static_cast<std::int16_t>(std::clamp(hundredths(v), -32768, 32767)));
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
