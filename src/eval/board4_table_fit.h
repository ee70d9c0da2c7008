#pragma once
// Fitting Bao's and Omweso's evaluations (eval/bao_eval.h, eval/omweso_eval.h) with a pit table
// of 16 pits a side to labelled positions, by ridge least squares (eval/table_fit.h): every
// linear feature and the table together, then the linear weights rounded to hundredths and the
// table fitted again around them (as the two-row fit does, eval/pit_table_fit.h). Unlike the
// two-row games these have no store whose difference could keep weight 1: material is fitted
// like the rest, the table adding what each pit's count is worth beyond it.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "eval/pit_table_fit.h"
#include "eval/table_fit.h"
#include "games/board4/board.h"

namespace naqala::eval {

template <class S, class Eval>
PitTableFit fit_board4_table(const std::vector<std::pair<S, double>>& data, const Eval& before,
                             double ridge, double smooth) {
  static_assert(Eval::kPitTable + 1 == Eval::kFeatures, "the table's weight comes last");
  constexpr int kLinear = Eval::kPitTable;
  constexpr int kPits = board4::kPits;
  Eval plain = before;
  plain.table = nullptr;
  auto hundredths = [](double points) {
    return static_cast<int>(std::lround(points * search::kPoint));
  };
  // One solve: with `fixed` (hundredths, the linear weights) they are taken off the target and
  // only the table is fitted.
  auto solve = [&](const std::vector<int>& fixed) {
    const int linear = fixed.empty() ? kLinear : 0;
    TableFit fit(linear, 2 * kPits);
    std::vector<std::pair<int, double>> active;
    for (const auto& [s, label] : data) {
      typename Eval::Features f;
      plain.features(s, f);
      double target = label;
      for (std::size_t i = 0; i < fixed.size(); ++i)
        target -= fixed[i] * f[i] / double(search::kPoint);
      active.clear();
      for (int i = 0; i < linear; ++i)
        if (f[i]) active.emplace_back(i, f[i]);
      const Player me = s.to_move();
      for (int side = 0; side < 2; ++side)
        for (int i = 0; i < kPits; ++i)
          active.emplace_back(
              linear + PitTable::index(side, i, kPits, s.pit(side ? opponent(me) : me, i)), 1.0);
      fit.add(active, target);
    }
    return fit.solve(ridge, smooth);
  };
  const std::vector<double> first = solve({});
  std::vector<int> linear;
  for (int i = 0; i < kLinear; ++i) linear.push_back(hundredths(first[i]));
  const std::vector<double> table = solve(linear);

  PitTableFit fit;
  fit.positions = data.size();
  TrainedSowingEval& e = fit.eval;
  e.weights = linear;
  e.weights.push_back(1);  // kPitTable
  e.table.pits = kPits;
  for (double v : table)
    e.table.value.push_back(static_cast<std::int16_t>(std::clamp(hundredths(v), -32768, 32767)));
  // Scored as the search will play them: rounded weights and table.
  Eval fitted = plain;
  std::copy(e.weights.begin(), e.weights.end(), fitted.weights.begin());
  fitted.table = std::make_shared<const PitTable>(e.table);
  double before_sq = 0, after_sq = 0;
  for (const auto& [s, label] : data) {
    const double old = before(s) / double(search::kPoint), now = fitted(s) / double(search::kPoint);
    before_sq += (old - label) * (old - label);
    after_sq += (now - label) * (now - label);
  }
  if (!data.empty()) {
    fit.rms_before = std::sqrt(before_sq / data.size());
    fit.rms_after = std::sqrt(after_sq / data.size());
  }
  return fit;
}

}  // namespace naqala::eval
