// Setup, the pie rule and rounds: the player-made layouts of madjnuni, el-akil and el-ghasheem
// ([setup]), turning the board round ([setup] pie), and the games made of rounds ([rounds]:
// Nam-Nam's claimed pits, Pallanguzhi's refill and burnt pits, Gabata's redistribution, the
// sets of el-akil and madjnuni's return game). General path only.
#include <algorithm>
#include <bit>
#include <cstdlib>

#include "games/sowing/state.h"

namespace naqala::sowing {

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
    phase_ = Phase::Joint;  // lockstep.cpp
    mover_ = Player::South;
  }
}

// The moves of the setup, pie and claim phases.
void State::legal_setup(Player me, MoveList& moves) const {
  const Rules& r = *rules_;
  switch (phase_) {
    // ---- [setup] kind = "free" | "mirror", min ----
    // madjnuni (docs/games/madjnuni.md): all 98 seeds, at least two a pit; el-akil
    // (docs/games/el-akil.md): the same counts in both rows; el-ghasheem: at least four a pit.
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
    // ---- [setup] pie: the other player may turn the board round (S4:53, S4:61) ----
    case Phase::Pie:
      moves.push_back(kPie | 0);
      moves.push_back(kPie | 1);
      return;
    // ---- [rounds] kind = "namnam": the round's winner claims pits (docs/games/namnam.md) ----
    case Phase::Claim: {
      const int k = (store(me) - r.pits * r.initial_seeds) / r.initial_seeds;
      for (unsigned mask = 1; mask < (1u << r.pits); ++mask)
        if (std::popcount(mask) == k) moves.push_back(static_cast<Move>(kClaim | mask));
      return;
    }
    default:
      return;
  }
}

void State::play_setup(Move move) {
  const Rules& r = *rules_;
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
  mover_ =
      r.setup_first == FirstAfterSetup::Arranger ? Player(arranger_) : opponent(Player(arranger_));
  check_general();
}

void State::play_pie(Move move) {
  const Rules& r = *rules_;
  if (move & 1) {
    // Turning the board round: each player takes over the other's row; the arranger
    // then moves first (S4:53, S4:61).
    for (int i = 0; i < r.pits; ++i) std::swap(board_[i], board_[r.first_pit(Player::North) + i]);
    mover_ = Player(arranger_);
  } else {
    mover_ = r.setup_first == FirstAfterSetup::Arranger ? Player(arranger_)
                                                        : opponent(Player(arranger_));
  }
  phase_ = Phase::Play;
  check_general();
}

// Nam-Nam (S4:381-382, docs/games/namnam.md): the winner fills his row with four each and the
// claimed pits of the loser's row; the loser fills the rest.
void State::play_claim(Move move) {
  const Rules& r = *rules_;
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
  check_general();
}

// The end of a round: its result is kept, and the next round is laid out, or the game ends.
void State::end_round(EndReason reason, Remaining remaining, std::optional<Player> emptied) {
  const Rules& r = *rules_;
  if (r.rounds == RoundKind::None) return end_general(reason, remaining, emptied);
  for (int h = 0; h < r.pit_count(); ++h)
    if (remaining != Remaining::None && board_[h] > 0)
      take(h, remaining == Remaining::Owner ? owner_of(h) : *emptied);
  const int s = store(Player::South), n = store(Player::North);
  last_round_ = {static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(n)};
  // Counted up to 255 (the position text's limit), never wrapped: a game may last that long.
  if (s != n && rounds_won_[s > n ? 0 : 1] < 255) ++rounds_won_[s > n ? 0 : 1];
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
    // ---- [rounds] kind = "namnam" (docs/games/namnam.md) ----
    case RoundKind::NamNam: {
      // S4:381-384: the round's winner claims pits; the game ends when one has every seed.
      if (s == r.total_seeds || n == r.total_seeds) return finish(s > n ? south : north);
      const int row = r.pits * r.initial_seeds;
      const Player w = s > n ? south : north;
      if (s == n || (store(w) - row) / r.initial_seeds == 0) {
        mover_ = w;
        return play_claim(kClaim);  // nothing to choose: the rows go back to their owners
      }
      phase_ = Phase::Claim;
      mover_ = w;
      return;
    }
    // ---- [rounds] kind = "refill", refill (docs/games/pallanguzhi.md) ----
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
    // ---- [rounds] kind = "gabata" (docs/games/gabata.md) ----
    case RoundKind::Gabata: {
      // S4:342: the weaker lays out his seeds 3 per pit from his left (the stronger tops up
      // the last pit); the stronger fills the same pits of his side (a 180-degree turn of the
      // weaker's layout) and keeps the rest in his store.
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
    // ---- [rounds] kind = "points", target, count, score (docs/games/el-akil.md) ----
    case RoundKind::Points: {
      // S4:59, 71: captures add up over the rounds; the first to `target` wins the set. Lane
      // (score = "difference"): the round's winner scores the difference. A set of `count`
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

}  // namespace naqala::sowing
