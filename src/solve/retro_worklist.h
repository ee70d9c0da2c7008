#pragma once
// A cyclic level of the retrograde engine (solve/retro.h) by a worklist, on one machine.
//
// Sweep 1 expands every board once: its best moves out of the level (fixed from then on, 2
// bytes a board) and, for each board, how many moves inside the level reach it; a board with
// no move inside the level is final there. Sweep 2 expands every board again to list those
// predecessors (4 bytes a move inside the level). After that a board is sown again only where
// it must be. A board whose bounds moved tells its predecessors (in rounds), and
//   - a predecessor's `low` is a max over its moves and only rises: it is raised in place;
//   - a predecessor's `high` is a max over its moves too, but a move's term only falls: each
//     board counts its moves inside the level that give its `high` (1 byte), and only when
//     the last of them got worse is the board expanded again (every move read afresh; a
//     board whose `high` comes from a move out of the level never is).
// Each update raises a `low` or lowers a `high` towards the least fixed point and never past
// it, and the rounds end only when every board is at a fixed point of its moves: the same
// bytes as the passes, whatever the order and the threads. (Until stop 16 every board one of
// whose successors moved was expanded again in each round: 3-4 more expansions a board.)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "solve/compositions.h"
#include "solve/retro_step.h"

namespace naqala::solve::retro {

namespace worklist_detail {

inline std::uint16_t pack(int low, int high) {
  return static_cast<std::uint16_t>(static_cast<std::uint8_t>(low) | static_cast<std::uint8_t>(high)
                                                                         << 8);
}
inline int low_of(std::uint16_t v) {
  return static_cast<std::int8_t>(v & 0xff);
}
inline int high_of(std::uint16_t v) {
  return static_cast<std::int8_t>(v >> 8);
}

// A set of boards of a level, one bit each, that threads mark at once.
class BoardSet {
 public:
  explicit BoardSet(std::uint64_t boards) : words_((boards + 63) / 64) {}
  void mark(std::uint64_t r) {
    words_[r / 64].fetch_or(1ULL << (r % 64), std::memory_order_relaxed);
  }
  // Marks r; true when it was not marked before.
  bool insert(std::uint64_t r) {
    const std::uint64_t bit = 1ULL << (r % 64);
    return !(words_[r / 64].fetch_or(bit, std::memory_order_relaxed) & bit);
  }
  bool has(std::uint64_t r) const {
    return (words_[r / 64].load(std::memory_order_relaxed) >> (r % 64)) & 1;
  }
  std::uint64_t words() const { return words_.size(); }
  // The boards of word w.
  std::uint64_t has_word(std::uint64_t w) const {
    return words_[w].load(std::memory_order_relaxed);
  }
  // The boards of word w, leaving it empty.
  std::uint64_t take(std::uint64_t w) { return words_[w].exchange(0, std::memory_order_relaxed); }
  void swap(BoardSet& other) { words_.swap(other.words_); }

