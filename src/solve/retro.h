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
#include <tuple>
#include <utility>
#include <vector>

#include "solve/compositions.h"
#include "solve/kalah.h"
#include "solve/retro_step.h"
#include "solve/retro_worklist.h"

namespace naqala::solve::retro {

// Solves level n (every level below it is done) over the boards [first, last) of the level,
// one pass at a time. `Game` expands boards:
//   bool expand(const Board& b, int n, int& value, F&& f): false when the game is over at b
//   (value = its final difference), else calls f(const Step&) for every move (f returns false
//   to stop early);
//   static constexpr bool kAcyclic: no cycle inside a level.
// `Store` holds the values of every level by key (offset of the level + rank):
//   low(key, n), high(key, n), set(key, n, low, high) for a board of n seeds, unknown(key)
//   (acyclic: not computed yet), raise_low(key, n, low) (cyclic: an atomic max of low, true
//   when it rose),
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
            const MoveBounds m = move_bounds(s, store_, index_);
            new_low = std::max(new_low, m.low);
            new_high = std::max(new_high, m.high);
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

// Solves the levels [from, to] with `threads` threads (the store holds every level below
// `from` already). `before_level(n)` prepares the store for level n (unknown or [-n, n]);
// `after_level(n)` is told when it is complete (level files, MPI exchange). Several
// processes (MPI): `slice` gives the part of each level this process computes ([0, count)
// otherwise); `pass_done` gets the boards this process moved in a pass (or an acyclic level)
// and returns the boards moved everywhere, after every process has the whole level; the
// worklist exchanges through the LevelExchange (retro_step.h) that `exchange(n, e)` completes
// (its ghosts, values, owner, alltoall and ranks; `sum` is Schedule's), and when the worklist
// cannot take a level, `whole_level(n)` gives the store the whole level for the passes.
// `fetch(n)`, when given, is called after before_level(n): a process that keeps
// only its slice of the lower levels asks their owners for the values its boards read there,
// and returns how many values it now holds and how many of them it asked of other processes.
struct Schedule {
  int threads = 1;
  std::function<void(int)> before_level = {}, after_level = {};
  std::function<std::pair<std::uint64_t, std::uint64_t>(int)> fetch = {};
  std::function<std::uint64_t(int, std::uint64_t)> pass_done = {};
  std::function<std::pair<std::uint64_t, std::uint64_t>(int, std::uint64_t)> slice = {};
  std::function<void(int, LevelExchange&)> exchange = {};
  std::function<void(int)> whole_level = {};
  std::function<std::uint64_t(std::uint64_t)> sum = {};
  ProgressFn progress = {};
  bool passes = false;  // cyclic levels by passes (tests: same bytes; MPI without `exchange`)
  // Asked (from any thread) before each level, block and round: true stops the build, and the
  // level under way is left unfinished (after_level never hears of it). Not under MPI, where
  // every rank would have to stop at the same point.
  std::function<bool()> stop = {};
};

// Returns false when `schedule.stop` stopped it: the levels after_level was told of are done.
template <class Game, class Store>
bool solve_levels(const Game& game, const Compositions& index, Store& store, int from, int to,
                  const Schedule& schedule) {
  const auto stopped = [&schedule] { return schedule.stop && schedule.stop(); };
  const auto start = std::chrono::steady_clock::now();
  const int threads = std::max(1, schedule.threads);
  Progress p;
  p.total = index.offset(to + 1) - index.offset(from);
  for (int n = from; n <= to; ++n) {
    if (stopped()) return false;
    if (schedule.before_level) schedule.before_level(n);
    const std::uint64_t count = index.count(n);
    // Plain names, not a structured binding: clang 14 (`make fuzz`) cannot capture those.
    const auto range = schedule.slice ? schedule.slice(n, count)
                                      : std::pair<std::uint64_t, std::uint64_t>{0, count};
    const std::uint64_t first = range.first, last = range.second;
    constexpr std::uint64_t kBlock = 1 << 14;
    p.level = n;
    p.level_boards = count;
    p.level_evaluations = 0;
    p.level_sent = 0;
    if (schedule.fetch) std::tie(p.level_lower, p.level_fetched) = schedule.fetch(n);
    if constexpr (!Game::kAcyclic) {
      LevelExchange exchange;
      if (schedule.slice) {
        exchange.first = first;
        exchange.last = last;
        exchange.sum = schedule.sum;
        if (schedule.exchange) schedule.exchange(n, exchange);
        p.level_ghosts = exchange.ghosts ? exchange.ghosts->size() : 0;
      }
      const bool worklist = !schedule.passes && (!schedule.slice || schedule.exchange);
      if (worklist &&
          solve_level_worklist(game, index, store, n, threads, p, schedule.progress, start,
                               schedule.slice ? &exchange : nullptr, schedule.stop)) {
        if (stopped()) return false;
        p.boards_before += count;
        p.done = count;
        p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (schedule.after_level) schedule.after_level(n);
        if (schedule.progress) schedule.progress(p);
        continue;
      }
      if (schedule.slice && schedule.whole_level) schedule.whole_level(n);
    }
    for (int pass = 1;; ++pass) {
      std::atomic<std::uint64_t> next_block{0}, done{0}, moved{0};
      p.pass = pass;
      auto work = [&](bool reporter) {
        LevelSolver<Game, Store> solver(game, index, store, n);
        for (std::uint64_t b; (b = first + next_block.fetch_add(1) * kBlock) < last;) {
          if (stopped()) return;
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
      p.level_evaluations += last - first;
      if (stopped()) return false;
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
  return true;
}

}  // namespace naqala::solve::retro
