#pragma once
// What the retrograde engine's parts share (solve/retro.h): one move of the reduced game, how
// a build reports its progress, and how a sweep is shared among threads.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "solve/compositions.h"
#include "solve/kalah.h"

namespace naqala::solve::retro {

// One move of the reduced game, from the mover's view.
struct Step {
  Board child;   // from the view of whoever moves next (not filled when `over`)
  int gain = 0;  // seeds the mover won minus those the opponent won (over: to the end)
  int left = 0;  // seeds left in the pits
  bool over = false;
  bool extra = false;  // the mover moves again in `child`
};

// The bounds of one move's final outcome for its mover: the seeds it wins and the child's bounds
// in `store` (the opponent's, negated, unless the mover moves again).
struct MoveBounds {
  int low = 0, high = 0;
};
template <class Store>
MoveBounds move_bounds(const Step& s, Store& store, const Compositions& index) {
  if (s.over) return {s.gain, s.gain};
  const std::uint64_t child = index.key(s.child, s.left);
  const int l = store.low(child, s.left), h = store.high(child, s.left);
  return s.extra ? MoveBounds{s.gain + l, s.gain + h} : MoveBounds{s.gain - h, s.gain - l};
}

// How a build reports: the level, the boards of this pass done, the boards of the level, the
// pass, and the seconds since the build began.
struct Progress {
  int level = 0;
  int pass = 0;
  std::uint64_t done = 0, level_boards = 0;
  std::uint64_t boards_before = 0;      // boards of the levels already complete
  std::uint64_t total = 0;              // boards of every level of the build
  std::uint64_t evaluations = 0;        // boards evaluated so far (every pass and sweep counted)
  std::uint64_t level_evaluations = 0;  // of them, in this level
  std::uint64_t level_sent = 0;         // bounds of boards that moved, sent to a process (MPI)
  std::uint64_t level_lower = 0;        // values of lower levels this process reads (MPI: held)
  std::uint64_t level_fetched = 0;      // of them, asked of other processes (MPI)
  std::uint64_t level_ghosts = 0;       // boards of other slices of the level read (MPI)
  double seconds = 0;
};
using ProgressFn = std::function<void(const Progress&)>;

// A sorted set of keys below a known span (the boards a process reads but does not own),
// kept as buckets of about 8 keys by their top bits, each key by its low 32 bits: a lookup
// searches one bucket, and a key costs 4 bytes and an eighth of an 8-byte bucket index.
class KeySet {
 public:
  static constexpr std::uint64_t kAbsent = ~0ULL;
  // `keys` sorted, each once, every one below `span`.
  void assign(const std::vector<std::uint64_t>& keys, std::uint64_t span) {
    span = std::max<std::uint64_t>(1, span);
    const std::uint64_t wanted = std::max<std::uint64_t>(1, keys.size() / 8);
    shift_ = 0;
    while (shift_ < 32 && (span >> shift_) > wanted) ++shift_;
    buckets_.assign((span >> shift_) + 2, 0);
    std::uint64_t at = 0;
    for (std::uint64_t b = 0; b < buckets_.size(); ++b) {
      while (at < keys.size() && (keys[at] >> shift_) < b) ++at;
      buckets_[b] = at;
    }
    low_.resize(keys.size());
    for (std::uint64_t i = 0; i < keys.size(); ++i) low_[i] = static_cast<std::uint32_t>(keys[i]);
  }
  void clear() {
    std::vector<std::uint32_t>().swap(low_);
    std::vector<std::uint64_t>().swap(buckets_);
  }
  std::uint64_t size() const { return low_.size(); }
  std::uint64_t bytes() const { return 4 * low_.size() + 8 * buckets_.size(); }
  // The index of `key` in the sorted keys, or kAbsent.
  std::uint64_t find(std::uint64_t key) const {
    const std::uint64_t b = key >> shift_;
    if (b + 1 >= buckets_.size()) return kAbsent;
    const auto from = low_.begin() + static_cast<std::ptrdiff_t>(buckets_[b]);
    const auto to = low_.begin() + static_cast<std::ptrdiff_t>(buckets_[b + 1]);
    const auto low = static_cast<std::uint32_t>(key);  // the bucket holds the top bits
    const auto it = std::lower_bound(from, to, low);
    return it != to && *it == low ? static_cast<std::uint64_t>(it - low_.begin()) : kAbsent;
  }
  // f(index, key) for every key, in order.
  template <class F>
  void for_each(F&& f) const {
    const std::uint64_t below = shift_ >= 32 ? ~0ULL : (1ULL << shift_) - 1;
    for (std::uint64_t b = 0; b + 1 < buckets_.size(); ++b)
      for (std::uint64_t i = buckets_[b]; i < buckets_[b + 1]; ++i)
        f(i, b << shift_ | (low_[i] & below));
  }

 private:
  int shift_ = 0;
  std::vector<std::uint32_t> low_;      // the low 32 bits of each key, sorted
  std::vector<std::uint64_t> buckets_;  // [top bits of a key]: its first index in low_
};

// A cyclic level solved by the worklist across processes (MPI ranks, solve/mpi.h): this one
// owns the boards [first, last) of the level and keeps the bounds of those only, and of
// `ghosts`, the boards of other slices that its own boards' moves inside the level reach, in
// `values` (its own boards in order, then the ghosts in order). Before the first sweep each
// process tells the owners of its ghosts which boards it reads (`alltoall`); after the first
// sweep and after every round each sends the bounds of its boards that moved to the processes
// that read them (`alltoall` again, 8 bytes a board: rank << 16 | bounds). `owner(r)` is the
// process whose slice holds board r; `sum` adds a count over every process.
struct LevelExchange {
  int ranks = 1;
  std::uint64_t first = 0, last = 0;
  const KeySet* ghosts = nullptr;
  std::uint16_t* values = nullptr;
  std::function<int(std::uint64_t)> owner;
  std::function<std::vector<std::vector<std::uint8_t>>(
      const std::vector<std::vector<std::uint8_t>>&)>
      alltoall;
  std::function<std::uint64_t(std::uint64_t)> sum;
};

// Runs body(first, last) over [0, items) in blocks of `block`, on `threads` threads.
template <class Body>
void parallel_blocks(int threads, std::uint64_t items, std::uint64_t block, Body&& body) {
  std::atomic<std::uint64_t> next{0};
  auto work = [&] {
    for (std::uint64_t b; (b = next.fetch_add(1) * block) < items;)
      body(b, std::min(items, b + block));
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads && items > block; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

}  // namespace naqala::solve::retro
