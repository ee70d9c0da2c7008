#pragma once
// Numbering the boards of a Kalah-like game: the ways to put n seeds into 2P pits (the
// compositions of n into 2P parts) in lexicographic order of the pits (the mover's pits from
// his left, then the opponent's), boards with fewer seeds first. The number of a board is a
// perfect key (no two boards share one) and the offset of its byte in the endgame database.
#include <cstdint>
#include <vector>

#include "solve/kalah.h"

namespace naqala::solve {

class Compositions {
 public:
  // Boards of 2 * pits pits with up to max_seeds seeds; throws std::overflow_error when their
  // count does not fit 63 bits.
  Compositions(int pits, int max_seeds);

  int pits() const { return pits_; }
  int max_seeds() const { return max_seeds_; }
  // Boards with exactly n seeds, and with fewer than n.
  std::uint64_t count(int n) const { return ways(cells_, n); }
  std::uint64_t offset(int n) const { return offset_[n]; }

  // The number of b (which holds n seeds) among the boards with n seeds. Always inlined: the
  // retrograde sweeps rank every move's child, and GCC stopped inlining it there once
  // sowing_db.cpp had grown (1.2% more instructions in a one-thread Oware build).
  [[gnu::always_inline]] std::uint64_t rank(const Board& b, int n) const {
    std::uint64_t r = 0;
    int left = n;
    for (int c = 0; c + 1 < cells_; ++c) {
      const int k = cells_ - c, a = b.pit[slot(c)];
      // Boards whose pit c holds fewer than a seeds: all of `left` in k pits, minus those with
      // at least a in pit c.
      r += ways(k, left) - ways(k, left - a);
      left -= a;
    }
    return r;
  }
  // The number of b among all boards (rank after every smaller seed count).
  std::uint64_t key(const Board& b, int n) const { return offset_[n] + rank(b, n); }

  // The board numbered `rank` among those with n seeds.
  Board unrank(std::uint64_t rank, int n) const;
  // The next board with the same seeds in this order; false after the last.
  bool next(Board& b) const;

 private:
  int slot(int cell) const { return cell < pits_ ? cell : 8 + cell - pits_; }
  // Compositions of n into k parts: C(n + k - 1, k - 1).
  std::uint64_t ways(int k, int n) const { return ways_[k * (max_seeds_ + 1) + n]; }

  int pits_, cells_, max_seeds_;
  std::vector<std::uint64_t> ways_;    // [k][n]
  std::vector<std::uint64_t> offset_;  // [n], up to max_seeds + 1
};

}  // namespace naqala::solve
