// Moves, turns and the end of the game: the general path's legal moves and play of a sowing,
// feeding, forbidden grand slams, passing, and how a game ends and its seeds are counted.
// The inline fast path of the same rules is in turn.h.
#include <algorithm>

#include "games/sowing/state.h"

namespace naqala::sowing {

// ---- [feeding] must_feed, cannot_feed; [capture] grand_slam = "forbidden" (scalar) ----
// Oware (docs/games/oware.md): a move must leave seeds in a starving opponent's row; when none
// can, cannot_feed says who takes the rest. A forbidden grand slam may not be played; when
// every move is one, the mover takes every seed left (S4c:333).

bool State::feeds(Move move) const {
  State copy = *this;
  copy.sow(rules_->first_pit(mover_) + move);
  return copy.row_seeds(opponent(mover_)) > 0;
}

bool State::is_grand_slam(Move move) const {
  State copy = *this;
  const int last = copy.sow(rules_->first_pit(mover_) + move);
  const int take = copy.grand_slam_take(last);
  return take > 0 && take == copy.row_seeds(opponent(mover_));
}

void State::check_turn_start() {
  const Rules& r = *rules_;
  const bool starving = r.must_feed && row_seeds(opponent(mover_)) == 0;
  if (!starving && r.grand_slam != GrandSlam::Forbidden) return;
  MoveList moves;
  legal_moves(moves);
  if (!moves.empty()) return;
  if (starving) {
    if (r.cannot_feed == CannotFeed::MoverTakes)
      return end(EndReason::CannotFeed, Remaining::Emptied, mover_);
    return end(EndReason::CannotFeed, Remaining::Owner, {});
  }
  end(EndReason::GrandSlam, Remaining::Emptied, mover_);
}

// ---- the end of the game: [end] remaining, tie (scalar and vector) ----
// remaining: the seeds left in the pits go to their owner (Kalah), to the player whose row
// emptied (Bantumi's Nokia counting), or to nobody. tie = "first_empty": equal stores, the
// player who ran out first wins (docs/games/bantumi.md).
void State::end(EndReason reason, Remaining remaining, std::optional<Player> emptied) {
  const Rules& r = *rules_;
  reason_ = reason;
  bool swept = remaining == Remaining::None;
#if defined(__SSE2__)
  if (r.vector_play && !swept) {
    // Vector: each row's seeds at once (every playout ends here; the loop below mispredicts).
    Cells16 c = cells();
    const int south = cell_sum(c & r.row_cells[0]), north = cell_sum(c & r.row_cells[1]);
    c &= ~(r.row_cells[0] | r.row_cells[1]);
    set_cells(c);
    if (remaining == Remaining::Owner) {
      board_[r.store(Player::South)] += south;
      board_[r.store(Player::North)] += north;
    } else {
      board_[r.store(*emptied)] += south + north;
    }
    swept = true;
  }
#endif
  for (int h = 0; !swept && h < r.pit_count(); ++h) {  // scalar
    if (board_[h] == 0) continue;
    const Player taker = remaining == Remaining::Owner ? r.owner(h) : *emptied;
    board_[r.store(taker)] += board_[h];
    board_[h] = 0;
  }
  if (r.tie == TieBreak::FirstEmpty && reason == EndReason::RowEmpty && emptied &&
      store(Player::South) == store(Player::North))
    result_ = *emptied == Player::South ? Result::SouthWins : Result::NorthWins;
}

// General (pits change owners in Nam-Nam's rounds).
void State::end_general(EndReason reason, Remaining remaining, std::optional<Player> emptied) {
  const Rules& r = *rules_;
  reason_ = reason;
  for (int h = 0; h < r.pit_count(); ++h) {
    if (remaining == Remaining::None || board_[h] == 0) continue;
    take(h, remaining == Remaining::Owner ? owner_of(h) : *emptied);
  }
  if (r.tie == TieBreak::FirstEmpty && reason == EndReason::RowEmpty && emptied &&
      store(Player::South) == store(Player::North))
    result_ = *emptied == Player::South ? Result::SouthWins : Result::NorthWins;
}

// ---- the general path's moves ----

int State::owned_seeds(Player p) const {
  int sum = 0;
  for (int h = 0; h < rules_->pit_count(); ++h)
    if (owner_of(h) == p) sum += board_[h];
  return sum;
}

void State::legal_general(MoveList& moves) const {
  legal_for(mover_, moves);
}

// The pits `p` may sow from if they hold seeds: his own, not burnt, not a tuz.
std::uint32_t State::sowable(Player p) const {
  std::uint32_t mask = p == Player::North ? owners_ : ~owners_;
  mask &= ~burnt_;
  for (int t : tuz_)
    if (t >= 0) mask &= ~(1u << t);
  return mask;
}

// The moves `me` would have if it were his turn (the pass rules ask about the opponent too).
void State::legal_for(Player me, MoveList& moves) const {
  const Rules& r = *rules_;
  moves.clear();
  const int p = index(me);
  switch (phase_) {
    case Phase::Setup:
    case Phase::Pie:
    case Phase::Claim:
      return legal_setup(me, moves);  // rounds.cpp
    case Phase::Joint:
      return legal_joint(moves);  // lockstep.cpp
    case Phase::JointTurn:        // one player's extra sowing: his pits, as in play
    case Phase::Play:
      break;
  }
  const Player you = opponent(me);
  const bool starving = r.must_feed && owned_seeds(you) == 0;
  // [feeding] style = "gift": Awale's one-seed gift (docs/games/awale.md).
  if (starving && r.feeding == Feeding::Gift) {
    for (int k = 0; k < r.pits; ++k)
      if (board_[r.label_hole[p][k]] > 0 && owner_of(r.label_hole[p][k]) == me)
        moves.push_back(static_cast<Move>(k | kGift));
    return;
  }
  // Branch-free, as on the fast path: which pits hold seeds is unpredictable.
  const std::uint32_t playable = sowable(me);
  const auto& holes = r.label_hole[p];
  Move* out = moves.data();
  std::size_t n = 0;
  bool any_multi = false;
  for (int k = 0; k < r.labels; ++k) {
    const int h = holes[k];
    const bool ok = ((playable >> h) & 1) & (board_[h] >= r.min_seeds);
    out[n] = static_cast<Move>(k);
    n += ok;
    any_multi |= ok & (board_[h] > 1);
  }
  moves.set_size(n);
  // [turn] pit_choice = "rightmost": madjnuni and el-ghasheem sow the head
  // (docs/games/madjnuni.md).
  if (r.pit_choice == PitChoice::Rightmost && !moves.empty()) {
    // The head (rightmost pit of his row), or the nearest pit left of it that holds seeds.
    Move best = moves[0];
    for (Move m : moves)
      if (m < r.pits && (best >= r.pits || m > best)) best = m;
    moves.clear();
    if (best < r.pits) moves.push_back(best);
  }
  // [sowing] singletons = "last_resort": Kenyan Bao with laps (docs/games/kenyan-bao-laps.md).
  if (r.singletons == Singletons::LastResort && any_multi) {
    std::size_t kept = 0;
    for (Move m : moves)
      if (board_[r.label_hole[p][m]] > 1) moves[kept++] = m;
    moves.set_size(kept);
  }
  // Each move probed by sowing it on a copy: [feeding] must_feed (Ayoayo, el-akil,
  // el-ghasheem), [tuz] kind = "choice" (docs/games/toguz.md), and endless sowings (R13).
  const bool probe_endless = r.laps != Laps::Single && moves.size() > 1;
  if (starving || r.tuz == TuzKind::Choice || probe_endless) {
    const MoveList all = moves;
    MoveList endless;
    moves.clear();
    for (Move m : all) {
      const int h = r.label_hole[p][m];
      const SowTraceScope quiet(nullptr);  // probes are not the move being played
      if (phase_ == Phase::JointTurn) {
        if (probe_endless && endless_joint(m)) {
          endless.push_back(m);
          continue;
        }
      } else if (starving || probe_endless) {
        State after = *this;
        after.mover_ = me;
        const SowResult res = r.fed_by_sowing ? after.sow_watched(h) : after.sow_general(h, false);
        // ---- R13, every sowing game (docs/games/README.md): a move whose sowing never ends
        // may not be chosen while another move exists; only when every move is endless is one
        // played, and it annuls the game.
        if (res.infinite && probe_endless) {
          endless.push_back(m);
          continue;
        }
        // ---- [feeding] fed_by: "left", the opponent has seeds when the move ends (Ayoayo);
        // "sown", the move throws at least one seed onto his side, even if it captures it
        // back (el-akil, el-ghasheem: S4:65, ruling R3, docs/games/el-akil.md).
        const bool fed = r.fed_by_sowing ? res.reached : after.owned_seeds(you) > 0;
        if (starving && !res.infinite && !fed) continue;
      }
      moves.push_back(m);
      if (r.tuz == TuzKind::Choice && tuz_[p] == -1) {
        // `7t` beside `7` only where the last seed would make an eligible tuz.
        State probe = *this;
        probe.mover_ = me;
        const SowResult res = probe.sow_general(h, true);
        if (!res.infinite && probe.tuz_[p] != -1) moves.push_back(static_cast<Move>(m | kTuz));
      }
    }
    if (moves.empty())
      for (Move m : endless) moves.push_back(m);
  }
}

void State::play_general(Move move) {
  switch (move & kKind) {
    case kSetup:
      return play_setup(move);  // rounds.cpp
    case kPie:
      return play_pie(move);
    case kClaim:
      return play_claim(move);
    default:
      break;
  }
  if (phase_ == Phase::Joint || phase_ == Phase::JointTurn) return play_lockstep(move);
  play_sowing(move);
}

void State::play_sowing(Move move) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const int hole = r.label_hole[p][move & 0x3f];
  if (passed_ == p) passed_ = -1;
  if (move & kGift) {
    // Awale (S2 rule 10, docs/games/awale.md): one seed from this pit to the pit opposite it
    // (Lane's el-akil: to the opponent's pit 1); that is the turn.
    --board_[hole];
    ++board_[r.gift_to_first ? r.label_hole[index(opponent(mover_))][0] : r.opposite(hole)];
    mover_ = opponent(mover_);
    return check_general();
  }
  std::array<std::uint8_t, kMaxHoles> before;
  if (r.laps != Laps::Single) before = board_;
  const SowResult res = sow_general(hole, move & kTuz);
  if (res.infinite) {
    // A sowing that never ends annuls the game (docs/games/README.md, S4:253-255).
    board_ = before;
    reason_ = EndReason::InfiniteSowing;
    result_ = Result::Draw;
    return;
  }
  after_general(res, r.extra_turn && res.last == r.store(mover_));
}

