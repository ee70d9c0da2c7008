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
  std::uint64_t level_sent = 0;         // boards that moved, sent to every process (MPI)
  std::uint64_t level_lower = 0;        // values of lower levels this process reads (MPI: held)
  std::uint64_t level_fetched = 0;      // of them, asked of other processes (MPI)
  double seconds = 0;
};
using ProgressFn = std::function<void(const Progress&)>;

// A cyclic level solved by the worklist across processes (MPI ranks, solve/mpi.h): this one
// owns the boards [first, last) of the level, and every process keeps the whole level. The
// others' boards reach it through `share_level` (every slice to every process, once, after the
// first sweep) and `gather` (each round, the boards that moved: every process's list of
// `rank << 16 | bounds`, concatenated, its own included); `sum` adds a count over them all.
struct LevelExchange {
  std::uint64_t first = 0, last = 0;
  std::function<void()> share_level;
  std::function<std::vector<std::uint64_t>(const std::vector<std::uint64_t>&)> gather;
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
