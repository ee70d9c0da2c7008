#pragma once
// A small dense linear system a x = b: the normal equations of the evaluation fits
// (eval/tune.h, eval/backgammon_contact_fit.h), a few dozen unknowns at most.
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace naqala {

using DenseMatrix = std::vector<std::vector<double>>;

// Gauss-Jordan elimination with partial pivoting; a singular column gets 0.
inline std::vector<double> solve_linear(DenseMatrix a, std::vector<double> b) {
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

}  // namespace naqala