void State::after_general(const SowResult& res, bool extra_turn) {
  const Rules& r = *rules_;
  // [capture] sweep: Nam-Nam (S4:379, docs/games/namnam.md): whoever takes the next four
  // also takes the last ones. Taken at the capture itself (capture.h, ruling R4) when it was
  // made during the sowing; here for the other captures, at the end of the move.
  if (res.swept) return end_round(EndReason::AllCaptured, Remaining::None, {});
  if (r.sweep && res.captured && last_taker_ >= 0) {
    const int left = seeds_in_play();
    if (left > 0 && left <= r.sweep) {
      for (int h = 0; h < r.pit_count(); ++h) take(h, Player(last_taker_));
      return end_round(EndReason::AllCaptured, Remaining::None, {});
    }
  }
  if (threshold_ends()) return;
  if (!extra_turn) mover_ = opponent(mover_);
  check_general();
}

// [end] threshold: ends the game, or the round of a set (madjnuni's return game).
bool State::threshold_ends() {
  const Rules& r = *rules_;
  if (!r.threshold) return false;
  const int s = store(Player::South), n = store(Player::North);
  if (s >= r.threshold || n >= r.threshold ||
      (r.draw_at_half && 2 * s == r.total_seeds && 2 * n == r.total_seeds)) {
    end_round(EndReason::Threshold, Remaining::None, {});
    return true;
  }
  return false;
}

