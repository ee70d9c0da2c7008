// The general path of the sowing engine: every rule beyond single laps and Kalah/Oware
// captures (relay and pussa-kanawa laps, captures during the sowing, tuz, column captures,
// setup phases and the pie rule, joint first moves, passes, rounds). Rulesets that use none
// of it never come here (Rules::general), so the fast path keeps its speed.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdlib>
#include <optional>

#include "core/error.h"
#include "games/sow_trace.h"
#include "games/sowing/state.h"

namespace naqala::sowing {

namespace {

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

}  // namespace

int State::seeds_in_play() const {
  int sum = 0;
  for (int h = 0; h < rules_->pit_count(); ++h) sum += board_[h];
  return sum;
}

int State::owned_seeds(Player p) const {
  int sum = 0;
  for (int h = 0; h < rules_->pit_count(); ++h)
    if (owner_of(h) == p) sum += board_[h];
  return sum;
}

void State::init_general() {
  const Rules& r = *rules_;
  owners_ = r.north_owned;
  round_starter_ = static_cast<std::uint8_t>(index(r.first));
  if (r.setup != SetupKind::None) {
    for (int h = 0; h < r.pit_count(); ++h) board_[h] = 0;
    phase_ = Phase::Setup;
    mover_ = r.arranger;
    arranger_ = static_cast<std::uint8_t>(index(r.arranger));
  } else if (r.start_rule == Start::Simultaneous) {
    phase_ = Phase::Joint;
    mover_ = Player::South;
  }
}

// ---- moves ----

void State::legal_general(MoveList& moves) const {
  legal_for(mover_, moves);
}

// The moves `me` would have if it were his turn (the pass rules ask about the opponent too).
void State::legal_for(Player me, MoveList& moves) const {
  const Rules& r = *rules_;
  moves.clear();
  const int p = index(me);
  switch (phase_) {
    case Phase::Setup: {
      const bool mirror = r.setup == SetupKind::Mirror;
      const int slots = mirror ? r.pits : r.pit_count();
      const int in_hand =
          mirror ? r.total_seeds / 2 - row_seeds(Player::South) : r.total_seeds - seeds_in_play();
      const int left = slots - setup_done_;  // this pit included
      const int hi = left == 1 ? in_hand : in_hand - r.setup_min * (left - 1);
      const int lo = left == 1 ? in_hand : r.setup_min;
      for (int c = lo; c <= std::min(hi, kMaxSeedsPerHole); ++c)
        moves.push_back(static_cast<Move>(kSetup | c));
      return;
    }
    case Phase::Pie:
      moves.push_back(kPie | 0);
      moves.push_back(kPie | 1);
      return;
    case Phase::Claim: {
      const int k = (store(me) - r.pits * r.initial_seeds) / r.initial_seeds;
      for (unsigned mask = 1; mask < (1u << r.pits); ++mask)
        if (std::popcount(mask) == k) moves.push_back(static_cast<Move>(kClaim | mask));
      return;
    }
    case Phase::Joint:
      for (int s = 0; s < r.labels; ++s) {
        if (board_[r.label_hole[0][s]] == 0) continue;
        for (int n = 0; n < r.labels; ++n)
          if (board_[r.label_hole[1][n]] != 0)
            moves.push_back(static_cast<Move>(kJoint | s | n << 6));
      }
      return;
    case Phase::JointTurn:  // one player's extra sowing: his pits, as in play
    case Phase::Play:
      break;
  }
  const Player you = opponent(me);
  const bool starving = r.must_feed && owned_seeds(you) == 0;
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
  if (r.pit_choice == PitChoice::Rightmost && !moves.empty()) {
    // The head (rightmost pit of his row), or the nearest pit left of it that holds seeds.
    Move best = moves[0];
    for (Move m : moves)
      if (m < r.pits && (best >= r.pits || m > best)) best = m;
    moves.clear();
    if (best < r.pits) moves.push_back(best);
  }
  if (r.singletons == Singletons::LastResort && any_multi) {
    std::size_t kept = 0;
    for (Move m : moves)
      if (board_[r.label_hole[p][m]] > 1) moves[kept++] = m;
    moves.set_size(kept);
  }
  if (starving || r.tuz == TuzKind::Choice) {
    const MoveList all = moves;
    moves.clear();
    for (Move m : all) {
      const int h = r.label_hole[p][m];
      const SowTraceScope quiet(nullptr);  // probes are not the move being played
      if (starving) {
        State after = *this;
        after.mover_ = me;
        const SowResult res = after.sow_general(h, false);
        if (!res.infinite && after.owned_seeds(you) == 0) continue;
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
  }
}

// ---- sowing ----

int State::step(int hole, int origin) const {
  const auto& next = rules_->next[index(mover_)];
  int guard = kMaxHoles;
  do {
    hole = next[hole];
  } while (((rules_->skip_origin && hole == origin) || burnt(hole)) && --guard);
  return hole;
}

void State::take(int hole, Player taker) {
  board_[rules_->store(taker)] += board_[hole];
  board_[hole] = 0;
}

// The sowing trace for the browser's animation, kept out of the sowing loops: a lap's holes
// are walked again (`next` gives each hole after the one before) once it is sown. A seed lands
// in a pit ("S3", "M2") or a store ("store:N"; a tuz sends its seeds to its owner's store).
// One seed into `hole`, as the browser names it (a tuz's seeds go to its owner's store).
[[gnu::noinline, gnu::cold]] static void trace_hole(const Rules& r, int hole,
                                                    const std::array<std::int8_t, 2>& tuz) {
  if (hole == tuz[0] || hole == tuz[1])
    sow_trace->seed(hole == tuz[0] ? "store:S" : "store:N");
  else if (hole >= r.all_pits)
    sow_trace->seed(hole == r.store(Player::South) ? "store:S" : "store:N");
  else
    sow_trace->seed(pit_name(r, hole));
}

template <class Next>
[[gnu::noinline, gnu::cold]] static void trace_seeds(const Rules& r, int hole, int seeds,
                                                     const std::array<std::int8_t, 2>& tuz,
                                                     Next next) {
  for (int k = 0; k < seeds; ++k) trace_hole(r, hole = next(hole), tuz);
}

[[gnu::noinline, gnu::cold]] static void trace_lap(const State& s) {
  sow_trace->lap(s.board_json());
}

inline void State::drop(int hole, bool last, SowResult& res) {
  const Rules& r = *rules_;
  // A seed sown into a tuz goes to the store of the tuz's owner.
  if (hole == tuz_[0] || hole == tuz_[1]) {
    ++board_[r.store(hole == tuz_[0] ? Player::South : Player::North)];
    return;
  }
  ++board_[hole];
  if (r.during == Taker::None || board_[hole] != r.during_count || !r.is_pit(hole)) return;
  Taker who = last && r.during_last != Taker::Continue ? r.during_last : r.during;
  const Player taker = who == Taker::Sower ? mover_ : owner_of(hole);
  take(hole, taker);
  res.captured = true;
  last_taker_ = static_cast<std::int8_t>(index(taker));
  if (last && r.during_last != Taker::Continue) res.ended = true;
}

bool State::tuz_eligible(int hole) const {
  const Rules& r = *rules_;
  const Player me = mover_, you = opponent(me);
  if (r.tuz == TuzKind::None || tuz_[index(me)] != -1 || owner_of(hole) != you) return false;
  const int pos = hole - r.first_pit(you);                          // index in his row
  if (pos < 0 || pos >= r.pits || pos == r.pits - 1) return false;  // never his last pit
  const int theirs = tuz_[index(you)];  // in my row: not the same number
  if (theirs >= 0 && theirs - r.first_pit(me) == pos) return false;
  return true;
}

bool State::capture_general(int last, bool declare_tuz) {
  const Rules& r = *rules_;
  const Player me = mover_;
  if (!r.is_pit(last) || last == tuz_[0] || last == tuz_[1]) return false;
  const int c = board_[last];
  if ((r.capture_set & kCapOpposite) && owner_of(last) == me && c == 1) {
    const int o = r.opposite(last);
    if (board_[o] > 0 || r.empty_capture) {
      take(o, me);
      if (r.with_last_seed) take(last, me);
      last_taker_ = static_cast<std::int8_t>(index(me));
      return true;
    }
  }
  if (r.capture_set & kCapCounts) {
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
      if (h == last || h == tuz_[0] || h == tuz_[1] || !side_ok(h) || !r.capturable[board_[h]])
        break;
    }
    last_taker_ = static_cast<std::int8_t>(index(me));
    return true;
  }
  if ((r.capture_set & kCapColumn) && c == 1) {
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
  return false;
}

State::SowResult State::sow_general(int origin, bool declare_tuz) {
  // The server's moves are traced for the browser's animation; the engines' sowing is the
  // same code without a line of the trace.
  return sow_trace ? sow_laps<true>(origin, declare_tuz) : sow_laps<false>(origin, declare_tuz);
}

template <bool Traced>
State::SowResult State::sow_laps(int origin, bool declare_tuz) {
  const Rules& r = *rules_;
  SowResult res;
  int hand = board_[origin];
  board_[origin] = 0;
  int hole = origin, lap_origin = origin;
  if constexpr (Traced) trace_lap(*this);
  if (r.start == SowStart::Origin && hand > 1) {
    drop(origin, false, res);
    if constexpr (Traced) trace_seeds(r, origin, 1, tuz_, [](int h) { return h; });
    --hand;
  }
  struct Snapshot {
    std::array<std::uint8_t, kMaxHoles> board;
    int hole;
    bool operator==(const Snapshot&) const = default;
  };
  std::optional<LoopDetector<Snapshot>> loop;  // only relays can loop
  const bool simple = !r.skip_origin && burnt_ == 0 && r.during == Taker::None;
  for (;;) {
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
      }
    } else {
      while (hand > 0) {
        hole = step(hole, lap_origin);
        --hand;
        drop(hole, hand == 0, res);
      }
    }
    if constexpr (Traced) {
      trace_seeds(r, lap_start, lap_seeds, tuz_, [&](int h) {
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
          // Pussa-kanawa's end: the hole after the empty one, and the hole opposite it.
          const int f = step(n, -1);
          if (r.is_pit(f) && board_[f] > 0) {
            take(f, mover_);
            const int o = r.opposite(f);
            if (o != n && board_[o] > 0 && !burnt(o)) take(o, mover_);
            res.captured = true;
            last_taker_ = static_cast<std::int8_t>(index(mover_));
          }
          return res;
        }
        hand = board_[n];
        board_[n] = 0;
        hole = lap_origin = n;
        if constexpr (Traced) trace_lap(*this);
        break;
      }
    }
    if (!loop) {
      loop.emplace(Snapshot{board_, hole});
    } else if (loop->repeats({board_, hole})) {
      res.infinite = true;
      return res;
    }
  }
}

// ---- playing ----

void State::play_general(Move move) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  switch (move & kKind) {
    case kSetup: {
      const int c = move & 0x0fff;
      if (r.setup == SetupKind::Mirror) {
        board_[setup_done_] = static_cast<std::uint8_t>(c);
        board_[r.first_pit(Player::North) + setup_done_] = static_cast<std::uint8_t>(c);
        ++setup_done_;
        if (setup_done_ < r.pits) return;
      } else {
        board_[setup_done_] = static_cast<std::uint8_t>(c);
        if (++setup_done_ < r.pit_count()) return;
      }
      setup_done_ = 0;
      if (r.pie) {
        phase_ = Phase::Pie;
        mover_ = opponent(Player(arranger_));
        return;
      }
      phase_ = Phase::Play;
      mover_ = r.setup_first == FirstAfterSetup::Arranger ? Player(arranger_)
                                                          : opponent(Player(arranger_));
      return check_general();
    }
    case kPie: {
      if (move & 1) {
        // Turning the board round: each player takes over the other's row; the arranger
        // then moves first (S4:53, S4:61).
        for (int i = 0; i < r.pits; ++i)
          std::swap(board_[i], board_[r.first_pit(Player::North) + i]);
        mover_ = Player(arranger_);
      } else {
        mover_ = r.setup_first == FirstAfterSetup::Arranger ? Player(arranger_)
                                                            : opponent(Player(arranger_));
      }
      phase_ = Phase::Play;
      return check_general();
    }
    case kClaim: {
      const Player w = mover_, l = opponent(w);
      const unsigned mask = move & 0x0fff;
      int mine = store(w), theirs = store(l);
      board_[r.store(w)] = board_[r.store(l)] = 0;
      owners_ = r.north_owned;
      const int per = r.initial_seeds;
      for (int i = 0; i < r.pits; ++i) {
        board_[r.first_pit(w) + i] = static_cast<std::uint8_t>(per);
        mine -= per;
      }
      for (int i = 0; i < r.pits; ++i) {
        const int h = r.first_pit(l) + i;
        if ((mask >> i) & 1) {
          board_[h] = static_cast<std::uint8_t>(per);
          mine -= per;
          owners_ = w == Player::North ? owners_ | 1u << h : owners_ & ~(1u << h);
        } else {
          const int put = std::min(per, theirs);
          board_[h] = static_cast<std::uint8_t>(put);
          theirs -= put;
        }
      }
      board_[r.first_pit(w)] +=
          static_cast<std::uint8_t>(mine + theirs);  // only after an odd cycle end
      phase_ = Phase::Play;
      mover_ = Player(round_starter_);
      return check_general();
    }
    default:
      break;
  }
  if (phase_ == Phase::Joint || phase_ == Phase::JointTurn) {
    const auto board = board_;
    const auto hands = hands_;
    if ((move & kKind) == kJoint)
      play_joint(r.label_hole[0][move & 0x3f], r.label_hole[1][(move >> 6) & 0x3f]);
    else
      take_up(mover_, r.label_hole[p][move & 0x3f]);  // his extra sowing within the lock-step
    if (run_lockstep()) return;
    // A lock-step that never ends annuls the game (RULES.md preface): the board as it was at
    // the last choice, the seeds then in hand put down where the hand was.
    board_ = board;
    hands_ = hands;
    for (auto& h : hands_) board_[h.hole] += h.left, h.left = 0;
    reason_ = EndReason::InfiniteSowing;
    result_ = Result::Draw;
    return;
  }
  const int hole = r.label_hole[p][move & 0x3f];
  if (passed_ == p) passed_ = -1;
  if (move & kGift) {
    // Awale (S2 rule 10): one seed from this pit to the pit opposite it; that is the turn.
    --board_[hole];
    ++board_[r.gift_to_first ? r.label_hole[index(opponent(mover_))][0] : r.opposite(hole)];
    mover_ = opponent(mover_);
    return check_general();
  }
  std::array<std::uint8_t, kMaxHoles> before;
  if (r.laps != Laps::Single) before = board_;
  const SowResult res = sow_general(hole, move & kTuz);
  if (res.infinite) {
    // A sowing that never ends annuls the game (RULES.md preface, S4:253-255).
    board_ = before;
    reason_ = EndReason::InfiniteSowing;
    result_ = Result::Draw;
    return;
  }
  after_general(res.last, r.extra_turn && res.last == r.store(mover_), res.captured);
}

