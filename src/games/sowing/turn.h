#pragma once
// Moves, turns and the end of the game: the inline fast path (the vector and scalar play of
// a whole move, its legal moves, the end checks). The general path's versions are in
// turn.cpp, with feeding, forbidden grand slams and passing.
#include "games/sowing/capture.h"
#include "games/sowing/sowing.h"
#include "games/sowing/state_class.h"

namespace naqala::sowing {

// ---- legal moves: [sowing] min_seeds; [feeding] must_feed; [capture] grand_slam ----
[[gnu::always_inline]] inline void State::legal_moves(MoveList& moves) const {
  const Rules& r = *rules_;
  if (r.general) return legal_general(moves);
  const int first = r.first_pit(mover_), pits = r.pits, min_seeds = r.min_seeds;
  Move* out = moves.data();
  std::size_t n = 0;
  for (int i = 0; i < pits; ++i) {  // branch-free: which pits hold seeds is unpredictable
    out[n] = static_cast<Move>(i);
    n += board_[first + i] >= min_seeds;
  }
  moves.set_size(n);
  // Oware's feeding (docs/games/oware.md): a starving opponent must be given seeds.
  if (r.must_feed && row_empty(opponent(mover_))) {
    std::size_t kept = 0;
    for (Move m : moves)
      if (feeds(m)) out[kept++] = m;
    moves.set_size(kept);
  }
  // Oware's grand_slam = "forbidden" (docs/games/oware.md).
  if (r.grand_slam == GrandSlam::Forbidden) {
    std::size_t kept = 0;
    for (Move m : moves)
      if (!is_grand_slam(m)) out[kept++] = m;
    moves.set_size(kept);
  }
}

template <class Random>
[[gnu::always_inline]] inline State::Move State::random_move(Random& rng) const {
  const Rules& r = *rules_;
#if defined(__SSE2__)
  if (r.random_by_mask) {
    const std::uint32_t filled = filled_holes();
    // A starving opponent must be fed: then only the moves that feed him (the list below).
    if (!r.must_feed || (filled & r.row_bits[index(opponent(mover_))])) {
      const std::uint32_t pits = (filled & r.row_bits[index(mover_)]) >> r.first_pit(mover_);
      return r.nth_pit[pits][rng.below(r.pit_count_of[pits])];
    }
  }
#endif
  MoveList moves;
  legal_moves(moves);
  return moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
}

// ---- [turn] extra_turn: a last seed in the own store moves again (Kalah, docs/games/kalah.md)
[[gnu::always_inline]] inline void State::after_move(bool extra_turn) {
  const Player moved = mover_;
  // Without a branch: in a random playout whether a sowing ends in the store is unpredictable.
  mover_ = static_cast<Player>(index(mover_) ^ static_cast<int>(!extra_turn));
  check_end(moved);
}

// ---- the end: [end] threshold, draw_at_half, row_empty, remaining ----
[[gnu::always_inline]] inline void State::check_end(Player moved) {
  const Rules& r = *rules_;
  // threshold: Oware's 25 of 48 (docs/games/oware.md), Bantumi's half + 1, Toguz's 82.
  if (r.threshold) {
    const int s = store(Player::South), n = store(Player::North);
    if (s >= r.threshold || n >= r.threshold) return end(EndReason::Threshold, Remaining::None, {});
    if (r.draw_at_half && 2 * s == r.total_seeds && 2 * n == r.total_seeds)
      return end(EndReason::Threshold, Remaining::None, {});
  }
  // row_empty = "immediate": Kalah ends as soon as either row is empty (docs/games/kalah.md).
  if (r.row_empty == RowEmptyCheck::Immediate) {
    bool south_empty, north_empty;
#if defined(__SSE2__)
    if (r.vector_play) {
      const std::uint32_t filled = filled_holes();  // one comparison for both rows
      south_empty = !(filled & r.row_bits[0]);
      north_empty = !(filled & r.row_bits[1]);
    } else
#endif
    {
      south_empty = row_empty(Player::South);
      north_empty = row_empty(Player::North);
    }
    if (!south_empty && !north_empty) return;
    // Bantumi (docs/games/bantumi.md): both rows empty at once: the mover's row emptied
    // first, while he sowed.
    const Player emptied =
        south_empty && north_empty ? moved : (south_empty ? Player::South : Player::North);
    return end(EndReason::RowEmpty, r.remaining, emptied);
  }
  // row_empty = "at_turn" (Oware): at the start of the mover's turn, can he move at all?
  const int first = r.first_pit(mover_);
  bool has_pit = false;
  if (r.min_seeds == 1) {
    has_pit = !row_empty(mover_);
  } else {
    for (int i = 0; i < r.pits && !has_pit; ++i) has_pit = board_[first + i] >= r.min_seeds;
  }
  if (!has_pit) return end(EndReason::NoMove, r.remaining, mover_);
  if ((r.must_feed && row_empty(opponent(mover_))) || r.grand_slam == GrandSlam::Forbidden)
    check_turn_start();
}

#if defined(__SSE2__)
// A whole move on the vector board: the captures are computed without branches on the seeds
// (a random playout mispredicts every one of those), and the board is written once.
[[gnu::always_inline]] inline void State::play_vector(Move move) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const int origin = r.first_pit(mover_) + move;
  Cells16 c = cells();
  const int last = sow_cells(c, origin, board_[origin]);
  const int store = r.store(mover_);
  if (r.capture == CaptureKind::Opposite) capture_opposite_cells(c, last);
  if (!capture_counts_cells(c, last)) [[unlikely]] {
    if (is_over()) return;
    return after_move(r.extra_turn && last == store);
  }
  set_cells(c);
  if (r.row_empty == RowEmptyCheck::Immediate && !r.threshold) {
    // Kalah's end check on the board in hand: both rows hold seeds, the game goes on.
    const auto empty = static_cast<std::uint32_t>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(reinterpret_cast<__m128i>(c), _mm_setzero_si128())));
    if ((~empty & r.row_bits[0]) && (~empty & r.row_bits[1])) {
      mover_ = static_cast<Player>(p ^ static_cast<int>(!(r.extra_turn && last == store)));
      return;
    }
  }
  after_move(r.extra_turn && last == store);
}
#endif

[[gnu::always_inline]] inline void State::play(Move move) {
  const Rules& r = *rules_;
  if (r.general) return play_general(move);
#if defined(__SSE2__)
  if (r.vector_play) return play_vector(move);
#endif
  const int last = sow(r.first_pit(mover_) + move);
  if (r.tuz != TuzKind::None) {
    // Toguz's tuz (docs/games/toguz.md) is always empty before a sowing: what fell into it
    // goes to its owner's store.
    for (int p = 0; p < 2; ++p)
      if (tuz_[p] >= 0) {
        board_[r.store(Player(p))] += board_[tuz_[p]];
        board_[tuz_[p]] = 0;
      }
  }
  capture(last);
  if (is_over()) return;
  after_move(r.extra_turn && last == r.store(mover_));
}

}  // namespace naqala::sowing
