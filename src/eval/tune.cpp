#include "eval/tune.h"

#include <cmath>
#include <vector>

namespace naqala::eval {

namespace {

using Matrix = std::vector<std::vector<double>>;

// Solves a x = b by Gauss-Jordan elimination with partial pivoting; a singular column gets 0.
std::vector<double> solve(Matrix a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    if (std::abs(a[col][col]) < 1e-12) continue;
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col) continue;
      const double k = a[r][col] / a[col][col];
      for (std::size_t c = col; c < n; ++c) a[r][c] -= k * a[col][c];
      b[r] -= k * b[col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = std::abs(a[i][i]) < 1e-12 ? 0 : b[i] / a[i][i];
  return x;
}

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
  Matrix a(n, std::vector<double>(n));
  std::vector<double> b(n);
  for (std::size_t k = 0; k < features.size(); ++k)
    for (std::size_t i = 0; i < n; ++i) {
      b[i] += features[k][i] * margins[k];
      for (std::size_t j = 0; j < n; ++j)
        a[i][j] += static_cast<double>(features[k][i]) * features[k][j];
    }
  for (std::size_t i = 0; i < n; ++i) a[i][i] += ridge;
  const auto w = solve(a, b);
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
