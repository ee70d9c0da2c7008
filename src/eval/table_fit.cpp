#include "eval/table_fit.h"

#include "eval/pit_table.h"

namespace naqala::eval {

namespace {

int columns(int linear, int table_rows, int grids, int grid_side) {
  return linear + table_rows * kTableCounts + grids * grid_side * grid_side;
}

}  // namespace

TableFit::TableFit(int linear, int table_rows, int grids, int grid_side)
    : linear_(linear),
      rows_(table_rows),
      grids_(grids),
      side_(grid_side),
      a_(columns(linear, table_rows, grids, grid_side),
         std::vector<double>(columns(linear, table_rows, grids, grid_side))),
      b_(columns(linear, table_rows, grids, grid_side)) {}

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
  // The penalty smooth x (v[j] - v[i])^2 on neighbouring counts i and j.
  const auto pull = [&](int i, int j) {
    a[i][i] += smooth;
    a[j][j] += smooth;
    a[i][j] -= smooth;
    a[j][i] -= smooth;
  };
  for (int row = 0; row < rows_; ++row)
    for (int c = 0; c + 1 < kTableCounts; ++c)
      pull(linear_ + row * kTableCounts + c, linear_ + row * kTableCounts + c + 1);
  const int grid_start = linear_ + rows_ * kTableCounts;
  for (int g = 0; g < grids_; ++g)
    for (int x = 0; x < side_; ++x)
      for (int y = 0; y < side_; ++y) {
        const int i = grid_start + (g * side_ + x) * side_ + y;
        if (x + 1 < side_) pull(i, i + side_);
        if (y + 1 < side_) pull(i, i + 1);
      }
  return solve_linear(std::move(a), b_);
}

}  // namespace naqala::eval
