#pragma once
// Sowing and laps: how the seeds of a pit travel. Each rule in its three versions, side by
// side: scalar (the fast path of single-lap games over more than 16 holes: Toguz, Kenyan Bao),
// vector (single-lap games of up to 16 holes: Kalah, Bantumi, Oware, Awale, Ayoayo, Mangala)
// and general (relay and pussa-kanawa laps, burnt pits, a tuz, captures during the sowing).
// The ring itself (direction, stores sown) is a table built by Rules::finalize (rules.cpp).
#include <optional>

#include "games/sow_trace.h"
#include "games/sowing/state_class.h"

namespace naqala::sowing {

// ---- [sowing] start = "origin" | "next", skip_origin, whole laps ----
// Toguz and Mangala put the first seed back into the origin (docs/games/toguz.md,
// docs/games/mangala.md); Oware, Awale, Ayoayo and Kenyan Bao skip the origin when a lap comes
// round (docs/games/oware.md, awale.md, ayoayo.md, kenyan-bao.md).

// Vector: sows `seeds` from `origin` on the vector board (Rules::vector_sow); returns the
// last hole.
inline int State::sow_cells(Cells16& cells, int origin, int seeds) const {
  const Rules& r = *rules_;
  const Rules::VectorSowing& v = r.vector_sowing[origin];
  const Cells16 origin_cell = r.hole_cell[origin];
  cells &= ~origin_cell;
  if (r.start == SowStart::Origin && seeds > 1) {
    cells -= origin_cell;  // 0xff is -1: one seed back into the origin
    --seeds;
  }
  if (seeds > v.lap_length) [[unlikely]] {
    const int laps = (seeds - 1) / v.lap_length;
    seeds -= laps * v.lap_length;
    cells += v.lap & static_cast<std::uint8_t>(laps);
  }
  cells += v.first[seeds];
  return v.landing[seeds];
}

// Scalar (and the vector sowing when the board fits a vector).
inline int State::sow(int origin) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const auto& next = r.next[p];
  int seeds = board_[origin];
  if (r.vector_sow) {
    // The origin is emptied inside the vector: a byte store just before the vector load would
    // stall it (the load could not be forwarded from the store).
    Cells16 c = cells();
    const int last = sow_cells(c, origin, seeds);
    set_cells(c);
    return last;
  }
  board_[origin] = 0;
  int hole = origin;
  if (r.start == SowStart::Origin && seeds > 1) {
    board_[origin] = 1;
    --seeds;
  }
  if (r.skip_full == 0) {
    // Whole laps at once: each lap puts one seed in every hole of the ring (but the origin,
    // when it is skipped). Keep at least one seed for the loop so `hole` ends right.
    const int lap = r.cycle_length[p] - (r.skip_origin ? 1 : 0);
    if (seeds > lap) {
      const int laps = (seeds - 1) / lap;
      seeds -= laps * lap;
      for (int h = 0; h < r.holes; ++h)
        if (next[h] != 0xff && !(r.skip_origin && h == origin)) board_[h] += laps;
    }
    if (r.skip_origin) {
      do {
        hole = next[hole];
        if (hole == origin) hole = next[hole];
        ++board_[hole];
      } while (--seeds);
    } else {
      do {
        hole = next[hole];
        ++board_[hole];
      } while (--seeds);
    }
    return hole;
  }
  // ---- [sowing] skip_full: S0's 12+ rule, Oware's option (docs/games/oware.md) ----
  // Full pits are passed over. A ring where every hole is full would never take the seed, so
  // after one fruitless round the seed goes into the next hole anyway.
  while (seeds) {
    int passed = 0;
    do {
      hole = next[hole];
      if (r.skip_origin && hole == origin) hole = next[hole];
    } while (board_[hole] >= r.skip_full && r.is_pit(hole) && ++passed < r.cycle_length[p]);
    ++board_[hole];
    --seeds;
  }
  return hole;
}

