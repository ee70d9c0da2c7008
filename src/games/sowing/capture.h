#pragma once
// Captures: which seeds a sowing takes, and when. Each rule in its versions side by side:
// scalar (Toguz, Kenyan Bao: boards over 16 holes), vector (Kalah, Bantumi, Oware, Awale,
// Ayoayo, Mangala: the whole capture without a branch on the seeds) and general (every
// ruleset of the general path, Rules::general). Which rule a ruleset uses is its [capture]
// table (docs/variants.md); docs/games/<preset>.md says why.
#include "games/sowing/state_class.h"

namespace naqala::sowing {

// Scalar: the capture rule at the last hole, after a single-lap sowing.
inline void State::capture(int last) {
  const Rules& r = *rules_;
  if (r.capture == CaptureKind::None || !r.is_pit(last)) return;
  // Only the opposite capture takes from an own pit (the counts take the opponent's).
  if (r.owner(last) == mover_) return capture_opposite(last);
  if (!(r.capture_set & kCapCounts)) return;
  capture_counts(last);
}

// General: every capture rule a ruleset combines, at the hole of the last seed.
inline bool State::capture_general(int last, bool declare_tuz) {
  const Rules& r = *rules_;
  if (!r.is_pit(last) || last == tuz_[0] || last == tuz_[1]) return false;
  if ((r.capture_set & kCapOpposite) && capture_opposite_general(last)) return true;
  if (r.capture_set & kCapCounts) return capture_counts_general(last, declare_tuz);
  if (r.capture_set & kCapColumn) return capture_column_general(last);
  return false;
}

inline void State::take(int hole, Player taker) {
  board_[rules_->store(taker)] += board_[hole];
  board_[hole] = 0;
}

// ---- [capture] kind = "opposite", empty_capture, with_last_seed ----
// Kalah's capture: the last seed alone in an own pit takes the opposite pit, and itself unless
// with_last_seed = false (Kalah, Bantumi, Ayoayo, Mangala, Kenyan Bao, Kenyan Bao with laps,
// Congklak: docs/games/kalah.md, bantumi.md, ayoayo.md, mangala.md, kenyan-bao.md,
// kenyan-bao-laps.md, congklak.md). An empty opposite pit takes nothing unless empty_capture.

// Scalar.
[[gnu::always_inline]] inline void State::capture_opposite(int last) {
  const Rules& r = *rules_;
  if (r.capture != CaptureKind::Opposite || board_[last] != 1) return;
  const int opposite = r.opposite(last);
  if (board_[opposite] == 0 && !r.empty_capture) return;
  board_[r.store(mover_)] += board_[opposite] + (r.with_last_seed ? 1 : 0);
  board_[opposite] = 0;
  if (r.with_last_seed) board_[last] = 0;
}

#if defined(__SSE2__)
// Vector. Read by comparisons of the whole board, not by taking bytes out of the vector (that
// goes through memory and waits), and without a branch: which moves capture is unpredictable,
// and a misprediction also throws away the playouts advancing beside.
[[gnu::always_inline]] inline void State::capture_opposite_cells(Cells16& c, int last) const {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const int store = r.store(mover_);
  const __m128i board = reinterpret_cast<__m128i>(c);
  const auto ones =
      static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(board, _mm_set1_epi8(1))));
  const auto filled =
      ~static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(board, _mm_setzero_si128())));
  const std::uint32_t take =
      ((r.row_bits[p] & ones) >> last) & ((filled >> r.opposite_hole[last]) | r.empty_capture) & 1;
  // The seeds taken, summed and spread to every byte inside the vector, go to the store's
  // cell (or to none when nothing is taken).
  __m128i gain =
      _mm_sad_epu8(reinterpret_cast<__m128i>(c & r.capture_cells[1][last]), _mm_setzero_si128());
  gain = _mm_add_epi32(gain, _mm_srli_si128(gain, 8));
  gain = _mm_unpacklo_epi8(gain, gain);
  gain = _mm_shuffle_epi32(_mm_unpacklo_epi16(gain, gain), 0);
  c = (c & ~r.capture_cells[take][last]) +
      (r.hole_cell[take ? store : kVectorHoles] & reinterpret_cast<Cells16>(gain));
}
#endif

