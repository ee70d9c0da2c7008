#include "eval/table_fit.h"

#include "eval/pit_table.h"

namespace naqala::eval {

TableFit::TableFit(int linear, int table_rows)
    : linear_(linear),
      rows_(table_rows),
      a_(linear + table_rows * kTableCounts,
         std::vector<double>(linear + table_rows * kTableCounts)),
      b_(linear + table_rows * kTableCounts) {}

void TableFit::add(const std::vector<std::pair<int, double>>& active, double target) {
  for (const auto& [i, x] : active) {
    b_[i] += x * target;
    for (const auto& [j, y] : active) a_[i][j] += x * y;
  }
}

std::vector<double> TableFit::solve(double ridge, double smooth) const {
  DenseMatrix a = a_;
  const int n = static_cast<int>(b_.size());
  for (int i = 0; i < n; ++i) a[i][i] += ridge;
  // The penalty smooth x (v[c + 1] - v[c])^2 along each pit's counts.
  for (int row = 0; row < rows_; ++row)
    for (int c = 0; c + 1 < kTableCounts; ++c) {
      const int i = linear_ + row * kTableCounts + c, j = i + 1;
      a[i][i] += smooth;
      a[j][j] += smooth;
      a[i][j] -= smooth;
      a[j][i] -= smooth;
    }
  return solve_linear(std::move(a), b_);
}

}  // namespace naqala::eval
