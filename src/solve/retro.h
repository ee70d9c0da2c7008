#pragma once
// One retrograde engine for the two-row sowing family (docs/solving.md).
//
// The value of a board (solve/kalah.h's Board: the mover's pits, then the opponent's) is the
// best difference, for the player to move, between the seeds he and his opponent still win
// from there to the end of the game. Boards are numbered by solve/compositions.h, level by
// level: a move never adds seeds to the pits, so when level n is computed every level below
// it is known.
//
// Inside a level the moves that keep every seed on the board can come back to a board already
// seen (Oware). The engine keeps two bounds per board and raises them to a fixed point:
//   low(b)  = max over moves of (gain - high(child))   (extra turn: gain + low(child))
//   high(b) = max over moves of (gain - low(child))    (extra turn: gain + high(child))
// starting from low = -n, high = +n. The iteration only raises low and lowers high, so it ends
// at the least such fixed point whatever the order of the updates: threads, block sizes and
// MPI ranks give the same bytes. `low` is what the mover can force whatever the cycle rule
// and whatever the history since the last capture (a play that never leaves the level is
// counted as his worst); `high` is what the opponent can hold him to. Where they meet the
// value is the same under every cycle rule. Rulesets whose levels have no cycle (Kalah: a
// move that keeps all seeds on the board moves them towards the mover's store) are computed
// once per board by memoised recursion along that order instead.
#include <algorithm>
#include <atomic>
#include <chrono>
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

// How a build reports: the level, the boards of this pass done, the boards of the level, the
// pass, and the seconds since the build began.
struct Progress {
  int level = 0;
  int pass = 0;
  std::uint64_t done = 0, level_boards = 0;
  std::uint64_t boards_before = 0;  // boards of the levels already complete
  std::uint64_t total = 0;          // boards of every level of the build
  std::uint64_t evaluations = 0;    // boards evaluated so far (every pass counted)
  double seconds = 0;
};
using ProgressFn = std::function<void(const Progress&)>;

// Solves level n (every level below it is done) over the boards [first, last) of the level,
// one pass at a time. `Game` expands boards:
//   bool expand(const Board& b, int n, int& value, F&& f): false when the game is over at b
//   (value = its final difference), else calls f(const Step&) for every move (f returns false
//   to stop early);
//   static constexpr bool kAcyclic: no cycle inside a level.
// `Store` holds the values of every level by key (offset of the level + rank):
//   low(key, n), high(key, n), set(key, n, low, high) for a board of n seeds, unknown(key)
//   (acyclic: not computed yet),
//   and all reads and writes are relaxed atomics.
template <class Game, class Store>
class LevelSolver {
 public:
  LevelSolver(const Game& game, const Compositions& index, Store& store, int n)
      : game_(game), index_(index), store_(store), n_(n), offset_(index.offset(n)) {}

  // Acyclic levels: each board of [first, last) (and those it leads to) computed once.
  void run_acyclic(std::uint64_t first, std::uint64_t last) {
    Board b = index_.unrank(first, n_);
    for (std::uint64_t r = first; r < last; ++r) {
      if (store_.unknown(offset_ + r)) {
        const int v = exact(b);
        store_.set(offset_ + r, n_, v, v);
      }
      index_.next(b);
    }
  }