// General (owners change hands in Nam-Nam's rounds, so the pit's owner is read from the state).
inline bool State::capture_opposite_general(int last) {
  const Rules& r = *rules_;
  const Player me = mover_;
  if (owner_of(last) != me || board_[last] != 1) return false;
  const int o = r.opposite(last);
  if (board_[o] == 0 && !r.empty_capture) return false;
  take(o, me);
  if (r.with_last_seed) take(last, me);
  last_taker_ = static_cast<std::int8_t>(index(me));
  return true;
}

// ---- [capture] kind = "counts" | "even", counts, side, chain, grand_slam; [tuz] ----
// Oware's capture: the last seed makes the pit hold one of the counts (Oware, Awale: 2-3;
// madjnuni, el-akil, el-ghasheem: 2 or 4) or an even count (Toguz, Mangala), and the chain
// takes the pits before it that qualify (docs/games/oware.md, awale.md, toguz.md, mangala.md,
// madjnuni.md, el-akil.md, el-ghasheem.md). Oware's grand slam (every seed of the opponent's
// row) takes nothing, is forbidden, or takes everything, by grand_slam (docs/games/oware.md).
// Toguz's tuz: a last seed making 3 in an eligible pit makes it the mover's tuz, at once
// (docs/games/toguz.md).

// Scalar: the seeds a counts-capture at `last` would take (the grand slam test).
inline int State::grand_slam_take(int last) const {
  const Rules& r = *rules_;
  const auto& prev = r.prev[index(mover_)];
  int take = 0;
  for (int h = last; r.is_pit(h) && r.owner(h) != mover_ && r.capturable[board_[h]]; h = prev[h]) {
    take += board_[h];
    if (!r.chain) break;
  }
  return take;
}

// Scalar.
[[gnu::always_inline]] inline void State::capture_counts(int last) {
  const Rules& r = *rules_;
  const int c = board_[last];
  if (r.tuz != TuzKind::None && c == r.tuz_count && tuz_eligible(last)) {
    tuz_[index(mover_)] = static_cast<std::int8_t>(last);  // automatic (docs/games/toguz.md)
    board_[r.store(mover_)] += c;
    board_[last] = 0;
    return;
  }
  if (!r.capturable[c]) return;
  const auto& prev = r.prev[index(mover_)];
  if (r.even) {  // no grand slam rule: take the pit (and the qualifying ones before it)
    for (int h = last; r.is_pit(h) && r.owner(h) != mover_ && r.capturable[board_[h]];
         h = prev[h]) {
      board_[r.store(mover_)] += board_[h];
      board_[h] = 0;
      if (!r.chain) break;
    }
    return;
  }
  const int take = grand_slam_take(last);
  const bool grand_slam = take == row_seeds(opponent(mover_));
  if (grand_slam && r.grand_slam != GrandSlam::CaptureAll)
    return;  // no_capture (forbidden never gets here)
  int h = last;
  for (int taken = 0; taken < take; h = prev[h]) {
    taken += board_[h];
    board_[r.store(mover_)] += board_[h];
    board_[h] = 0;
  }
  if (grand_slam) {
    // The capturer also takes what is left on his own side, and the game ends.
    const int first = r.first_pit(mover_);
    for (int i = 0; i < r.pits; ++i) {
      board_[r.store(mover_)] += board_[first + i];
      board_[first + i] = 0;
    }
    reason_ = EndReason::GrandSlam;
  }
}