void State::after_general(int last, bool extra_turn, bool captured) {
  const Rules& r = *rules_;
  (void)last;
  if (r.sweep && captured && last_taker_ >= 0) {
    const int left = seeds_in_play();
    if (left > 0 && left <= r.sweep) {
      // Nam-Nam (S4:379): whoever takes the next four also takes the last ones.
      for (int h = 0; h < r.pit_count(); ++h) take(h, Player(last_taker_));
      return end_round(EndReason::AllCaptured, Remaining::None, {});
    }
  }
  if (r.threshold) {  // ends the game, or the round of a set (madjnuni's return game)
    const int s = store(Player::South), n = store(Player::North);
    if (s >= r.threshold || n >= r.threshold)
      return end_round(EndReason::Threshold, Remaining::None, {});
    if (r.draw_at_half && 2 * s == r.total_seeds && 2 * n == r.total_seeds)
      return end_round(EndReason::Threshold, Remaining::None, {});
  }
  if (!extra_turn) mover_ = opponent(mover_);
  check_general();
}

// The pits `p` may sow from if they hold seeds: his own, not burnt, not a tuz.
std::uint32_t State::sowable(Player p) const {
  std::uint32_t mask = p == Player::North ? owners_ : ~owners_;
  mask &= ~burnt_;
  for (int t : tuz_)
    if (t >= 0) mask &= ~(1u << t);
  return mask;
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

void State::check_general() {
  const Rules& r = *rules_;
  if (phase_ != Phase::Play || is_over()) return;
  const Player me = mover_, you = opponent(me);
  if (r.one_each_ends && owned_seeds(Player::South) == 1 && owned_seeds(Player::North) == 1)
    return end_round(EndReason::RowEmpty, Remaining::Owner, {});  // S4:70: each takes his own
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
    case NoMove::Loses:
      end_general(EndReason::NoMove, Remaining::None, {});
      result_ = you == Player::South ? Result::SouthWins : Result::NorthWins;
      return;
    case NoMove::Pass:
      if (!can_move(you)) return end_round(EndReason::NoMove, r.remaining, me);
      mover_ = you;
      return;
    case NoMove::PassOnce:
      // S4:49: he passes; if the reply still leaves him nothing, the game ends.
      if (passed_ == index(me) || !can_move(you))
        return end_round(EndReason::NoMove, r.remaining, me);
      passed_ = static_cast<std::int8_t>(index(me));
      mover_ = you;
      return;
  }
}

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

