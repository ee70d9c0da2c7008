#include "eval/tune.h"

#include <cmath>
#include <vector>

#include "core/linear_solve.h"

namespace naqala::eval {

namespace {

double rms(const std::vector<std::vector<int>>& features, const std::vector<double>& margins,
           const std::vector<double>& w) {
  double sum = 0;
  for (std::size_t k = 0; k < features.size(); ++k) {
    double v = 0;
    for (std::size_t i = 0; i < w.size(); ++i) v += w[i] * features[k][i];
    sum += (v - margins[k]) * (v - margins[k]);
  }
  return features.empty() ? 0 : std::sqrt(sum / features.size());
}

}  // namespace

TuneResult fit_weights(const std::vector<std::vector<int>>& features,
                       const std::vector<double>& margins, const std::vector<double>& start,
                       double ridge) {
  // Normal equations of the ridge least-squares fit, in points.
  const std::size_t n = start.size();
  DenseMatrix a(n, std::vector<double>(n));
  std::vector<double> b(n);
  for (std::size_t k = 0; k < features.size(); ++k)
    for (std::size_t i = 0; i < n; ++i) {
      b[i] += features[k][i] * margins[k];
      for (std::size_t j = 0; j < n; ++j)
        a[i][j] += static_cast<double>(features[k][i]) * features[k][j];
    }
  for (std::size_t i = 0; i < n; ++i) a[i][i] += ridge;
  const auto w = solve_linear(a, b);
  TuneResult result;
  result.positions = features.size();
  result.rms_before = rms(features, margins, start);
  result.rms_after = rms(features, margins, w);
  for (double x : w) result.weights.push_back(static_cast<int>(std::lround(x * search::kPoint)));
  return result;
}

TuneResult tune_sowing(const sowing::Rules& rules, const SowingWeights& start,
                       const TuneOptions& options) {
  return tune_self_play(sowing::State::initial(rules), SowingEval(rules, start), start.w, options);
}

}  // namespace naqala::eval
