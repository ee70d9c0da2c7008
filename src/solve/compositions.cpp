#include "solve/compositions.h"

#include <limits>
#include <stdexcept>

namespace naqala::solve {

Compositions::Compositions(int pits, int max_seeds)
    : pits_(pits), cells_(2 * pits), max_seeds_(max_seeds) {
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() / 2;
  ways_.assign(static_cast<std::size_t>(cells_ + 1) * (max_seeds_ + 1), 0);
  auto at = [&](int k, int n) -> std::uint64_t& { return ways_[k * (max_seeds_ + 1) + n]; };
  // ways(1, n) = 1; ways(k, n) = ways(k, n - 1) + ways(k - 1, n) (pit k-1 empty or not).
  for (int n = 0; n <= max_seeds_; ++n) at(1, n) = 1;
  for (int k = 2; k <= cells_; ++k) {
    at(k, 0) = 1;
    for (int n = 1; n <= max_seeds_; ++n) {
      at(k, n) = at(k, n - 1) + at(k - 1, n);
      if (at(k, n) > limit) throw std::overflow_error("too many boards to number");
    }
  }
  offset_.assign(max_seeds_ + 2, 0);
  for (int n = 0; n <= max_seeds_; ++n) {
    offset_[n + 1] = offset_[n] + count(n);
    if (offset_[n + 1] > limit) throw std::overflow_error("too many boards to number");
  }
}

Board Compositions::unrank(std::uint64_t rank, int n) const {
  Board b;
  int left = n;
  for (int c = 0; c + 1 < cells_; ++c) {
    const int k = cells_ - c;
    int a = 0;
    while (a < left && ways(k, left) - ways(k, left - (a + 1)) <= rank) ++a;
    rank -= ways(k, left) - ways(k, left - a);
    b.pit[slot(c)] = static_cast<std::uint8_t>(a);
    left -= a;
  }
  b.pit[slot(cells_ - 1)] = static_cast<std::uint8_t>(left);
  return b;
}

bool Compositions::next(Board& b) const {
  const int last = slot(cells_ - 1);
  if (cells_ == 1) return false;
  if (b.pit[last] > 0) {  // move one seed from the last pit to the one before it
    ++b.pit[slot(cells_ - 2)];
    --b.pit[last];
    return true;
  }
  // The last pit is empty: j is the last non-empty pit; one of its seeds goes to the pit
  // before it and the rest to the last pit.
  int j = cells_ - 2;
  while (j >= 0 && b.pit[slot(j)] == 0) --j;
  if (j <= 0) return false;
  const int s = b.pit[slot(j)];
  b.pit[slot(j)] = 0;
  ++b.pit[slot(j - 1)];
  b.pit[last] = static_cast<std::uint8_t>(s - 1);
  return true;
}

}  // namespace naqala::solve
