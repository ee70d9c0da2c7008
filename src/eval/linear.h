#pragma once
// What the linear evaluations (Bao, Omweso) share: features counted from the view of the
// player to move, weights in search units (hundredths of a point) per unit of each feature,
// and the value as their dot product, kept clear of proven results.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "eval/pit_table.h"
#include "games/board4/board.h"
#include "search/values.h"

namespace naqala::eval {

template <std::size_t N>
int weighted_sum(const std::array<int, N>& weights, const std::array<int, N>& features) {
  int v = 0;
  for (std::size_t i = 0; i < N; ++i) v += weights[i] * features[i];
  return std::clamp(v, -search::kWin / 4, search::kWin / 4);
}

// One side's counts on a four-row board (Bao, Omweso): seeds, front-row seeds, pits that can
// start a move, the most seeds one capture would take now, and the pit table's sum.
struct SideCounts {
  int material = 0, front = 0, mobile = 0, capture = 0, table = 0;
};

// Counts `p`'s side of a Bao or Omweso state; `capture(pit, seeds)` is what a move from that
// own pit would capture now (0 for nothing), by the family's rule. `table` (may be null): the
// pit table's row of this side (pit_table.h: 16 pits by ring index, kTableCounts counts each).
template <class S, class Capture>
SideCounts count_side(const S& s, Player p, Capture capture, const std::int16_t* table = nullptr) {
  SideCounts r;
  for (int i = 0; i < board4::kPits; ++i) {
    const int c = s.pit(p, i);
    r.material += c;
    if (board4::is_front(i)) r.front += c;
    if (c >= 2) ++r.mobile;
    r.capture = std::max(r.capture, capture(i, c));
    if (table) r.table += table[PitTable::index(0, i, board4::kPits, c)];
  }
  return r;
}

// The table rows of the mover's side (side 0) and the opponent's (1), or null without a table.
inline const std::int16_t* board4_table_rows(const PitTable* table, int side) {
  return table ? table->value.data() + side * board4::kPits * kTableCounts : nullptr;
}

}  // namespace naqala::eval