#if defined(__SSE2__)
// Vector. Returns false when a grand slam that takes everything was handed to the scalar
// capture above (the board is then written and the move's end is the caller's).
[[gnu::always_inline]] inline bool State::capture_counts_cells(Cells16& c, int last) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const int store = r.store(mover_);
  // Most moves end where no count captures: testing that first skips the work below (measured:
  // Oware's and Mangala's random games 13% and 44% faster, MCTS unchanged).
  if (!((r.capture_set & kCapCounts) && ((r.row_bits[p ^ 1] >> last) & 1) && r.capturable[c[last]]))
    return true;
  // The pits of the opponent holding a capturing count, and the run of them that ends at
  // the last hole, walked against the sowing (towards lower holes when sowing ccw).
  Cells16 hit;
  if (r.even) {
    hit = reinterpret_cast<Cells16>(((c & 1) == 0) & (c != 0));
  } else {
    hit = Cells16{};
    for (int i = 0; i < r.count_list_size; ++i)
      hit |= reinterpret_cast<Cells16>(c == r.count_list[i]);
  }
  const std::uint32_t bits =
      static_cast<std::uint32_t>(_mm_movemask_epi8(reinterpret_cast<__m128i>(hit))) &
      r.row_bits[p ^ 1];
  std::uint32_t run;
  if (!r.chain) {
    run = bits & (1u << last);
  } else if (r.direction == Direction::Ccw) {
    const std::uint32_t upto = (2u << last) - 1;
    const int start = 31 - __builtin_clz(((~bits & upto) << 1) | 1);  // above the last gap
    run = upto & ~((1u << start) - 1);
  } else {
    const std::uint32_t from = ~((1u << last) - 1);
    run = from & ((1u << __builtin_ctz(~bits & from)) - 1);  // below the first gap
  }
  // The run's bits as cells: each byte tests its bit of the run.
  const __m128i halves = _mm_unpacklo_epi64(_mm_set1_epi8(static_cast<char>(run & 0xff)),
                                            _mm_set1_epi8(static_cast<char>((run >> 8) & 0xff)));
  const Cells16 lane = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  Cells16 taken_cells =
      reinterpret_cast<Cells16>((reinterpret_cast<Cells16>(halves) & lane) == lane);
  int take = cell_sum(c & taken_cells);
  if (!r.even && take == cell_sum(c & r.row_cells[p ^ 1])) {
    // A grand slam (or no capture at all): no capture, or Oware's third variant.
    if (take && r.grand_slam == GrandSlam::CaptureAll) [[unlikely]] {
      set_cells(c);
      capture(last);
      return false;
    }
    take = 0;
    taken_cells = Cells16{};
  }
  c = (c & ~taken_cells) + (r.hole_cell[store] & static_cast<std::uint8_t>(take));
  return true;
}
#endif

// General: either side (capture.side), forward or backward chains (madjnuni's S4:47 runs
// forward), each captured pit with its opposite (with_opposite: Lane's and Culin's rules),
// burnt pits passed over, and the tuz by choice (`7t`, [tuz] kind = "choice").
inline bool State::capture_counts_general(int last, bool declare_tuz) {
  const Rules& r = *rules_;
  const Player me = mover_;
  const int c = board_[last];
  auto side_ok = [&](int h) {
    return r.capture_side == CaptureSide::Both ||
           (owner_of(h) == me) == (r.capture_side == CaptureSide::Own);
  };
  if (!side_ok(last)) return false;
  if (r.tuz != TuzKind::None && c == r.tuz_count && tuz_eligible(last) &&
      (r.tuz == TuzKind::Auto || declare_tuz)) {
    tuz_[index(me)] = static_cast<std::int8_t>(last);
    take(last, me);
    last_taker_ = static_cast<std::int8_t>(index(me));
    return true;
  }
  if (!r.capturable[c]) return false;
  const auto& along = r.chain_dir == ChainDir::Backward ? r.prev[index(me)] : r.next[index(me)];
  int h = last;
  for (int guard = 0; guard < r.pit_count(); ++guard) {
    take(h, me);
    if (r.with_opposite && r.rows == 2) take(r.opposite(h), me);
    if (!r.chain) break;
    do h = along[h];
    while (!r.is_pit(h) || burnt(h));
    if (h == last || h == tuz_[0] || h == tuz_[1] || !side_ok(h) || !r.capturable[board_[h]]) break;
  }
  last_taker_ = static_cast<std::int8_t>(index(me));
  return true;
}