void State::end_round(EndReason reason, Remaining remaining, std::optional<Player> emptied) {
  const Rules& r = *rules_;
  if (r.rounds == RoundKind::None) return end_general(reason, remaining, emptied);
  for (int h = 0; h < r.pit_count(); ++h)
    if (remaining != Remaining::None && board_[h] > 0)
      take(h, remaining == Remaining::Owner ? owner_of(h) : *emptied);
  const int s = store(Player::South), n = store(Player::North);
  last_round_ = {static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(n)};
  if (s != n) ++rounds_won_[s > n ? 0 : 1];
  auto finish = [&](std::optional<Player> winner) {
    reason_ = reason;
    result_ = !winner                    ? Result::Draw
              : *winner == Player::South ? Result::SouthWins
                                         : Result::NorthWins;
  };
  round_starter_ ^= 1;
  passed_ = -1;
  ++round_;
  const Player south = Player::South, north = Player::North;
  switch (r.rounds) {
    case RoundKind::None:
      return;
    case RoundKind::NamNam: {
      // S4:381-384: the round's winner claims pits; the game ends when one has every seed.
      if (s == r.total_seeds || n == r.total_seeds) return finish(s > n ? south : north);
      const int row = r.pits * r.initial_seeds;
      const Player w = s > n ? south : north;
      if (s == n || (store(w) - row) / r.initial_seeds == 0) {
        mover_ = w;
        return play_general(kClaim);  // nothing to choose: the rows go back to their owners
      }
      phase_ = Phase::Claim;
      mover_ = w;
      return;
    }
    case RoundKind::Refill: {
      // S0:30-31: refill `refill` per pit from the store, from pit 1; pits left empty burn.
      burnt_ = 0;
      for (Player p : {south, north}) {
        int in_store = store(p);
        for (int i = 0; i < r.pits; ++i) {
          const int h = r.first_pit(p) + i;
          if (in_store >= r.refill) {
            board_[h] = static_cast<std::uint8_t>(r.refill);
            in_store -= r.refill;
          } else {
            burnt_ |= 1u << h;
          }
        }
        board_[r.store(p)] = static_cast<std::uint8_t>(in_store);
      }
      const bool south_out = board_[r.first_pit(south)] == 0,
                 north_out = board_[r.first_pit(north)] == 0;
      if (south_out || north_out) {
        if (south_out && north_out) return finish({});
        return finish(south_out ? north : south);
      }
      mover_ = Player(round_starter_);
      return check_general();
    }
    case RoundKind::Gabata: {
      // S4:342: the weaker lays out his seeds 3 per pit from his left (the stronger tops up
      // the last pit); the stronger mirrors the layout and keeps the rest in his store.
      if (s == r.total_seeds || n == r.total_seeds) return finish(s > n ? south : north);
      if (s == n) return finish({});
      const Player weak = s < n ? south : north, strong = opponent(weak);
      int w = store(weak), st = store(strong);
      const int per = r.initial_seeds;
      int filled = 0;
      while (w > 0 && filled < r.labels) {
        const int put = std::min(per, w);
        w -= put;
        st -= per - put;
        ++filled;
      }
      for (int k = 0; k < r.labels; ++k) {
        board_[r.label_hole[index(weak)][k]] = static_cast<std::uint8_t>(k < filled ? per : 0);
        board_[r.label_hole[index(strong)][k]] = static_cast<std::uint8_t>(k < filled ? per : 0);
      }
      st -= filled * per;
      board_[r.store(weak)] = 0;
      board_[r.store(strong)] = static_cast<std::uint8_t>(st);
      mover_ = Player(round_starter_);
      return check_general();
    }
    case RoundKind::Points: {
      // S4:59, 71: captures add up over the rounds; the first to `target` wins the set. Lane
      // (RULES.md 18): the round's winner scores the difference. A set of `round_count`
      // rounds (madjnuni's return game, S4:54) is won on points.
      if (r.difference)
        match_[s > n ? 0 : 1] = static_cast<std::uint16_t>(match_[s > n ? 0 : 1] + std::abs(s - n));
      else
        match_ = {static_cast<std::uint16_t>(match_[0] + s),
                  static_cast<std::uint16_t>(match_[1] + n)};
      const bool target = r.target && (match_[0] >= r.target || match_[1] >= r.target);
      if (target || (r.round_count && round_ > r.round_count)) {
        if (match_[0] == match_[1]) return finish({});
        return finish(match_[0] > match_[1] ? south : north);
      }
      board_.fill(0);
      arranger_ =
          static_cast<std::uint8_t>(index(opponent(Player(arranger_))));  // the other lays out next
      phase_ = Phase::Setup;
      setup_done_ = 0;
      mover_ = Player(arranger_);
      return;
    }
  }
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

// RULES.md preface (Congklak): both sowings run in lock-step, one seed per tick, South's drop
// first; a relay goes on from an occupied pit; a sowing ending in the own store earns another
// sowing (section 13), which pauses the lock-step for that player's choice; a sowing ending in
// an empty pit (with its capture) stops. Turns then alternate from the player whose sowing
// ended first (South on a tie).
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

// ---- text ----

namespace naqala::sowing {

namespace {

std::optional<int> number(std::string_view t) {
  int v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) return std::nullopt;
  return v;
}

std::vector<std::string_view> split_on(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

}  // namespace

// "S3", "N7" (a pit of a row, from its owner's left) or "M4" (Gabata's middle row, column 4).
std::string pit_name(const Rules& r, int hole) {
  if (r.rows == 3 && hole >= r.pits && hole < 2 * r.pits)
    return std::string(1, 'M').append(std::to_string(hole - r.pits + 1));
  const Player p = hole < r.pits ? Player::South : Player::North;
  return std::string(1, letter(p)) + std::to_string(hole - r.first_pit(p) + 1);
}

std::optional<int> parse_pit_name(const Rules& r, std::string_view t) {
  if (t.size() < 2) return std::nullopt;
  auto k = number(t.substr(1));
  if (!k || *k < 1 || *k > r.pits) return std::nullopt;
  switch (t[0]) {
    case 'S':
      return *k - 1;
    case 'N':
      return r.first_pit(Player::North) + *k - 1;
    case 'M':
      if (r.rows == 3) return r.pits + *k - 1;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::string State::format_general(Move move) const {
  const Rules& r = *rules_;
  switch (move & kKind) {
    case kSetup: {
      const int c = move & 0x0fff;
      if (r.setup == SetupKind::Mirror)
        return std::to_string(setup_done_ + 1) + "=" + std::to_string(c);
      return pit_name(r, setup_done_) + "=" + std::to_string(c);
    }
    case kPie:
      return move & 1 ? "swap" : "keep";
    case kClaim: {
      std::string out = "claim:";
      for (int i = 0; i < r.pits; ++i)
        if ((move >> i) & 1) out.append(out.size() > 6 ? "+" : "").append(std::to_string(i + 1));
      return out;
    }
    case kJoint:
      return std::to_string((move & 0x3f) + 1) + "+" + std::to_string(((move >> 6) & 0x3f) + 1);
    default:
      break;
  }
  std::string out = std::to_string((move & 0x3f) + 1);
  if (move & kGift) out = "g" + out;
  if (move & kTuz) out += "t";
  return out;
}

std::optional<State::Move> State::parse_general(std::string_view t) const {
  const Rules& r = *rules_;
  switch (phase_) {
    case Phase::Setup: {
      // "S3=7" (free layout: the next pit) or "3=7" (mirrored layout: pit 3 of both rows).
      const auto eq = t.find('=');
      if (eq == std::string_view::npos) return std::nullopt;
      auto c = number(t.substr(eq + 1));
      if (!c || *c < 0 || *c > kMaxSeedsPerHole) return std::nullopt;
      const std::string_view pit = t.substr(0, eq);
      const bool ok = r.setup == SetupKind::Mirror ? number(pit) == setup_done_ + 1
                                                   : parse_pit_name(r, pit) == int{setup_done_};
      if (!ok) return std::nullopt;
      return static_cast<Move>(kSetup | *c);
    }
    case Phase::Pie:
      if (t == "keep") return kPie;
      if (t == "swap") return static_cast<Move>(kPie | 1);
      return std::nullopt;
    case Phase::Claim: {
      if (!t.starts_with("claim:")) return std::nullopt;
      unsigned mask = 0;
      for (auto part : split_on(t.substr(6), '+')) {
        auto k = number(part);
        if (!k || *k < 1 || *k > r.pits || ((mask >> (*k - 1)) & 1)) return std::nullopt;
        mask |= 1u << (*k - 1);
      }
      return static_cast<Move>(kClaim | mask);
    }
    case Phase::Joint: {
      const auto plus = t.find('+');
      if (plus == std::string_view::npos) return std::nullopt;
      auto a = number(t.substr(0, plus)), b = number(t.substr(plus + 1));
      if (!a || !b || *a < 1 || *b < 1 || *a > r.labels || *b > r.labels) return std::nullopt;
      return static_cast<Move>(kJoint | (*a - 1) | (*b - 1) << 6);
    }
    case Phase::JointTurn:
    case Phase::Play:
      break;
  }
  Move flags = 0;
  if (t.starts_with("g")) {
    flags |= kGift;
    t.remove_prefix(1);
  }
  if (t.ends_with("t") && r.tuz == TuzKind::Choice) {
    flags |= kTuz;
    t.remove_suffix(1);
  }
  auto k = number(t);
  if (!k || *k < 1 || *k > r.labels) return std::nullopt;
  return static_cast<Move>((*k - 1) | flags);
}

std::string State::position_extras() const {
  const Rules& r = *rules_;
  std::string out;
  if (owners_ != r.north_owned) {
    out += "/owners:";
    for (int h = 0; h < r.pit_count(); ++h) out += letter(owner_of(h));
  }
  auto list = [&](auto has) {
    std::string l;
    for (int h = 0; h < r.pit_count(); ++h)
      if (has(h)) l.append(l.empty() ? "" : ",").append(pit_name(r, h));
    return l;
  };
  if (burnt_) out += "/burnt:" + list([&](int h) { return burnt(h); });
  if (tuz_[0] >= 0 || tuz_[1] >= 0)
    out += "/tuz:" + list([&](int h) { return h == tuz_[0] || h == tuz_[1]; });
  switch (phase_) {
    case Phase::Play:
      break;
    case Phase::Setup:
      out += "/phase:setup/setup:" + std::to_string(setup_done_);
      break;
    case Phase::Pie:
      out += "/phase:pie";
      break;
    case Phase::Joint:
    case Phase::JointTurn:  // told apart by the hands: who has to choose
      out += "/phase:joint";
      if (tick_ > 0) {
        out += "/lockstep:" + std::to_string(tick_);
        for (const JointHand& h : hands_)
          out += "," + std::to_string(h.hole) + "," + std::to_string(h.left) + "," +
                 std::to_string(h.finished);
      }
      break;
    case Phase::Claim:
      out += "/phase:claim";
      break;
  }
  if (r.setup != SetupKind::None && arranger_ != index(r.arranger))
    out += std::string("/arranger:") + letter(Player(arranger_));
  if (passed_ >= 0) out += std::string("/passed:") + letter(Player(passed_));
  if (r.rounds != RoundKind::None) {
    if (round_ > 1) out += "/round:" + std::to_string(round_);
    if (round_starter_ != index(r.first))
      out += std::string("/starter:") + letter(Player(round_starter_));
    if (match_[0] || match_[1])
      out += "/match:" + std::to_string(match_[0]) + "," + std::to_string(match_[1]);
    if (rounds_won_[0] || rounds_won_[1])
      out += "/won:" + std::to_string(rounds_won_[0]) + "," + std::to_string(rounds_won_[1]);
  }
  return out;
}

void State::parse_extras(std::string_view field, std::string_view text) {
  const Rules& r = *rules_;
  auto bad = [&](const std::string& what) -> void {
    throw ParseError(
        "position '" + std::string(text) + "': field '" + std::string(field) + "': " + what +
        " (docs/notation.md lists the fields: owners, burnt, tuz, phase, setup, arranger, "
        "passed, round, starter, match, won, lockstep)");
  };
  const auto colon = field.find(':');
  if (colon == std::string_view::npos) return bad("not of the form name:value");
  const std::string_view key = field.substr(0, colon), value = field.substr(colon + 1);
  static constexpr std::string_view kKeys[] = {"owners",  "burnt",    "tuz",    "phase",
                                               "setup",   "arranger", "passed", "round",
                                               "starter", "match",    "won",    "lockstep"};
  if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys))
    return bad("unknown field");
  if (!r.general && key != "tuz" && key != "burnt" && key != "phase")
    return bad("not a field of " + r.name);
  auto side = [&]() -> Player {
    if (value == "S") return Player::South;
    if (value == "N") return Player::North;
    bad("the value must be S or N");
    return Player::South;
  };
  auto pair = [&]() -> std::array<int, 2> {
    auto parts = split_on(value, ',');
    std::optional<int> a, b;
    if (parts.size() == 2) a = number(parts[0]), b = number(parts[1]);
    if (!a || !b || *a < 0 || *b < 0 || *a > 65535 || *b > 65535)
      bad("needs two counts, e.g. 12,30");
    return {*a, *b};
  };
  auto pits = [&]() {
    std::uint32_t mask = 0;
    for (auto name : split_on(value, ',')) {
      auto h = parse_pit_name(r, name);
      if (!h) bad(std::string(1, '\'').append(name).append("' is not a pit (S1.., N1..)"));
      mask |= 1u << *h;
    }
    return mask;
  };
  if (key == "owners") {
    if (static_cast<int>(value.size()) != r.pit_count()) bad("needs one S or N per pit");
    owners_ = 0;
    for (int h = 0; h < r.pit_count(); ++h) {
      if (value[h] != 'S' && value[h] != 'N') bad("needs one S or N per pit");
      if (value[h] == 'N') owners_ |= 1u << h;
    }
  } else if (key == "burnt") {
    if (r.rounds != RoundKind::Refill) bad(r.name + " has no burnt pits");
    burnt_ = pits();
  } else if (key == "tuz") {
    if (r.tuz == TuzKind::None) bad(r.name + " has no tuz");
    const std::uint32_t mask = pits();
    tuz_ = {-1, -1};
    for (int h = 0; h < r.pit_count(); ++h) {
      if (!((mask >> h) & 1)) continue;
      const int owner = index(opponent(owner_of(h)));  // a tuz belongs to the other row's player
      if (tuz_[owner] != -1) bad("each player has at most one tuz");
      if (h - r.first_pit(owner_of(h)) == r.pits - 1) bad("a last pit can never be a tuz");
      tuz_[owner] = static_cast<std::int8_t>(h);
    }
  } else if (key == "phase") {
    if (value == "setup" && r.setup != SetupKind::None)
      phase_ = Phase::Setup;
    else if (value == "pie" && r.pie)
      phase_ = Phase::Pie;
    else if (value == "joint" && r.start_rule == Start::Simultaneous)
      phase_ = Phase::Joint;
    else if (value == "claim" && r.rounds == RoundKind::NamNam)
      phase_ = Phase::Claim;
    else if (value == "play")
      phase_ = Phase::Play;
    else
      bad("not a phase of " + r.name);
  } else if (key == "lockstep") {
    // tick, then per player (South first): the hole of his last seed, seeds in hand, the
    // tick his sowing ended (0 = going on).
    const auto parts = split_on(value, ',');
    std::array<int, 7> v{};
    bool ok = r.start_rule == Start::Simultaneous && parts.size() == 7;
    for (std::size_t i = 0; ok && i < 7; ++i) {
      const auto k = number(parts[i]);
      ok = k && *k >= 0 && *k <= 65535;
      if (ok) v[i] = *k;
    }
    for (int p = 0; ok && p < 2; ++p) {
      const int hole = v[1 + 3 * p], left = v[2 + 3 * p], finished = v[3 + 3 * p];
      ok = hole < r.holes && r.next[p][hole] != 0xff && left <= kMaxSeedsPerHole &&
           finished <= v[0] && !(finished && left);
    }
    if (!ok)
      bad("needs tick,hole,in hand,ended for South then North, e.g. lockstep:5,3,2,0,15,0,4 "
          "(holes as numbered in docs/notation.md, a sowing that ended holds no seeds)");
    tick_ = static_cast<std::uint16_t>(v[0]);
    for (int p = 0; p < 2; ++p)
      hands_[p] = {static_cast<std::uint8_t>(v[1 + 3 * p]), static_cast<std::uint8_t>(v[2 + 3 * p]),
                   static_cast<std::uint16_t>(v[3 + 3 * p])};
  } else if (key == "setup") {
    auto k = number(value);
    const int slots = r.setup == SetupKind::Mirror ? r.pits : r.pit_count();
    if (!k || *k < 0 || *k >= slots)
      bad("needs the number of pits laid out so far, 0 to " + std::to_string(slots - 1));
    setup_done_ = static_cast<std::uint8_t>(*k);
  } else if (key == "arranger") {
    arranger_ = static_cast<std::uint8_t>(index(side()));
  } else if (key == "passed") {
    passed_ = static_cast<std::int8_t>(index(side()));
  } else if (key == "round") {
    auto k = number(value);
    if (!k || *k < 1 || *k > 65535) bad("needs a round number from 1");
    round_ = static_cast<std::uint16_t>(*k);
  } else if (key == "starter") {
    round_starter_ = static_cast<std::uint8_t>(index(side()));
  } else if (key == "match") {
    auto v = pair();
    match_ = {static_cast<std::uint16_t>(v[0]), static_cast<std::uint16_t>(v[1])};
  } else if (key == "won") {
    auto v = pair();
    rounds_won_ = {static_cast<std::uint8_t>(std::min(v[0], 255)),
                   static_cast<std::uint8_t>(std::min(v[1], 255))};
  } else {
    bad("unknown field");
  }
}

}  // namespace naqala::sowing
