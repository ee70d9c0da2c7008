#pragma once
// A dense linear system a x = b: the normal equations of the evaluation fits (eval/tune.h,
// eval/backgammon_contact_fit.h, eval/table_fit.h).
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace naqala {

using DenseMatrix = std::vector<std::vector<double>>;

// Gaussian elimination with partial pivoting, then back substitution; a singular column gets
// 0. The pit-table fits give it several hundred unknowns, so rows are taken by reference
// (an unoptimised sanitizer build pays for every operator[]) and only the rows below a pivot
// are eliminated (a third of Gauss-Jordan's work).
inline std::vector<double> solve_linear(DenseMatrix a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    const std::vector<double>& top = a[col];
    if (std::abs(top[col]) < 1e-12) continue;
    for (std::size_t r = col + 1; r < n; ++r) {
      std::vector<double>& row = a[r];
      const double k = row[col] / top[col];
      if (k == 0) continue;
      for (std::size_t c = col; c < n; ++c) row[c] -= k * top[c];
      b[r] -= k * b[col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    const std::vector<double>& row = a[i];
    if (std::abs(row[i]) < 1e-12) continue;  // x[i] stays 0
    double sum = b[i];
    for (std::size_t c = i + 1; c < n; ++c) sum -= row[c] * x[c];
    x[i] = sum / row[i];
  }
  return x;
}

}  // namespace naqala
