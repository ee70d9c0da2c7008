#pragma once
// The ridge least squares behind the pit-table fits (eval/pit_table_fit.h for two rows,
// eval/board4_table_fit.h for Bao and Omweso): linear features first, then rows of
// kTableCounts table entries (one row per pit and side), whose neighbouring counts are
// pulled together so a count seldom seen takes its neighbours' value rather than noise.
#include <utility>
#include <vector>

#include "core/linear_solve.h"

namespace naqala::eval {

class TableFit {
 public:
  // `linear` feature columns, then `table_rows` x kTableCounts table columns, then `grids`
  // grids of `grid_side` x `grid_side` columns (pit_table.h's pair table), each entry pulled
  // towards its neighbours along both counts as a table row is.
  TableFit(int linear, int table_rows, int grids = 0, int grid_side = 0);

  // One position: its nonzero columns (column, value) and the target they should sum to.
  void add(const std::vector<std::pair<int, double>>& active, double target);

  // `ridge`: the L2 penalty on every column; `smooth`: on neighbouring counts' difference.
  std::vector<double> solve(double ridge, double smooth) const;

 private:
  int linear_, rows_, grids_, side_;
  DenseMatrix a_;
  std::vector<double> b_;
};

}  // namespace naqala::eval