  // One pass of the fixed point over [first, last); returns the boards whose bounds moved.
  std::uint64_t run_pass(std::uint64_t first, std::uint64_t last) {
    std::uint64_t moved = 0;
    Board b = index_.unrank(first, n_);
    for (std::uint64_t r = first; r < last; ++r, index_.next(b)) {
      const std::uint64_t key = offset_ + r;
      const int low = store_.low(key, n_), high = store_.high(key, n_);
      if (low == high) continue;  // exact: never moves again
      int new_low = -n_ - 1, new_high = -n_ - 1, terminal = 0;
      if (!game_.expand(b, n_, terminal, [&](const Step& s) {
            int cl, ch;
            if (s.over) {
              cl = ch = s.gain;
            } else {
              const std::uint64_t child = index_.key(s.child, s.left);
              const int l = store_.low(child, s.left), h = store_.high(child, s.left);
              cl = s.extra ? s.gain + l : s.gain - h;
              ch = s.extra ? s.gain + h : s.gain - l;
            }
            new_low = std::max(new_low, cl);
            new_high = std::max(new_high, ch);
            return true;
          })) {
        new_low = new_high = terminal;
      }
      new_low = std::max(new_low, low);
      new_high = std::min(new_high, high);
      if (new_low != low || new_high != high) {
        store_.set(key, n_, new_low, new_high);
        ++moved;
      }
    }
    return moved;
  }

 private:
  int exact(const Board& b) {
    int best = -n_ - 1, terminal = 0;
    if (!game_.expand(b, n_, terminal, [&](const Step& s) {
          int v;
          if (s.over) {
            v = s.gain;
          } else {
            const int c = child_exact(s.child, s.left);
            v = s.extra ? s.gain + c : s.gain - c;
          }
          best = std::max(best, v);
          return best < n_;  // nothing beats winning every seed
        }))
      return terminal;
    return best;
  }

  int child_exact(const Board& c, int seeds) {
    const std::uint64_t key = index_.key(c, seeds);
    if (seeds < n_ || !store_.unknown(key)) return store_.low(key, seeds);
    // Same level: a board further along the acyclic order, computed here if nobody has yet.
    const int v = exact(c);
    store_.set(key, n_, v, v);
    return v;
  }

  const Game& game_;
  const Compositions& index_;
  Store& store_;
  int n_;
  std::uint64_t offset_;
};

