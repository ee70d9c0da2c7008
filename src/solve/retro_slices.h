#pragma once
// The retrograde engine's values (solve/retro.h's Store) on one MPI process that keeps only
// its slice of every finished level (solve/sowing_db.h's build_sliced): the level being built
// whole, and of the levels below it only the values its own boards read, asked of their
// owners once before the level (a board's successors out of the level do not change while it
// is built).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "solve/compositions.h"
#include "solve/retro_step.h"
#include "solve/retro_worklist.h"

namespace naqala::solve::retro {

// The first board of process `rank`'s slice of a level of `count` boards (of `ranks`).
inline std::uint64_t slice_begin(std::uint64_t count, int rank, int ranks) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(count) *
                                    static_cast<unsigned>(rank) / static_cast<unsigned>(ranks));
}

// The process whose slice of a level of `count` boards holds board r.
inline int slice_owner(std::uint64_t count, std::uint64_t r, int ranks) {
  int o = static_cast<int>(static_cast<unsigned __int128>(r) * static_cast<unsigned>(ranks) /
                           count);  // within one of the owner
  while (o + 1 < ranks && slice_begin(count, o + 1, ranks) <= r) ++o;
  while (o > 0 && slice_begin(count, o, ranks) > r) --o;
  return o;
}

// The keys of the boards of lower levels that the boards [first, last) of level n read: every
// move out of the level that does not end the game. Acyclic games (retro.h's run_acyclic) also
// compute the boards of the level their moves reach outside the slice, so those boards' moves
// out of the level are read too. Sorted, each once.
template <class Game>
std::vector<std::uint64_t> lower_successors(const Game& game, const Compositions& index, int n,
                                            std::uint64_t first, std::uint64_t last, int threads) {
  std::mutex lock;
  std::vector<std::uint64_t> all;
  worklist_detail::BoardSet reached(Game::kAcyclic ? index.count(n) : 0);
  parallel_blocks(threads, last - first, 1 << 14, [&](std::uint64_t a, std::uint64_t b) {
    std::vector<std::uint64_t> keys, stack;
    auto visit = [&](const Board& board) {
      int terminal;
      game.expand(board, n, terminal, [&](const Step& s) {
        if (s.over) return true;
        if (s.left < n) {
          keys.push_back(index.key(s.child, s.left));
        } else if constexpr (Game::kAcyclic) {
          const std::uint64_t r = index.rank(s.child, n);
          if ((r < first || r >= last) && reached.insert(r)) stack.push_back(r);
        }
        return true;
      });
    };
    Board board = index.unrank(first + a, n);
    for (std::uint64_t r = first + a; r < first + b; ++r, index.next(board)) {
      visit(board);
      while (!stack.empty()) {
        const std::uint64_t c = stack.back();
        stack.pop_back();
        visit(index.unrank(c, n));
      }
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const std::lock_guard<std::mutex> hold(lock);
    all.insert(all.end(), keys.begin(), keys.end());
  });
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

// Two signed bytes a board (low | high << 8) as the builds keep them; retro.h's Store.
class SlicedStore {
 public:
  static constexpr std::uint16_t kMissing = 0x8080;

  SlicedStore(const Compositions& index, int rank, int ranks)
      : index_(index), rank_(rank), ranks_(ranks), slices_(index.max_seeds() + 1) {}

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  std::uint64_t begin(int n) const { return slice_begin(index_.count(n), rank_, ranks_); }
  std::uint64_t end(int n) const { return slice_begin(index_.count(n), rank_ + 1, ranks_); }
  // This process's slice of finished level m (its boards from begin(m)).
  std::vector<std::uint16_t>& slice(int m) { return slices_[m]; }
  const std::vector<std::uint16_t>& slice(int m) const { return slices_[m]; }

  // Level n begins, every board at `start`.
  void begin_level(int n, std::uint16_t start) {
    level_n_ = n;
    level_offset_ = index_.offset(n);
    level_.assign(index_.count(n), start);
  }
  std::uint16_t* level() { return level_.data(); }
  // The values of the lower levels' boards `keys` (sorted) this process reads in this level.
  // Kept as buckets of about 8 keys by their top bits, each key by its low 32 bits: a lookup
  // searches one bucket, and a key costs 4 bytes, its value 2 and its bucket 1.
  void set_lower(const std::vector<std::uint64_t>& keys, std::vector<std::uint16_t> values) {
    lower_values_ = std::move(values);
    const std::uint64_t span = std::max<std::uint64_t>(1, level_offset_);
    const std::uint64_t wanted = std::max<std::uint64_t>(1, keys.size() / 8);
    bucket_shift_ = 0;
    while (bucket_shift_ < 32 && (span >> bucket_shift_) > wanted) ++bucket_shift_;
    buckets_.assign((span >> bucket_shift_) + 2, 0);
    std::uint64_t at = 0;
    for (std::uint64_t b = 0; b < buckets_.size(); ++b) {
      while (at < keys.size() && (keys[at] >> bucket_shift_) < b) ++at;
      buckets_[b] = at;
    }
    lower_keys_.resize(keys.size());
    for (std::uint64_t i = 0; i < keys.size(); ++i)
      lower_keys_[i] = static_cast<std::uint32_t>(keys[i]);
  }
  // Bytes held for the lower levels' values this level reads.
  std::uint64_t lower_bytes() const {
    return 4 * lower_keys_.size() + 2 * lower_values_.size() + 8 * buckets_.size();
  }
  // Level n is done: only this process's slice of it is kept.
  void end_level() {
    const int n = level_n_;
    slices_[n].assign(level_.begin() + static_cast<std::ptrdiff_t>(begin(n)),
                      level_.begin() + static_cast<std::ptrdiff_t>(end(n)));
    std::vector<std::uint16_t>().swap(level_);
    std::vector<std::uint32_t>().swap(lower_keys_);
    std::vector<std::uint16_t>().swap(lower_values_);
    std::vector<std::uint64_t>().swap(buckets_);
    level_n_ = -1;
  }
  // A lower level's board was read that was not asked for (a bug: its value was a guess).
  bool missed() const { return missed_.load(std::memory_order_relaxed); }

  // retro.h's Store: boards of `seeds` below the level being built come from the values asked.
  std::uint16_t load(std::uint64_t key, int seeds) const {
    if (seeds != level_n_) return lower(key);
    // (atomic_ref of a const type is C++26: threads write the level while others read it.)
    return std::atomic_ref<std::uint16_t>(const_cast<std::uint16_t&>(level_[key - level_offset_]))
        .load(std::memory_order_relaxed);
  }
  int low(std::uint64_t key, int seeds) const {
    return static_cast<std::int8_t>(load(key, seeds) & 0xff);
  }
  int high(std::uint64_t key, int seeds) const {
    return static_cast<std::int8_t>(load(key, seeds) >> 8);
  }
  bool unknown(std::uint64_t key) const { return load(key, level_n_) == kMissing; }
  void set(std::uint64_t key, int, int low, int high) {
    std::atomic_ref<std::uint16_t>(level_[key - level_offset_])
        .store(worklist_detail::pack(low, high), std::memory_order_relaxed);
  }
  bool raise_low(std::uint64_t key, int, int low) {
    std::atomic_ref<std::uint16_t> v(level_[key - level_offset_]);
    std::uint16_t was = v.load(std::memory_order_relaxed);
    while (worklist_detail::low_of(was) < low)
      if (v.compare_exchange_weak(was, worklist_detail::pack(low, worklist_detail::high_of(was)),
                                  std::memory_order_relaxed))
        return true;
    return false;
  }

 private:
  std::uint16_t lower(std::uint64_t key) const {
    const std::uint64_t b = key >> bucket_shift_;
    if (b + 1 < buckets_.size()) {
      const auto from = lower_keys_.begin() + static_cast<std::ptrdiff_t>(buckets_[b]);
      const auto to = lower_keys_.begin() + static_cast<std::ptrdiff_t>(buckets_[b + 1]);
      const auto low = static_cast<std::uint32_t>(key);  // the bucket holds the top bits
      const auto it = std::lower_bound(from, to, low);
      if (it != to && *it == low) return lower_values_[it - lower_keys_.begin()];
    }
    missed_.store(true, std::memory_order_relaxed);
    return kMissing;
  }

  const Compositions& index_;
  int rank_, ranks_;
  std::vector<std::vector<std::uint16_t>> slices_;  // [level]: this process's slice
  int level_n_ = -1;
  std::uint64_t level_offset_ = 0;
  std::vector<std::uint16_t> level_;       // the level being built, whole
  std::vector<std::uint32_t> lower_keys_;  // the low 32 bits of each key, sorted
  std::vector<std::uint16_t> lower_values_;
  int bucket_shift_ = 0;
  std::vector<std::uint64_t> buckets_;  // [top bits of a key]: its first index in lower_keys_
  mutable std::atomic<bool> missed_{false};
};

}  // namespace naqala::solve::retro