 private:
  std::vector<std::atomic<std::uint64_t>> words_;
};

// Whether a Store keeps only this process's slice of the level being built (and its ghosts):
// retro_slices.h's SlicedStore says so with `kKeepsSlices`.
template <class Store>
constexpr bool kKeepsSlices = requires {
  requires Store::kKeepsSlices;
};

// solve_level_worklist's body, compiled apart for one process (kSliced false: a board's local
// index is its rank in the level and its bounds are in the store, as before MPI sliced the
// level) and for a slice under MPI (its own boards, then its ghosts, in the exchange's values),
// so that the one-process build's inner loops pay nothing for the lookups of the other.
template <bool kSliced, class Game, class Store>
bool solve_level(const Game& game, const Compositions& index, Store& store, int n, int threads,
                 Progress& p, const ProgressFn& progress,
                 std::chrono::steady_clock::time_point start, const LevelExchange* exchange,
                 const std::function<bool()>& stop) {
  const std::uint64_t count = index.count(n), offset = index.offset(n);
  const std::uint64_t first = kSliced ? exchange->first : 0;
  const std::uint64_t last = kSliced ? exchange->last : count;
  const std::uint64_t mine = last - first;
  // Boards are known by a local index: this process's own (r - first), then its ghosts.
  const KeySet* const ghosts = kSliced ? exchange->ghosts : nullptr;
  std::uint64_t known = mine;
  if constexpr (kSliced) known += ghosts->size();
  std::atomic<bool> lost{false};  // a board of another slice read that is not a ghost (a bug)
  auto local = [&](std::uint64_t r) -> std::uint64_t {
    if constexpr (!kSliced) {
      return r;
    } else {
      if (r >= first && r < last) return r - first;
      const std::uint64_t i = ghosts->find(r);
      if (i == KeySet::kAbsent) {
        lost.store(true, std::memory_order_relaxed);
        return 0;
      }
      return mine + i;
    }
  };
  // A board's bounds by local index: in the exchange's values (own boards, then ghosts), or
  // in the store (one process: the local index is the rank in the level).
  std::uint16_t* const values = kSliced ? exchange->values : nullptr;
  auto bounds_of = [&](std::uint64_t j) -> std::uint16_t {
    if constexpr (kSliced)
      return std::atomic_ref<std::uint16_t>(values[j]).load(std::memory_order_relaxed);
    else
      return pack(store.low(offset + j, n), store.high(offset + j, n));
  };
  auto set_bounds = [&](std::uint64_t j, int low, int high) {
    if constexpr (kSliced)
      std::atomic_ref<std::uint16_t>(values[j]).store(pack(low, high), std::memory_order_relaxed);
    else
      store.set(offset + j, n, low, high);
  };
  auto raise_low = [&](std::uint64_t j, int low) {
    if constexpr (!kSliced) {
      return store.raise_low(offset + j, n, low);
    } else {
      std::atomic_ref<std::uint16_t> v(values[j]);
      std::uint16_t was = v.load(std::memory_order_relaxed);
      while (low_of(was) < low)
        if (v.compare_exchange_weak(was, pack(low, high_of(was)), std::memory_order_relaxed))
          return true;
      return false;
    }
  };
  constexpr int kNone = -128;
  constexpr std::uint64_t kBoards = 1 << 14, kWords = 1 << 8;  // blocks handed to a thread
  // `stop` (retro.h's Schedule::stop; never with MPI ranks), latched: once it has said stop,
  // every block and sweep after is skipped (sweep 2 must not run on half of sweep 1's counts).
  std::atomic<bool> halted{false};
  auto halt = [&] {
    if (!halted.load(std::memory_order_relaxed) && stop && !kSliced && stop())
      halted.store(true, std::memory_order_relaxed);
    return halted.load(std::memory_order_relaxed);
  };
  // Runs body(a, b) over this process's boards (or bit-set words) [from, to) in blocks.
  auto over = [&](std::uint64_t from, std::uint64_t to, std::uint64_t block, auto&& body) {
    parallel_blocks(threads, to - from, block, [&](std::uint64_t a, std::uint64_t b) {
      if (!halt()) body(from + a, from + b);
    });
  };
  // With `exchange`: which processes read each of this process's boards (as a ghost), listed
  // by board (the ends of each board's list, then the processes).
  std::vector<std::uint32_t> reader_end, readers;
  if constexpr (kSliced) {
    // (A level of 2^32 boards or more is refused below, all processes alike: no readers.)
    if (count <= 0xffffffffULL) {
      std::vector<std::vector<std::uint8_t>> to(exchange->ranks);
      ghosts->for_each([&](std::uint64_t, std::uint64_t r) {
        auto& out = to[exchange->owner(r)];
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(&r);
        out.insert(out.end(), bytes, bytes + 8);
      });
      const auto asked = exchange->alltoall(to);
      std::vector<std::vector<std::uint8_t>>().swap(to);
      reader_end.assign(mine + 1, 0);
      auto each_asked = [&](auto&& f) {
        for (std::size_t q = 0; q < asked.size(); ++q)
          for (std::size_t i = 0; i + 8 <= asked[q].size(); i += 8) {
            std::uint64_t r;
            std::memcpy(&r, asked[q].data() + i, 8);
            if (r < first || r >= last) {
              lost = true;  // asked for a board this process does not own (a bug)
              continue;
            }
            f(r - first, static_cast<std::uint32_t>(q));
          }
      };
      each_asked([&](std::uint64_t j, std::uint32_t) { ++reader_end[j + 1]; });
      for (std::uint64_t j = 0; j < mine; ++j) reader_end[j + 1] += reader_end[j];
      readers.resize(reader_end[mine]);
      std::vector<std::uint32_t> at(reader_end.begin(), reader_end.end() - 1);
      each_asked([&](std::uint64_t j, std::uint32_t q) { readers[at[j]++] = q; });
    }
  }
  // Sends the bounds of this process's boards marked in `set` to the processes that read
  // them, and marks in `set` the ghosts it is sent; returns how many of its boards were marked.
  std::uint64_t sent = 0;
  auto tell_readers = [&](BoardSet& set) {
    std::vector<std::vector<std::uint8_t>> to(exchange->ranks);
    std::uint64_t moved = 0;
    for (std::uint64_t w = 0; w < (mine + 63) / 64; ++w)
      for (std::uint64_t bits = set.has_word(w); bits; bits &= bits - 1) {
        const std::uint64_t j = w * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits));
        if (j >= mine) break;
        ++moved;
        const std::uint64_t m = (first + j) << 16 | bounds_of(j);
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(&m);
        for (std::uint32_t i = reader_end[j]; i < reader_end[j + 1]; ++i) {
          to[readers[i]].insert(to[readers[i]].end(), bytes, bytes + 8);
          ++sent;
        }
      }
    const auto got = exchange->alltoall(to);
    for (const auto& from : got)
      for (std::size_t i = 0; i + 8 <= from.size(); i += 8) {
        std::uint64_t m;
        std::memcpy(&m, from.data() + i, 8);
        const std::uint64_t j = local(m >> 16);
        const auto v = static_cast<std::uint16_t>(m & 0xffff);
        set_bounds(j, low_of(v), high_of(v));
        set.mark(j);
      }
    return moved;
  };
  // Of this process's boards (by local index): their best moves out of the level, and how
  // many moves inside the level give each its high (kFixed: a move out of it).
  std::vector<std::uint16_t> exits(mine);
  std::vector<std::uint32_t> edge_end(known + 1, 0);
  constexpr std::uint8_t kFixed = 0xff;
  std::vector<std::uint8_t> support(mine);
  BoardSet dirty(known), next(known), reeval(mine);
  std::atomic<bool> refused{count > 0xffffffffULL}, any_extra{false};
  std::atomic<std::uint64_t> expanded{0};
  const auto reporter = std::this_thread::get_id();  // the progress is told by one thread
  auto report = [&](int round, std::uint64_t done) {
    if (!progress || std::this_thread::get_id() != reporter) return;
    p.pass = round;
    p.done = std::min(done, count);
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress(p);
  };
  // Sweep 1: exits, how many moves inside the level reach each board, and every board's
  // bounds with its successors in the level still at [-n, n]: a board with a move inside the
  // level gets [max(exits' low, -n), n], one without is final.
  over(first, last, kBoards, [&](std::uint64_t from, std::uint64_t to) {
    if (refused) return;  // ranks above 2^32
    Board b = index.unrank(from, n);
    for (std::uint64_t r = from; r < to; ++r, index.next(b)) {
      int low = kNone, high = kNone, terminal = 0, inside = 0;
      if (!game.expand(b, n, terminal, [&](const Step& s) {
            if (!s.over && s.left == n) {
              ++inside;
              if (s.gain != 0) refused = true;
              if (s.extra) any_extra = true;
              auto slot = std::atomic_ref<std::uint32_t>(edge_end[local(index.rank(s.child, n))]);
              if (slot.fetch_add(1, std::memory_order_relaxed) == 0xffffffffu) refused = true;
              return true;
            }
            const MoveBounds m = move_bounds(s, store, index);
            low = std::max(low, m.low);
            high = std::max(high, m.high);
            return true;
          })) {
        low = high = terminal;
      }
      const std::uint64_t j = r - first;
      exits[j] = pack(low, high);
      // The moves inside the level all give n for now.
      support[j] = high >= n ? kFixed : static_cast<std::uint8_t>(inside);
      if (!inside)
        set_bounds(j, low, high);  // final already
      else if (low > -n)
        set_bounds(j, low, n);
      if (!inside || low > -n) dirty.mark(j);
    }
  });
  expanded += mine;
  if (halt()) return true;  // unfinished: solve_levels asks `stop` again and leaves the level
  // Prefix sums (end of each board's list), checking the total fits 32 bits.
  std::uint64_t total = 0;
  for (std::uint64_t j = 0; j < known; ++j) {
    total += edge_end[j];
    if (total >= 0xffffffffULL) refused = true;
    edge_end[j] = static_cast<std::uint32_t>(total);
  }
  edge_end[known] = static_cast<std::uint32_t>(total);
  if constexpr (kSliced) {
    if (exchange->sum(lost ? 1 : 0) > 0)
      throw std::logic_error("a process of the MPI build read a board of level " +
                             std::to_string(n) + " it had not listed");
    refused = exchange->sum(refused ? 1 : 0) > 0;  // all processes or none
  }
  if (refused) {
    for (std::uint64_t j = 0; j < mine; ++j) set_bounds(j, -n, n);
    return false;
  }
  // Every process's first bounds, to the processes that read them (a board left at [-n, n]
  // tells nobody anything).
  if constexpr (kSliced) tell_readers(dirty);
  // Sweep 2: the predecessors, each list filled from its end (edge_end ends as its start),
  // and which of those moves give the mover another turn (only when some do).
  std::vector<std::uint32_t> preds(total);
  BoardSet extra_move(any_extra ? total : 0);
  over(first, last, kBoards, [&](std::uint64_t from, std::uint64_t to) {
    Board b = index.unrank(from, n);
    for (std::uint64_t r = from; r < to; ++r, index.next(b)) {
      int terminal;
      game.expand(b, n, terminal, [&](const Step& s) {
        if (!s.over && s.left == n) {
          auto slot = std::atomic_ref<std::uint32_t>(edge_end[local(index.rank(s.child, n))]);
          const std::uint32_t at = slot.fetch_sub(1, std::memory_order_relaxed) - 1;
          preds[at] = static_cast<std::uint32_t>(r - first);
          if (s.extra) extra_move.mark(at);
        }
        return true;
      });
    }
  });
  expanded += mine;
  // A move that gave q its high no longer does: true when it was the last (a count that
  // went wrong, a move counted that was not, errs on the side of expanding q again).
  auto last_to_fall = [&](std::uint64_t q) {
    std::atomic_ref<std::uint8_t> left(support[q]);
    if (left.load(std::memory_order_relaxed) == kFixed) return false;
    return left.fetch_sub(1, std::memory_order_relaxed) <= 1;
  };
  // What each board's predecessors were last told of its bounds.
  std::vector<std::uint16_t> told(known, pack(-n, n));
  for (int round = 1;; ++round) {
    if (halt()) break;  // the level is left unfinished (retro.h's Schedule::stop)
    std::atomic<std::uint64_t> marked{0}, done{0};
    // Tell the predecessors of every board that moved.
    parallel_blocks(threads, dirty.words(), kWords, [&](std::uint64_t w0, std::uint64_t w1) {
      std::uint64_t boards = 0, marks = 0;
      for (std::uint64_t w = w0; w < w1; ++w) {
        for (std::uint64_t bits = dirty.take(w); bits; bits &= bits - 1) {
          const std::uint64_t r = w * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits));
          const std::uint16_t now = bounds_of(r);
          const int nl = low_of(now), nh = high_of(now);
          const int ol = low_of(told[r]), oh = high_of(told[r]);
          if (nl == ol && nh == oh) continue;
          told[r] = now;
          ++boards;
          for (std::uint32_t i = edge_end[r], end = edge_end[r + 1]; i < end; ++i) {
            const std::uint32_t q = preds[i];
            const bool x = any_extra && extra_move.has(i);
            // This move's term in q's low (it rose) and in q's high (it fell).
            const int rose_from = x ? ol : -oh, rose_to = x ? nl : -nh;
            const int fell_from = x ? oh : -ol, fell_to = x ? nh : -nl;
            if (rose_to > rose_from && raise_low(q, rose_to)) {
              next.mark(q);
              ++marks;
            }
            const int high = high_of(bounds_of(q));
            if (fell_from >= high && fell_to < high && last_to_fall(q)) {
              reeval.mark(q);
              ++marks;
            }
          }
        }
      }
      done += boards;
      marked += marks;
      report(round, done);
    });
    // Expand again the boards whose high may fall.
    over(0, reeval.words(), kWords, [&](std::uint64_t w0, std::uint64_t w1) {
      // The boards come in rank order: stepping to a near one with next() is much cheaper
      // than unranking it.
      constexpr std::uint64_t kStepAtMost = 16;
      std::uint64_t evaluated = 0, marks = 0;
      Board b{};
      std::uint64_t at = ~0ULL;
      for (std::uint64_t w = w0; w < w1; ++w) {
        for (std::uint64_t bits = reeval.take(w); bits; bits &= bits - 1) {
          const std::uint64_t j = w * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits));
          const std::uint64_t r = first + j;
          ++evaluated;
          if (at != ~0ULL && r > at && r - at <= kStepAtMost) {
            for (; at < r; ++at) index.next(b);
          } else {
            b = index.unrank(r, n);
            at = r;
          }
          const int exit_high = high_of(exits[j]);
          int low = low_of(exits[j]), high = exit_high, terminal, giving = 0;
          game.expand(b, n, terminal, [&](const Step& s) {
            if (s.over || s.left != n) return true;  // in `exits`
            const std::uint64_t child = offset + index.rank(s.child, n);
            const int l = store.low(child, n), h = store.high(child, n);
            low = std::max(low, s.extra ? l : -h);
            const int term = s.extra ? h : -l;
            if (term > high) {
              high = term;
              giving = 1;
            } else if (term == high) {
              ++giving;
            }
            return true;
          });
          const std::uint16_t old = bounds_of(j);
          const int old_low = low_of(old), old_high = high_of(old);
          support[j] = high <= exit_high ? kFixed : static_cast<std::uint8_t>(giving);
          low = std::max(low, old_low);
          high = std::min(high, old_high);
          if (low == old_low && high == old_high) continue;
          set_bounds(j, low, high);
          next.mark(j);
          ++marks;
        }
      }
      expanded += evaluated;
      marked += marks;
    });
    if constexpr (kSliced) {
      // This process's boards that moved, to the processes that read them; the rounds end
      // when no board moved anywhere.
      if (exchange->sum(tell_readers(next)) == 0) break;
    } else if (marked == 0) {
      break;
    }
    dirty.swap(next);
  }
  if constexpr (kSliced) {
    expanded = exchange->sum(expanded);
    p.level_sent = exchange->sum(sent);
  }
  p.evaluations += expanded;
  p.level_evaluations = expanded;
  return true;
}

}  // namespace worklist_detail

