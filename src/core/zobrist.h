#pragma once
// Zobrist keys: a table of random 64-bit keys for (square, count) pairs, plus side-to-move
// and free "feature" keys. Games build one table at start-up; hashing is XOR of keys.
#include <cstdint>
#include <vector>

#include "core/rng.h"

namespace naqala {

class ZobristTable {
 public:
  ZobristTable(int squares, int max_count, int features = 16, std::uint64_t seed = 0x5a0b71577ULL)
      : squares_(squares), counts_(max_count + 1) {
    Rng rng(seed);
    keys_.resize(static_cast<std::size_t>(squares) * counts_);
    for (auto& k : keys_) k = rng.next();
    features_.resize(features);
    for (auto& k : features_) k = rng.next();
    side_ = rng.next();
  }
  // Key of `count` pieces on `square`; counts above max_count share the top key.
  std::uint64_t key(int square, int count) const {
    if (count >= counts_) count = counts_ - 1;
    return keys_[static_cast<std::size_t>(square) * counts_ + count];
  }
  std::uint64_t side() const { return side_; }
  std::uint64_t feature(int i) const { return features_[i]; }
  int squares() const { return squares_; }

 private:
  int squares_;
  int counts_;
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint64_t> features_;
  std::uint64_t side_;
};

}  // namespace naqala
