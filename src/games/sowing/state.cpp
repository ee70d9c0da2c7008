// The State's life: the start position, the result, the hash, and the end by repetition.
// The rules themselves are in sowing.h, capture.h, turn.h/.cpp, rounds.cpp and lockstep.cpp.
#include "games/sowing/state.h"

namespace naqala::sowing {

namespace {
std::uint64_t general_key(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

State State::initial(const Rules& rules) {
  State s;
  s.rules_ = &rules;
  for (int h = 0; h < rules.pit_count(); ++h)
    s.board_[h] = static_cast<std::uint8_t>(rules.initial_seeds);
  s.mover_ = rules.first;
  s.owners_ = rules.north_owned;
  if (rules.general) {
    s.init_general();
    s.check_general();
    return s;
  }
  s.check_end(opponent(s.mover_));
  return s;
}

State State::from_pits(const Rules& rules, const std::uint8_t* pits, Player mover) {
  State s;
  s.rules_ = &rules;
  std::memcpy(s.board_.data(), pits, static_cast<std::size_t>(rules.pit_count()));
  s.mover_ = mover;
  s.owners_ = rules.north_owned;
  s.check_end(opponent(mover));
  return s;
}

void State::end_by_cycle() {
  if (rules_->general) {
    // A cycle inside a round ends that round (the seeds go to the pits' owners).
    if (rules_->rounds != RoundKind::None) return end_round(EndReason::Cycle, Remaining::Owner, {});
    if (rules_->cycle == CycleRule::Owner)
      return end_general(EndReason::Cycle, Remaining::Owner, {});
    end_general(EndReason::Cycle, Remaining::None, {});
    result_ = Result::Draw;
    return;
  }
  if (rules_->cycle == CycleRule::Owner) return end(EndReason::Cycle, Remaining::Owner, {});
  end(EndReason::Cycle, Remaining::None, {});
  result_ = Result::Draw;
}

Outcome State::outcome() const {
  Outcome o;
  o.scores = {store(Player::South), store(Player::North)};
  if (rules_->rounds == RoundKind::Points) o.scores = {match_[0], match_[1]};
  o.reason = reason_;
  if (!is_over()) return o;
  switch (result_) {
    case Result::Draw:
      break;
    case Result::SouthWins:
      o.winner = Player::South;
      break;
    case Result::NorthWins:
      o.winner = Player::North;
      break;
    case Result::ByStores:
      if (o.scores[0] != o.scores[1])
        o.winner = o.scores[0] > o.scores[1] ? Player::South : Player::North;
      break;
  }
  return o;
}

std::uint64_t State::hash() const {
  const Rules& r = *rules_;
  if (r.vector_sow && !r.extras) {
    // A board of up to 16 holes is two words: two 64x64->128 multiplies mix them (the search
    // hashes every node; this is several times cheaper than a table lookup per hole).
    auto mix = [](std::uint64_t a, std::uint64_t b) {
      const unsigned __int128 m = static_cast<unsigned __int128>(a) * b;
      return static_cast<std::uint64_t>(m >> 64) ^ static_cast<std::uint64_t>(m);
    };
    std::uint64_t low, high;
    std::memcpy(&low, board_.data(), sizeof low);
    std::memcpy(&high, board_.data() + sizeof low, sizeof high);
    const std::uint64_t side = mover_ == Player::North ? 0x2d358dccaa6c78a5ULL : 0;
    return mix(mix(low ^ 0xa0761d6478bd642fULL, high ^ side ^ 0xe7037ed1a0b428dbULL) ^
                   0x8ebc6af09c88c6e3ULL,
               0x589965cc75374cc3ULL);
  }
  std::uint64_t h = mover_ == Player::North ? r.zobrist.side() : 0;
  for (int i = 0; i < r.holes; ++i) h ^= r.zobrist.key(i, board_[i]);
  if (r.extras) {
    // Everything else that makes a position: owners, burnt pits, tuz, phase, round, match.
    std::uint64_t extra = owners_ ^ (std::uint64_t{burnt_} << 24);
    extra = extra * 31 + static_cast<std::uint64_t>(tuz_[0] + 1) * 64 +
            static_cast<std::uint64_t>(tuz_[1] + 1);
    extra = extra * 31 + static_cast<std::uint64_t>(phase_) * 256 + setup_done_;
    extra = extra * 31 + round_ * 4 + static_cast<std::uint64_t>(passed_ + 1);
    extra = extra * 65537 + match_[0] * 1024 + match_[1] + arranger_ * 7 + round_starter_ * 3;
    if (phase_ == Phase::Joint || phase_ == Phase::JointTurn)
      for (const JointHand& hand : hands_)
        extra = extra * 1000003 + hand.hole * 65536 + hand.left * 256 + hand.finished;
    h ^= general_key(extra);
  }
  return h;
}

int State::seeds_in_play() const {
  int sum = 0;
  for (int h = 0; h < rules_->pit_count(); ++h) sum += board_[h];
  return sum;
}

}  // namespace naqala::sowing