// General: the next hole of the mover's ring, past the origin (skip_origin) and burnt pits
// ([rounds] kind = "refill": Pallanguzhi's burnt pits are skipped, docs/games/pallanguzhi.md).
inline int State::step(int hole, int origin) const {
  const auto& next = rules_->next[index(mover_)];
  int guard = kMaxHoles;
  do {
    hole = next[hole];
  } while (((rules_->skip_origin && hole == origin) || burnt(hole)) && --guard);
  return hole;
}

// General: one seed into `hole`; `hand` holds the seeds still to sow (a sweep takes them).
inline void State::drop(int hole, int& hand, SowResult& res) {
  const Rules& r = *rules_;
  // [tuz]: a seed sown into a tuz goes to the store of the tuz's owner (docs/games/toguz.md).
  if (hole == tuz_[0] || hole == tuz_[1]) {
    ++board_[r.store(hole == tuz_[0] ? Player::South : Player::North)];
    return;
  }
  ++board_[hole];
  // [capture] during: a pit reaching during_count as it is sown (capture.h).
  if (r.during != Taker::None && board_[hole] == r.during_count && r.is_pit(hole))
    capture_during(hole, hand, res);
}

// ---- the general sowing ----

// Rules::max_laps (10,000): a sowing of more laps is endless (R13, docs/games/README.md). The
// loop check below finds a relay's cycle only once it has come round, and a user's relay
// without captures (12 pits of 4 seeds) has cycles of millions of laps: seconds a move.
// RULES.md's remedy, from Omweso, declares a sowing not done in two minutes infinite; a count
// of laps is that limit made the same on every machine. In the presets' random games (the
// Invariants tests) no sowing that ends took more than 194 laps (Kenyan Bao with laps); the
// endless ones were found after up to 16,184 laps, and one Gabata relay was still going
// after 10 million (the cap set that high, once, to measure).

// Brent's cycle detection over snapshots of a sowing in progress: a relay that comes back to
// a snapshot it has seen never ends (the sowing is deterministic given the snapshot).
template <class Snapshot>
class LoopDetector {
 public:
  explicit LoopDetector(const Snapshot& first) : saved_(first) {}
  bool repeats(const Snapshot& now) {
    if (now == saved_) return true;
    if (++steps_ == power_) {
      saved_ = now;
      power_ *= 2;
      steps_ = 0;
    }
    return false;
  }

 private:
  Snapshot saved_;
  std::uint64_t power_ = 1, steps_ = 0;
};

// The sowing trace for the browser's animation, kept out of the sowing loops: a lap's holes
// are walked again (`next` gives each hole after the one before) once it is sown. A seed lands
// in a pit ("S3", "M2") or a store ("store:N"; a tuz sends its seeds to its owner's store).
// One seed into `hole`, as the browser names it (a tuz's seeds go to its owner's store).
[[gnu::noinline, gnu::cold]] inline void trace_hole(const Rules& r, int hole,
                                                    const std::array<std::int8_t, 2>& tuz) {
  if (hole == tuz[0] || hole == tuz[1])
    sow_trace->seed(hole == tuz[0] ? "store:S" : "store:N");
  else if (hole >= r.all_pits)
    sow_trace->seed(hole == r.store(Player::South) ? "store:S" : "store:N");
  else
    sow_trace->seed(pit_name(r, hole));
}

template <class Next>
[[gnu::noinline, gnu::cold]] void trace_seeds(const Rules& r, int hole, int seeds,
                                              const std::array<std::int8_t, 2>& tuz, Next next) {
  for (int k = 0; k < seeds; ++k) trace_hole(r, hole = next(hole), tuz);
}

// Defined in text.cpp, beside board_json: the board is traced as the browser draws it.
[[gnu::noinline, gnu::cold]] void trace_lap(const State& s);

inline State::SowResult State::sow_general(int origin, bool declare_tuz) {
  // The server's moves are traced for the browser's animation; the engines' sowing is the
  // same code without a line of the trace.
  return sow_trace ? sow_laps<true, false>(origin, declare_tuz)
                   : sow_laps<false, false>(origin, declare_tuz);
}

inline State::SowResult State::sow_watched(int origin) {
  return sow_laps<false, true>(origin, false);
}