// Toguz's tuz (docs/games/toguz.md): one per player, never an opponent's last pit, never the
// pit of the same number as the opponent's tuz.
inline bool State::tuz_eligible(int hole) const {
  const Rules& r = *rules_;
  const Player me = mover_, you = opponent(me);
  if (r.tuz == TuzKind::None || tuz_[index(me)] != -1 || owner_of(hole) != you) return false;
  const int pos = hole - r.first_pit(you);                          // index in his row
  if (pos < 0 || pos >= r.pits || pos == r.pits - 1) return false;  // never his last pit
  const int theirs = tuz_[index(you)];  // in my row: not the same number
  if (theirs >= 0 && theirs - r.first_pit(me) == pos) return false;
  return true;
}

// ---- [capture] kind = "column", column = "both" | "enemy" ----
// Gabata (docs/games/gabata.md): the last seed alone in a pit takes the other pits of its
// column (S4:341), or only the opponent's (column = "enemy"). General only.
inline bool State::capture_column_general(int last) {
  const Rules& r = *rules_;
  const Player me = mover_;
  if (board_[last] != 1) return false;
  bool any = false;
  for (int h = 0; h < r.pit_count(); ++h) {
    if (h == last || r.column[h] != r.column[last] || board_[h] == 0) continue;
    if (r.column_enemy_only && owner_of(h) == me) continue;
    take(h, me);
    any = true;
  }
  if (any) last_taker_ = static_cast<std::int8_t>(index(me));
  return any;
}

// ---- [sowing] laps = "next_pit": the capture that ends a pussa-kanawa sowing ----
// Pallanguzhi (docs/games/pallanguzhi.md): the pit after the empty one, and the pit opposite
// that, unless the opposite is the empty pit itself or burnt. General only.
[[gnu::always_inline]] inline bool State::capture_after_empty(int empty) {
  const Rules& r = *rules_;
  const int f = step(empty, -1);
  if (!r.is_pit(f) || board_[f] == 0) return false;
  take(f, mover_);
  const int o = r.opposite(f);
  if (o != empty && board_[o] > 0 && !burnt(o)) take(o, mover_);
  last_taker_ = static_cast<std::int8_t>(index(mover_));
  return true;
}

// ---- [capture] during, during_last, during_count; sweep ----
// A pit reaching `during_count` while the seeds are sown is taken at once: by its owner
// (Nam-Nam's fours, Pallanguzhi's pasu, compulsory and immediate: docs/games/namnam.md,
// pallanguzhi.md) or by the sower (Ayo-ayo's fours: docs/games/ayoayo-fours.md); during_last
// says who takes it when the last seed makes it, and whether that ends the move. General only.
// sweep: Nam-Nam's last eight (docs/games/namnam.md, ruling R4), checked at every capture:
// when a capture leaves `sweep` seeds or fewer in play (the sower's hand included), the
// capturer takes them too and the round ends at once.
[[gnu::always_inline]] inline void State::capture_during(int hole, int& hand, SowResult& res) {
  const Rules& r = *rules_;
  const bool last = hand == 0;
  Taker who = last && r.during_last != Taker::Continue ? r.during_last : r.during;
  const Player taker = who == Taker::Sower ? mover_ : owner_of(hole);
  take(hole, taker);
  res.captured = true;
  last_taker_ = static_cast<std::int8_t>(index(taker));
  if (last && r.during_last != Taker::Continue) res.ended = true;
  if (!r.sweep) return;
  const int left = seeds_in_play() + hand;
  if (left == 0 || left > r.sweep) return;
  for (int h = 0; h < r.pit_count(); ++h) take(h, taker);
  board_[r.store(taker)] += hand;
  res.swept_in_hand = hand;
  hand = 0;
  res.swept = res.ended = true;
}

}  // namespace naqala::sowing
