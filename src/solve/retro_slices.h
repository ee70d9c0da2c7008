#pragma once
// The retrograde engine's values (solve/retro.h's Store) on one MPI process that keeps only
// its slice of every level (solve/sowing_db.h's build_sliced): of the level being built its
// own boards and the boards of other slices its boards' moves inside the level reach (its
// ghosts, sent by their owners when they move), and of the levels below it only the values its
// own boards read, asked of their owners once before the level (a board's successors out of
// the level do not change while it is built). The passes and acyclic levels (Kalah, whose
// boards compute the boards of other slices they lead to) hold the level being built whole.
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

// What the boards [first, last) of level n read: the keys of the boards of lower levels (every
// move out of the level that does not end the game) and, with `ghosts`, the ranks in the level
// of the boards of other slices their moves inside the level reach. Acyclic games (retro.h's
// run_acyclic) also compute the boards of the level their moves reach outside the slice, so
// those boards' moves out of the level are read too. Each sorted, each once.
struct Successors {
  std::vector<std::uint64_t> lower, ghosts;
};
template <class Game>
Successors successors(const Game& game, const Compositions& index, int n, std::uint64_t first,
                      std::uint64_t last, bool ghosts, int threads) {
  std::mutex lock;
  Successors all;
  worklist_detail::BoardSet reached(Game::kAcyclic ? index.count(n) : 0);
  auto sorted_once = [](std::vector<std::uint64_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  parallel_blocks(threads, last - first, 1 << 14, [&](std::uint64_t a, std::uint64_t b) {
    std::vector<std::uint64_t> keys, outside, stack;
    auto visit = [&](const Board& board) {
      int terminal;
      game.expand(board, n, terminal, [&](const Step& s) {
        if (s.over) return true;
        if (s.left < n) {
          keys.push_back(index.key(s.child, s.left));
        } else if constexpr (Game::kAcyclic) {
          const std::uint64_t r = index.rank(s.child, n);
          if ((r < first || r >= last) && reached.insert(r)) stack.push_back(r);
        } else if (ghosts) {
          const std::uint64_t r = index.rank(s.child, n);
          if (r < first || r >= last) outside.push_back(r);
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
    sorted_once(keys);
    sorted_once(outside);
    const std::lock_guard<std::mutex> hold(lock);
    all.lower.insert(all.lower.end(), keys.begin(), keys.end());
    all.ghosts.insert(all.ghosts.end(), outside.begin(), outside.end());
  });
  sorted_once(all.lower);
  sorted_once(all.ghosts);
  return all;
}

// Two signed bytes a board (low | high << 8) as the builds keep them; retro.h's Store.
class SlicedStore {
 public:
  static constexpr std::uint16_t kMissing = 0x8080;
  static constexpr bool kKeepsSlices = true;  // its worklist runs sliced (retro_worklist.h)

  SlicedStore(const Compositions& index, int rank, int ranks)
      : index_(index), rank_(rank), ranks_(ranks), slices_(index.max_seeds() + 1) {}

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  std::uint64_t begin(int n) const { return slice_begin(index_.count(n), rank_, ranks_); }
  std::uint64_t end(int n) const { return slice_begin(index_.count(n), rank_ + 1, ranks_); }
  // This process's slice of finished level m (its boards from begin(m)).
  std::vector<std::uint16_t>& slice(int m) { return slices_[m]; }
  const std::vector<std::uint16_t>& slice(int m) const { return slices_[m]; }

  // Level n begins, whole, every board at `start`.
  void begin_level(int n, std::uint16_t start) {
    level_n_ = n;
    level_offset_ = index_.offset(n);
    sliced_ = false;
    ghosts_.clear();
    level_.assign(index_.count(n), start);
  }
  // Level n begins as this process's slice and `ghosts` (sorted ranks in the level of boards
  // of other slices), every board at `start`.
  void begin_sliced_level(int n, std::uint16_t start, const std::vector<std::uint64_t>& ghosts) {
    level_n_ = n;
    level_offset_ = index_.offset(n);
    sliced_ = true;
    ghosts_.assign(ghosts, index_.count(n));
    level_.assign(end(n) - begin(n) + ghosts_.size(), start);
  }
  // The level being built sliced goes whole (the passes), every board at `start`.
  void whole_level(std::uint16_t start) {
    if (sliced_) begin_level(level_n_, start);
  }
  bool sliced() const { return sliced_; }
  // The level being built: whole, or this process's boards then its ghosts (sliced).
  std::uint16_t* level() { return level_.data(); }
  const KeySet& ghosts() const { return ghosts_; }
  // This process's boards of the level being built.
  const std::uint16_t* own() const { return level_.data() + (sliced_ ? 0 : begin(level_n_)); }
  // The values of the lower levels' boards `keys` (sorted) this process reads in this level.
  void set_lower(const std::vector<std::uint64_t>& keys, std::vector<std::uint16_t> values) {
    lower_values_ = std::move(values);
    lower_keys_.assign(keys, level_offset_);
  }
  // Level n is done: only this process's slice of it is kept.
  void end_level() {
    const int n = level_n_;
    slices_[n].assign(own(), own() + (end(n) - begin(n)));
    std::vector<std::uint16_t>().swap(level_);
    ghosts_.clear();
    lower_keys_.clear();
    std::vector<std::uint16_t>().swap(lower_values_);
    level_n_ = -1;
    sliced_ = false;
  }
  // A lower level's board was read that was not asked for (a bug: its value was a guess).
  bool missed() const { return missed_.load(std::memory_order_relaxed); }

  // retro.h's Store: boards of `seeds` below the level being built come from the values asked.
  std::uint16_t load(std::uint64_t key, int seeds) const {
    if (seeds != level_n_) return lower(key);
    const std::uint16_t* v = slot(key);
    if (!v) return kMissing;
    // (atomic_ref of a const type is C++26: threads write the level while others read it.)
    return std::atomic_ref<std::uint16_t>(const_cast<std::uint16_t&>(*v))
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
    if (std::uint16_t* v = slot(key))
      std::atomic_ref<std::uint16_t>(*v).store(worklist_detail::pack(low, high),
                                               std::memory_order_relaxed);
  }
  bool raise_low(std::uint64_t key, int, int low) {
    std::uint16_t* slot_of_key = slot(key);
    if (!slot_of_key) return false;
    std::atomic_ref<std::uint16_t> v(*slot_of_key);
    std::uint16_t was = v.load(std::memory_order_relaxed);
    while (worklist_detail::low_of(was) < low)
      if (v.compare_exchange_weak(was, worklist_detail::pack(low, worklist_detail::high_of(was)),
                                  std::memory_order_relaxed))
        return true;
    return false;
  }

 private:
  // Where the level being built keeps board `key` (null, and missed(), for a board of another
  // slice that is not a ghost).
  std::uint16_t* slot(std::uint64_t key) const {
    auto* level = const_cast<std::uint16_t*>(level_.data());
    const std::uint64_t r = key - level_offset_;
    if (!sliced_) return level + r;
    const std::uint64_t first = begin(level_n_), last = end(level_n_);
    if (r >= first && r < last) return level + (r - first);
    const std::uint64_t i = ghosts_.find(r);
    if (i != KeySet::kAbsent) return level + (last - first) + i;
    missed_.store(true, std::memory_order_relaxed);
    return nullptr;
  }
  std::uint16_t lower(std::uint64_t key) const {
    const std::uint64_t i = lower_keys_.find(key);
    if (i != KeySet::kAbsent) return lower_values_[i];
    missed_.store(true, std::memory_order_relaxed);
    return kMissing;
  }

  const Compositions& index_;
  int rank_, ranks_;
  std::vector<std::vector<std::uint16_t>> slices_;  // [level]: this process's slice
  int level_n_ = -1;
  std::uint64_t level_offset_ = 0;
  bool sliced_ = false;
  std::vector<std::uint16_t> level_;  // the level being built: whole, or own boards then ghosts
  KeySet ghosts_;                     // sliced: the boards of other slices read
  KeySet lower_keys_;                 // the lower levels' boards read
  std::vector<std::uint16_t> lower_values_;
  mutable std::atomic<bool> missed_{false};
};

}  // namespace naqala::solve::retro
