// The simultaneous start ([turn] start = "simultaneous"): Congklak's first move, Gabata's race
// opening (docs/games/congklak.md, docs/games/gabata.md). Both players choose a pit at once
// (a joint move `3+5`); both relay sowings then run in lock-step, one seed per tick, South's
// drop before North's within a tick; a sowing ending in the own store earns another sowing,
// which pauses the lock-step for that player's choice; a sowing ending in an empty pit (with
// its capture) stops. Turns then alternate from the player whose sowing ended first (South on
// a tie). General path only.
#include "games/sowing/state.h"

namespace naqala::sowing {

void State::legal_joint(MoveList& moves) const {
  const Rules& r = *rules_;
  for (int s = 0; s < r.labels; ++s) {
    if (board_[r.label_hole[0][s]] == 0) continue;
    for (int n = 0; n < r.labels; ++n)
      if (board_[r.label_hole[1][n]] != 0) moves.push_back(static_cast<Move>(kJoint | s | n << 6));
  }
  // R13 (docs/games/README.md): a choice whose lock-step never ends may not be made while
  // another exists; only when every one is endless is one played, and it annuls the game.
  if (moves.size() < 2) return;
  std::size_t kept = 0;
  for (Move m : moves)
    if (!endless_joint(m)) moves[kept++] = m;
  if (kept) moves.set_size(kept);
}

// Plays the choice on a copy: does the lock-step then never end?
bool State::endless_joint(Move move) const {
  const SowTraceScope quiet(nullptr);  // probes are not the move being played
  State probe = *this;
  probe.play_lockstep(move);
  return probe.reason_ == EndReason::InfiniteSowing;
}

void State::play_lockstep(Move move) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const auto board = board_;
  const auto hands = hands_;
  if ((move & kKind) == kJoint)
    play_joint(r.label_hole[0][move & 0x3f], r.label_hole[1][(move >> 6) & 0x3f]);
  else
    take_up(mover_, r.label_hole[p][move & 0x3f]);  // his extra sowing within the lock-step
  if (run_lockstep()) return;
  // A lock-step that never ends annuls the game (docs/games/congklak.md): the board as it was
  // at the last choice, the seeds then in hand put down where the hand was.
  board_ = board;
  hands_ = hands;
  for (auto& h : hands_) board_[h.hole] += h.left, h.left = 0;
  reason_ = EndReason::InfiniteSowing;
  result_ = Result::Draw;
}

void State::take_up(Player p, int hole) {
  hands_[index(p)].hole = static_cast<std::uint8_t>(hole);
  hands_[index(p)].left = board_[hole];
  board_[hole] = 0;
}

void State::play_joint(int south_hole, int north_hole) {
  take_up(Player::South, south_hole);
  take_up(Player::North, north_hole);
}

bool State::run_lockstep() {
  const Rules& r = *rules_;
  struct Snapshot {
    std::array<std::uint8_t, kMaxHoles> board;
    std::array<JointHand, 2> hands;
    bool operator==(const Snapshot&) const = default;
  };
  auto has_pit = [&](int p) {
    for (int k = 0; k < r.labels; ++k)
      if (board_[r.label_hole[p][k]] >= r.min_seeds) return true;
    return false;
  };
  LoopDetector<Snapshot> loop({board_, hands_});
  int laps = 0;  // both hands' (Rules::max_laps each)
  // The browser's trace: both hands' seeds in the order they fall; a new lap (a new board)
  // wherever seeds are lifted or captured.
  if (sow_trace) [[unlikely]]
    trace_lap(*this);
  while (hands_[0].finished == 0 || hands_[1].finished == 0) {
    ++tick_;
    for (int p = 0; p < 2; ++p) {
      JointHand& h = hands_[p];
      if (h.finished || h.left == 0) continue;
      h.hole = r.next[p][h.hole];
      ++board_[h.hole];
      if (sow_trace) [[unlikely]]
        trace_hole(r, h.hole, tuz_);
      if (--h.left > 0) continue;
      const Player me = Player(p);
      if (!r.is_pit(h.hole)) {
        if (!(r.extra_turn && h.hole == r.store(me) && has_pit(p))) h.finished = tick_;
        continue;  // else his hand is empty: he chooses his next pit
      }
      if (board_[h.hole] > 1) {
        if (++laps > 2 * r.max_laps) return false;  // endless
        h.left = board_[h.hole];
        board_[h.hole] = 0;
        if (sow_trace) [[unlikely]]
          trace_lap(*this);
        continue;
      }
      mover_ = me;  // the capture of a last seed in an empty pit, as in play
      capture_general(h.hole, false);
      h.finished = tick_;
      if (sow_trace) [[unlikely]]
        trace_lap(*this);
    }
    const bool south = choosing(Player::South), north = choosing(Player::North);
    if (south || north) {
      phase_ = south && north ? Phase::Joint : Phase::JointTurn;
      mover_ = south ? Player::South : Player::North;
      return true;
    }
    if (loop.repeats({board_, hands_})) return false;
  }
  phase_ = Phase::Play;
  mover_ = hands_[1].finished < hands_[0].finished ? Player::North : Player::South;
  hands_ = {};
  tick_ = 0;
  check_general();
  return true;
}

}  // namespace naqala::sowing