// A cyclic level by a worklist, on one machine: a first sweep keeps each board's best moves
// out of the level (fixed from then on) and the predecessors of each board inside the level;
// after that a board is evaluated again only when one of its successors moved. The same
// fixed point as the passes (the least one), with far fewer evaluations. Needs 6 bytes a board
// and 4 a move inside the level; false (nothing done) when the level has 2^32 such moves or
// more, and then the passes do it.
template <class Game, class Store>
bool solve_level_worklist(const Game& game, const Compositions& index, Store& store, int n,
                          int threads, Progress& p, const ProgressFn& progress,
                          std::chrono::steady_clock::time_point start) {
  const std::uint64_t count = index.count(n), offset = index.offset(n);
  constexpr int kNone = -128;
  std::vector<std::uint16_t> exits(count);
  std::vector<std::uint32_t> edge_end(count + 1, 0);
  constexpr std::uint64_t kBlock = 1 << 14;
  auto parallel = [&](std::uint64_t items, auto&& body) {
    std::atomic<std::uint64_t> next{0};
    auto work = [&] {
      for (std::uint64_t b; (b = next.fetch_add(1) * kBlock) < items;)
        body(b, std::min(items, b + kBlock));
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads && items > kBlock; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
  };
  auto pack = [](int low, int high) {
    return static_cast<std::uint16_t>(static_cast<std::uint8_t>(low) |
                                      static_cast<std::uint8_t>(high) << 8);
  };
  // Sweep 1: exits, and how many moves inside the level reach each board.
  std::atomic<bool> overflow{false};
  parallel(count, [&](std::uint64_t first, std::uint64_t last) {
    Board b = index.unrank(first, n);
    for (std::uint64_t r = first; r < last; ++r, index.next(b)) {
      int low = kNone, high = kNone, terminal = 0;
      bool inside = false;
      if (!game.expand(b, n, terminal, [&](const Step& s) {
            if (!s.over && s.left == n) {
              inside = true;
              auto slot = std::atomic_ref<std::uint32_t>(edge_end[index.rank(s.child, n)]);
              if (slot.fetch_add(1, std::memory_order_relaxed) == 0xffffffffu) overflow = true;
              return true;
            }
            int cl = s.gain, ch = s.gain;
            if (!s.over) {
              const std::uint64_t child = index.key(s.child, s.left);
              const int l = store.low(child, s.left), h = store.high(child, s.left);
              cl = s.extra ? s.gain + l : s.gain - h;
              ch = s.extra ? s.gain + h : s.gain - l;
            }
            low = std::max(low, cl);
            high = std::max(high, ch);
            return true;
          })) {
        low = high = terminal;
      }
      exits[r] = pack(low, high);
      if (!inside) store.set(offset + r, n, low, high);  // final already
    }
  });
  // Prefix sums (end of each board's list), checking the total fits 32 bits.
  std::uint64_t total = 0;
  for (std::uint64_t r = 0; r < count; ++r) {
    total += edge_end[r];
    if (total >= 0xffffffffULL) overflow = true;
    edge_end[r] = static_cast<std::uint32_t>(total);
  }
  edge_end[count] = static_cast<std::uint32_t>(total);
  if (overflow) {
    for (std::uint64_t r = 0; r < count; ++r) store.set(offset + r, n, -n, n);
    return false;
  }
  // Sweep 2: the predecessors, each list filled from its end (edge_end ends as its start).
  std::vector<std::uint32_t> preds(total);
  std::vector<std::atomic<std::uint64_t>> dirty((count + 63) / 64), next((count + 63) / 64);
  parallel(count, [&](std::uint64_t first, std::uint64_t last) {
    Board b = index.unrank(first, n);
    for (std::uint64_t r = first; r < last; ++r, index.next(b)) {
      int terminal;
      bool inside = false;
      game.expand(b, n, terminal, [&](const Step& s) {
        if (!s.over && s.left == n) {
          inside = true;
          auto slot = std::atomic_ref<std::uint32_t>(edge_end[index.rank(s.child, n)]);
          preds[slot.fetch_sub(1, std::memory_order_relaxed) - 1] = static_cast<std::uint32_t>(r);
        }
        return true;
      });
      if (inside) dirty[r / 64].fetch_or(1ULL << (r % 64), std::memory_order_relaxed);
    }
  });
  // Rounds: evaluate the boards marked; a board that moved marks its predecessors.
  for (int round = 1;; ++round) {
    for (auto& w : next) w.store(0, std::memory_order_relaxed);
    std::atomic<std::uint64_t> marked{0}, done{0};
    parallel(dirty.size(), [&](std::uint64_t first_word, std::uint64_t last_word) {
      std::uint64_t evaluated = 0;
      // The boards marked come in rank order: stepping to a near one with next() is much
      // cheaper than unranking it (unrank took a sixth of a build's time).
      constexpr std::uint64_t kStepAtMost = 16;
      Board b{};
      std::uint64_t at = ~0ULL;
      for (std::uint64_t w = first_word; w < last_word; ++w) {
        for (std::uint64_t bits = dirty[w].load(std::memory_order_relaxed); bits;
             bits &= bits - 1) {
          const std::uint64_t r = w * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits));
          ++evaluated;
          if (at != ~0ULL && r > at && r - at <= kStepAtMost) {
            for (; at < r; ++at) index.next(b);
          } else {
            b = index.unrank(r, n);
            at = r;
          }
          const std::uint16_t e = exits[r];
          int low = static_cast<std::int8_t>(e & 0xff), high = static_cast<std::int8_t>(e >> 8);
          int terminal;
          game.expand(b, n, terminal, [&](const Step& s) {
            if (s.over || s.left != n) return true;  // in `exits`
            const std::uint64_t child = offset + index.rank(s.child, n);
            const int l = store.low(child, n), h = store.high(child, n);
            low = std::max(low, s.extra ? s.gain + l : s.gain - h);
            high = std::max(high, s.extra ? s.gain + h : s.gain - l);
            return true;
          });
          const int old_low = store.low(offset + r, n), old_high = store.high(offset + r, n);
          low = std::max(low, old_low);
          high = std::min(high, old_high);
          if (low == old_low && high == old_high) continue;
          store.set(offset + r, n, low, high);
          const std::uint32_t from = edge_end[r], to = edge_end[r + 1];
          for (std::uint32_t i = from; i < to; ++i)
            next[preds[i] / 64].fetch_or(1ULL << (preds[i] % 64), std::memory_order_relaxed);
          marked += to - from;
        }
      }
      done += evaluated;
      if (progress) {
        p.pass = round;
        p.done = done;
        p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        progress(p);
      }
    });
    p.evaluations += done;
    if (marked == 0) break;
    dirty.swap(next);
  }
  return true;
}