bool State::can_move(Player p) const {
  const Rules& r = *rules_;
  // Only feeding can take every move away: otherwise a pit he may sow is enough.
  if (phase_ == Phase::Play && !(r.must_feed && owned_seeds(opponent(p)) == 0)) {
    const std::uint32_t playable = sowable(p);
    for (int k = 0; k < r.labels; ++k) {
      const int h = r.label_hole[index(p)][k];
      if (((playable >> h) & 1) && board_[h] >= r.min_seeds) return true;
    }
    return false;
  }
  MoveList moves;
  legal_for(p, moves);
  return !moves.empty();
}

// ---- the general end checks: [end] one_each, row_empty, no_move; [feeding] cannot_feed ----
void State::check_general() {
  const Rules& r = *rules_;
  if (phase_ != Phase::Play || is_over()) return;
  const Player me = mover_, you = opponent(me);
  // one_each: el-akil (S4:70, docs/games/el-akil.md): each side holding one seed, each takes his.
  if (r.one_each_ends && owned_seeds(Player::South) == 1 && owned_seeds(Player::North) == 1)
    return end_round(EndReason::RowEmpty, Remaining::Owner, {});
  if (r.row_empty == RowEmptyCheck::Immediate) {
    if (seeds_in_play() == 0) return end_round(EndReason::AllCaptured, Remaining::None, {});
    const bool south_empty = owned_seeds(Player::South) == 0,
               north_empty = owned_seeds(Player::North) == 0;
    if (south_empty || north_empty)
      return end_round(EndReason::RowEmpty, r.remaining,
                       south_empty ? Player::South : Player::North);
  }
  if (can_move(me)) return;
  if (seeds_in_play() == 0) return end_round(EndReason::AllCaptured, Remaining::None, {});
  if (r.must_feed && owned_seeds(you) == 0 && owned_seeds(me) > 0) {
    if (r.cannot_feed == CannotFeed::MoverTakes)
      return end_round(EndReason::CannotFeed, Remaining::Emptied, me);
    return end_round(EndReason::CannotFeed, Remaining::Owner, {});
  }
  switch (r.no_move) {
    case NoMove::End:
      return end_round(EndReason::NoMove, r.remaining, me);
    case NoMove::Loses:  // Ayo-ayo's children's game (docs/games/ayoayo-fours.md)
      end_general(EndReason::NoMove, Remaining::None, {});
      result_ = you == Player::South ? Result::SouthWins : Result::NorthWins;
      return;
    case NoMove::Pass:  // Nam-Nam (docs/games/namnam.md)
      if (!can_move(you)) return end_round(EndReason::NoMove, r.remaining, me);
      mover_ = you;
      return;
    case NoMove::PassOnce:
      // madjnuni (S4:49, docs/games/madjnuni.md): he passes; if the reply still leaves him
      // nothing, the game ends.
      if (passed_ == index(me) || !can_move(you))
        return end_round(EndReason::NoMove, r.remaining, me);
      passed_ = static_cast<std::int8_t>(index(me));
      mover_ = you;
      return;
  }
}

}  // namespace naqala::sowing
