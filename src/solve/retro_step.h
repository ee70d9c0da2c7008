#pragma once
// What the retrograde engine's parts share (solve/retro.h): one move of the reduced game, how
// a build reports its progress, and how a sweep is shared among threads.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

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
  double seconds = 0;
};
using ProgressFn = std::function<void(const Progress&)>;

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