// Solves level n (every level below it done) by the worklist above with `threads` threads.
// `Store` is retro.h's, with raise_low(key, n, low) too (an atomic max; true when it rose).
// Needs 9 bytes a board and 4 a move inside the level; returns false (nothing done, the
// level left at [-n, n]) when the level has 2^32 such moves or more, or a move inside the
// level that wins seeds, and then the passes do it.
//
// With `exchange` (MPI ranks) this process owns a slice of the level and holds nothing of the
// level beyond it but the bounds of its ghosts (retro_step.h's LevelExchange): it expands,
// lists the predecessors of, and sets the bounds of its own boards only, and tells them the
// moves of its own boards and of its ghosts, which the ghosts' owners send it when they move.
// A ghost is read at the bounds last sent, which only lag behind: the same fixed point.
template <class Game, class Store>
bool solve_level_worklist(const Game& game, const Compositions& index, Store& store, int n,
                          int threads, Progress& p, const ProgressFn& progress,
                          std::chrono::steady_clock::time_point start,
                          const LevelExchange* exchange = nullptr,
                          const std::function<bool()>& stop = {}) {
  // A store that keeps slices (retro_slices.h) is only ever used with an exchange, and the
  // one-process stores never are: one body each, so that the unit's inlining budget goes where
  // it did before the sliced body existed (measured: with both bodies for both stores GCC no
  // longer inlined Compositions::rank into the sweeps, 2.3% more instructions).
  if constexpr (worklist_detail::kKeepsSlices<Store>) {
    if (!exchange) throw std::logic_error("a sliced store's level needs its processes' exchange");
    return worklist_detail::solve_level<true>(game, index, store, n, threads, p, progress, start,
                                              exchange, stop);
  } else {
    if (exchange) throw std::logic_error("a one-process store cannot take part in an exchange");
    return worklist_detail::solve_level<false>(game, index, store, n, threads, p, progress, start,
                                               nullptr, stop);
  }
}

}  // namespace naqala::solve::retro