// Solves the levels [from, to] with `threads` threads (the store holds every level below
// `from` already). `before_level(n)` prepares the store for level n (unknown or [-n, n]);
// `after_level(n)` is told when it is complete (level files, MPI exchange). `pass_done` may
// combine the passes of several processes: it gets the boards this process moved in the
// pass and returns the boards moved everywhere (MPI); `slice` gives the part of each level
// this process computes (MPI ranks; [0, count) otherwise).
struct Schedule {
  int threads = 1;
  std::function<void(int)> before_level = {}, after_level = {};
  std::function<std::uint64_t(int, std::uint64_t)> pass_done = {};
  std::function<std::pair<std::uint64_t, std::uint64_t>(int, std::uint64_t)> slice = {};
  ProgressFn progress = {};
  bool passes = false;  // cyclic levels by passes even on one machine (tests: same bytes)
};

template <class Game, class Store>
void solve_levels(const Game& game, const Compositions& index, Store& store, int from, int to,
                  const Schedule& schedule) {
  const auto start = std::chrono::steady_clock::now();
  const int threads = std::max(1, schedule.threads);
  Progress p;
  p.total = index.offset(to + 1) - index.offset(from);
  for (int n = from; n <= to; ++n) {
    if (schedule.before_level) schedule.before_level(n);
    const std::uint64_t count = index.count(n);
    auto [first, last] = schedule.slice ? schedule.slice(n, count)
                                        : std::pair<std::uint64_t, std::uint64_t>{0, count};
    constexpr std::uint64_t kBlock = 1 << 14;
    p.level = n;
    p.level_boards = count;
    if constexpr (!Game::kAcyclic) {
      if (!schedule.slice && !schedule.pass_done && !schedule.passes &&
          solve_level_worklist(game, index, store, n, threads, p, schedule.progress, start)) {
        p.boards_before += count;
        p.done = count;
        p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (schedule.after_level) schedule.after_level(n);
        if (schedule.progress) schedule.progress(p);
        continue;
      }
    }
    for (int pass = 1;; ++pass) {
      std::atomic<std::uint64_t> next_block{0}, done{0}, moved{0};
      p.pass = pass;
      auto work = [&](bool reporter) {
        LevelSolver<Game, Store> solver(game, index, store, n);
        for (std::uint64_t b; (b = first + next_block.fetch_add(1) * kBlock) < last;) {
          const std::uint64_t e = std::min(last, b + kBlock);
          if constexpr (Game::kAcyclic)
            solver.run_acyclic(b, e);
          else
            moved += solver.run_pass(b, e);
          done += e - b;
          if (reporter && schedule.progress) {
            p.done = done;
            p.seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            schedule.progress(p);
          }
        }
      };
      std::vector<std::thread> pool;
      for (int t = 1; t < threads && last - first > kBlock; ++t) pool.emplace_back(work, false);
      work(true);
      for (auto& t : pool) t.join();
      p.evaluations += last - first;
      std::uint64_t all_moved = moved;
      if (schedule.pass_done) all_moved = schedule.pass_done(n, moved);
      if constexpr (Game::kAcyclic) break;
      if (all_moved == 0) break;
    }
    p.boards_before += count;
    p.done = count;
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (schedule.after_level) schedule.after_level(n);
    if (schedule.progress) schedule.progress(p);
  }
}

}  // namespace naqala::solve::retro