// ---- [sowing] laps = "single" | "relay" | "next_pit" ----
// single: the move ends with the last seed. relay: a last seed in an occupied pit lifts it and
// sows on (Ayo-ayo, Nam-Nam, Congklak, Kenyan Bao with laps, madjnuni, el-akil, el-ghasheem,
// Gabata; each docs/games page). next_pit: pussa-kanawa, the pit after the last one is lifted
// while it holds seeds (docs/games/pallanguzhi.md).
template <bool Traced, bool Watched>
State::SowResult State::sow_laps(int origin, bool declare_tuz) {
  const Rules& r = *rules_;
  SowResult res;
  int hand = board_[origin];
  board_[origin] = 0;
  int hole = origin, lap_origin = origin;
  if constexpr (Traced) trace_lap(*this);
  if (r.start == SowStart::Origin && hand > 1) {
    --hand;
    drop(origin, hand, res);  // hand > 0: never the last seed
    if constexpr (Traced) trace_seeds(r, origin, 1, tuz_, [](int h) { return h; });
  }
  struct Snapshot {
    std::array<std::uint8_t, kMaxHoles> board;
    int hole;
    bool operator==(const Snapshot&) const = default;
  };
  std::optional<LoopDetector<Snapshot>> loop;  // only relays can loop
  const bool simple = !r.skip_origin && burnt_ == 0 && r.during == Taker::None;
  for (int laps = 1;; ++laps) {
    [[maybe_unused]] const int lap_start = hole, lap_seeds = hand;
    if (simple) {
      // Nothing to skip and nothing taken on the way: only a tuz diverts a seed.
      const auto& next = r.next[index(mover_)];
      while (hand > 0) {
        hole = next[hole];
        --hand;
        if (hole == tuz_[0] || hole == tuz_[1])
          ++board_[r.store(hole == tuz_[0] ? Player::South : Player::North)];
        else
          ++board_[hole];
        if constexpr (Watched) res.reached |= r.is_pit(hole) && owner_of(hole) != mover_;
      }
    } else {
      while (hand > 0) {
        hole = step(hole, lap_origin);
        --hand;
        if constexpr (Watched) res.reached |= r.is_pit(hole) && owner_of(hole) != mover_;
        drop(hole, hand, res);
      }
    }
    if constexpr (Traced) {
      trace_seeds(r, lap_start, lap_seeds - res.swept_in_hand, tuz_, [&](int h) {
        return simple ? int{r.next[index(mover_)][h]} : step(h, lap_origin);
      });
    }
    res.last = hole;
    if (res.ended || !r.is_pit(hole)) return res;
    switch (r.laps) {
      case Laps::Single:
        res.captured |= capture_general(hole, declare_tuz);
        return res;
      case Laps::Relay:
        if (board_[hole] <= 1 || hole == tuz_[0] || hole == tuz_[1]) {
          res.captured |= capture_general(hole, declare_tuz);
          return res;
        }
        // madjnuni, el-akil, el-ghasheem: a count that captures ends the relay.
        if ((r.capture_set & kCapCounts) && capture_general(hole, declare_tuz)) {
          res.captured = true;
          return res;
        }
        hand = board_[hole];
        board_[hole] = 0;
        lap_origin = hole;
        if constexpr (Traced) trace_lap(*this);
        break;
      case Laps::NextPit: {
        const int n = step(hole, -1);
        if (board_[n] == 0 || !r.is_pit(n)) {
          res.captured |= capture_after_empty(n);
          return res;
        }
        hand = board_[n];
        board_[n] = 0;
        hole = lap_origin = n;
        if constexpr (Traced) trace_lap(*this);
        break;
      }
    }
    if (laps >= r.max_laps) {  // another lap would be one too many
      res.infinite = true;
      return res;
    }
    if (!loop) {
      loop.emplace(Snapshot{board_, hole});
    } else if (loop->repeats({board_, hole})) {
      res.infinite = true;
      return res;
    }
  }
}

}  // namespace naqala::sowing
