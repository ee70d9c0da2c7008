#include "games/bao/bao.h"

#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/zobrist.h"
#include "games/board4/family_common.h"
#include "games/board4/position_text.h"
#include "games/sow_trace.h"

namespace naqala::bao {

using namespace board4;

namespace {

constexpr int kHouse = front(4);  // e1 / E1: the fourth pit from the owner's right

bool front_row_empty(const std::array<std::uint8_t, kPits>& row) {
  std::uint64_t front;  // pits 8-15, one byte each
  std::memcpy(&front, row.data() + 8, sizeof front);
  return front == 0;
}

constexpr bool is_kimbi(int r) {
  return r == 15 || r == 14 || r == 8 || r == 9;
}
// The kichwa nearest to a kimbi pit, and the direction that sows from it toward the centre.
constexpr int nearest_kichwa(int r) {
  return r >= 12 ? kLeftKichwa : kRightKichwa;
}
constexpr int kichwa_of(int dir) {
  return dir == CW ? kLeftKichwa : kRightKichwa;
}
constexpr int dir_from_kichwa(int k) {
  return k == kLeftKichwa ? CW : CCW;
}

const ZobristTable& zobrist() {
  static const ZobristTable table(34, 64, 20, 0xba0ba0ULL);
  return table;
}

}  // namespace

std::vector<OptionInfo> option_infos(Game game) {
  if (game == Game::Kujifunza) return {};
  return {
      {"house_seeds", "seeds in each nyumba at the start (8 = Malawi)", "enum", "6", {"6", "8"}},
      {"no_capture_from",
       "rule of 16: a move from a pit with this many seeds never captures (S0: 15)",
       "enum",
       "16",
       {"16", "15"}},
      {"house_rules_in_mtaji",
       "keep S4's house rules in the mtaji stage (house tax, forced sowing)",
       "bool",
       "false",
       {"true", "false"}},
      {"house_immune",
       "S4:224: a functional nyumba (6+ seeds) cannot be captured",
       "bool",
       "false",
       {"true", "false"}},
      {"house_stop",
       "a namua capture stopping in the nyumba: the player chooses, or it always stops",
       "enum",
       "choice",
       {"choice", "forced"}},
      {"takasia",
       "the takasia rule of the mtaji stage (S4:244-250)",
       "bool",
       "true",
       {"true", "false"}},
      {"namua_takasa",
       "a namua takasa without a functional nyumba puts the seed into a front pit of 2+ seeds, a "
       "single seed only when there is none (restricted), or into any non-empty front pit (any: "
       "the seeds' literal reading)",
       "enum",
       "restricted",
       {"restricted", "any"}},
  };
}

Rules make_rules(std::string_view preset,
                 const std::vector<std::pair<std::string, std::string>>& options) {
  Rules r;
  r.name = std::string(preset);
  r.game = preset == "bao-kujifunza" ? Game::Kujifunza : Game::Kiswahili;
  const auto infos = option_infos(r.game);
  for (const auto& [key, value] : options) {
    const OptionInfo& info = find_option(infos, r.name, key);
    std::string canonical = value;
    if (info.type == "bool") {
      const bool on = parse_bool(key, value);
      canonical = on ? "true" : "false";
      if (key == "house_rules_in_mtaji") r.house_rules_in_mtaji = on;
      if (key == "house_immune") r.house_immune = on;
      if (key == "takasia") r.takasia = on;
    } else {
      enum_value(info, value);
      if (key == "house_seeds") r.house_seeds = value == "8" ? 8 : 6;
      if (key == "no_capture_from") r.no_capture_from = value == "15" ? 15 : 16;
      if (key == "house_stop") r.house_stop_forced = value == "forced";
      if (key == "namua_takasa") r.namua_single_any = value == "any";
    }
    note_choice(r.chosen, info, canonical);
  }
  return r;
}

State State::initial(const Rules& rules) {
  State s;
  s.rules_ = &rules;
  for (int p = 0; p < 2; ++p) {
    if (rules.has_house()) {
      s.pits_[p][kHouse] = static_cast<std::uint8_t>(rules.house_seeds);
      s.pits_[p][front(5)] = 2;
      s.pits_[p][front(6)] = 2;
      s.hand_[p] = static_cast<std::uint8_t>(rules.hand_seeds());
      s.house_[p] = true;
    } else {
      s.pits_[p].fill(2);
    }
  }
  return s;
}

int State::seeds_on_side(Player p) const {
  int n = hand_[index(p)];
  for (auto c : pits_[index(p)]) n += c;
  return n;
}

bool State::house_active(Player p) const {
  // For the opponent's house (immunity): his own stage decides.
  return rules_->has_house() && house_[index(p)] && pits_[index(p)][kHouse] >= 6 &&
         (hand_[index(p)] > 0 || rules_->house_rules_in_mtaji);
}

// House immunity (docs/games/bao.md, S4:224, option house_immune).
bool State::capturable(Player owner, int r) const {
  const int n = pits_[index(owner)][r];
  if (n == 0) return false;
  return !(r == kHouse && rules_->house_immune && house_active(owner));
}

bool State::captures_at(Player p, int e) const {
  return is_front(e) && pits_[index(p)][e] > 1 && capturable(opponent(p), facing(e));
}

// Mtaji capture (docs/games/bao.md, S4:212): the first sowing must capture; the rule of 16
// (S4:241) forbids it from a pit of no_capture_from seeds.
bool State::is_capture_start(Player p, int r, int dir) const {
  const Row& own = pits_[index(p)];
  const int n = own[r];
  if (n < 2 || n >= rules_->no_capture_from) return false;
  const int e = first_sowing_end(r, n, dir);  // n < 16: no lap, the origin gets nothing
  return is_front(e) && own[e] >= 1 && capturable(opponent(p), facing(e));
}

namespace {

// Bit i of the result: byte i of w (a row's front pits 8..15) is not zero.
std::uint64_t nonzero_bytes(std::uint64_t w) {
  constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  return (((w & kLow7) + kLow7) | w) >> 7 & 0x0101010101010101ULL;  // bit 8i: byte i
}
std::uint64_t front_word(const std::array<std::uint8_t, kPits>& row) {
  std::uint64_t w;
  std::memcpy(&w, row.data() + 8, sizeof w);
  return w;
}

}  // namespace

// The own front pits whose facing pit `p` may capture (capturable(opponent(p), facing(e))), as
// bits 8..15: the opponent's front pit 8 + i faces own pit 15 - i, so the multiplication
// gathers byte i's bit into bit 7 - i of the top byte.
std::uint16_t State::capture_targets(Player p) const {
  const Player o = opponent(p);
  const std::uint64_t gathered =
      nonzero_bytes(front_word(pits_[index(o)])) * 0x8040201008040201ULL >> 56;
  auto mask = static_cast<std::uint16_t>(gathered << 8);
  if (rules_->house_immune && house_active(o))
    mask = static_cast<std::uint16_t>(mask & ~(1u << facing(kHouse)));
  return mask;
}

// The own pits a first sowing must end in to capture (is_capture_start's end test, once per
// pit rather than once per start and direction): front pits holding seeds that face a pit
// the opponent can lose. Byte i's bit gathered into bit i of the top byte: own pit 8 + i.
std::uint16_t State::capture_ends(Player p) const {
  const std::uint64_t own =
      nonzero_bytes(front_word(pits_[index(p)])) * 0x0102040810204080ULL >> 56;
  return static_cast<std::uint16_t>(own << 8) & capture_targets(p);
}

// is_capture_start's test for every pit and direction, the end test read from capture_ends,
// over the pits holding 2 to no_capture_from - 1 seeds only (found a byte at a time: a pit
// holds at most 64 seeds, so n + 128 - limit has its top bit set exactly when n >= limit).
State::CaptureStarts State::capture_starts(Player p) const {
  CaptureStarts s;
  const unsigned ends = capture_ends(p);
  if (!ends) return s;
  const Row& own = pits_[index(p)];
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  const std::uint64_t below = static_cast<std::uint64_t>(128 - rules_->no_capture_from) * kOnes;
  auto movable = [&](std::uint64_t w) {  // bit i: 2 <= byte i < no_capture_from
    const std::uint64_t bytes = nonzero_bytes(w & ~kOnes) & ~((w + below) >> 7);
    return static_cast<unsigned>(bytes * 0x0102040810204080ULL >> 56);
  };
  std::uint64_t w[2];
  std::memcpy(w, own.data(), sizeof w);
  unsigned starts = movable(w[0]) | movable(w[1]) << 8;
  unsigned cw = 0, ccw = 0, hit = 0;
  while (starts) {
    const int r = std::countr_zero(starts);
    starts &= starts - 1;
    const int n = own[r];
    if (const int e = first_sowing_end(r, n, CW); ends >> e & 1) {
      cw |= 1u << r;
      hit |= 1u << e;
    }
    if (const int e = first_sowing_end(r, n, CCW); ends >> e & 1) {
      ccw |= 1u << r;
      hit |= 1u << e;
    }
  }
  s.cw = static_cast<std::uint16_t>(cw);
  s.ccw = static_cast<std::uint16_t>(ccw);
  s.ends = static_cast<std::uint16_t>(hit);
  return s;
}

// The pits in order, each pit's clockwise move before its counter-clockwise one.
void State::capture_moves(Player p, MoveList& out) const {
  const CaptureStarts s = capture_starts(p);
  unsigned starts = (s.cw | s.ccw) & ~(takasia_ >= 0 ? 1u << takasia_ : 0u);
  while (starts) {
    const int r = std::countr_zero(starts);
    starts &= starts - 1;
    if (s.cw >> r & 1) out.push_back(Move{static_cast<std::uint8_t>(r), CW, 0});
    if (s.ccw >> r & 1) out.push_back(Move{static_cast<std::uint8_t>(r), CCW, 0});
  }
}

// Mtaji takasa (docs/games/bao.md, S4:216-219): the front row first, then the back row; a
// lone kichwa toward the centre; the house tax last.
void State::takasa_moves(MoveList& out) const {
  const Player p = mover_;
  const Row& own = pits_[index(p)];
  const bool kiswahili = rules_->game == Game::Kiswahili;
  const bool house_tax = kiswahili && rules_->house_rules_in_mtaji && house_active(p);
  int front_occupied = 0, only_front = -1;
  for (int r = 8; r < 16; ++r)
    if (own[r]) {
      ++front_occupied;
      only_front = r;
    }
  auto add = [&](int r) {
    // The front row may not be emptied even for a moment: a lone kichwa sows toward the centre.
    if (kiswahili && front_occupied == 1 && r == only_front &&
        (r == kLeftKichwa || r == kRightKichwa)) {
      out.push_back(
          Move{static_cast<std::uint8_t>(r), static_cast<std::int8_t>(dir_from_kichwa(r)), 0});
      return;
    }
    for (int dir : {CW, CCW})
      out.push_back(Move{static_cast<std::uint8_t>(r), static_cast<std::int8_t>(dir), 0});
  };
  for (int r = 8; r < 16; ++r)
    if (own[r] >= 2 && r != takasia_ && !(house_tax && r == kHouse)) add(r);
  if (!out.empty()) return;
  for (int r = 0; r < 8; ++r)
    if (own[r] >= 2) add(r);
  // The house tax: only when there is no other move.
  if (out.empty() && house_tax && takasia_ != kHouse) add(kHouse);
}

void State::add_with_house_choice(Move m, MoveList& out) const {
  out.push_back(m);
  if (!house_[index(mover_)] || rules_->house_stop_forced) return;
  const SowTraceScope quiet(nullptr);  // a probe, not the move being played
  State s = *this;
  if (s.run(m)) {
    m.sow_house = 1;
    out.push_back(m);
  }
}

// Namua moves (docs/games/bao.md, S4:195-207): a capture is compulsory; the kimbi capture
// sows from the nearest kichwa, a centre capture from either.
void State::namua_moves(MoveList& out) const {
  const Player p = mover_;
  const Row& own = pits_[index(p)];
  for (int r = 8; r < 16; ++r) {
    if (!own[r] || !capturable(opponent(p), facing(r))) continue;
    if (is_kimbi(r)) {
      add_with_house_choice(Move{static_cast<std::uint8_t>(r),
                                 static_cast<std::int8_t>(dir_from_kichwa(nearest_kichwa(r))), 0},
                            out);
    } else {
      add_with_house_choice(Move{static_cast<std::uint8_t>(r), CW, 0}, out);
      add_with_house_choice(Move{static_cast<std::uint8_t>(r), CCW, 0}, out);
    }
  }
  if (!out.empty()) return;
  // Takasa: the hand seed into a non-empty front pit; the functional house (which then gives
  // only two seeds) only when no other pit can take it.
  const bool house = house_active(p);
  // Namua takasa rule (R11, docs/games/bao.md): once his nyumba no longer functions, a pit of
  // a single seed only when no front pit holds two or more (namua_takasa=any: any non-empty
  // pit, the literal reading).
  int least = 1;
  if (!rules_->namua_single_any && !house)
    for (int r = 8; r < 16; ++r)
      if (own[r] >= 2) least = 2;
  for (int r = 8; r < 16; ++r)
    if (own[r] >= least && !(house && r == kHouse))
      for (int dir : {CW, CCW})
        out.push_back(Move{static_cast<std::uint8_t>(r), static_cast<std::int8_t>(dir), 0});
  if (out.empty() && house)
    for (int dir : {CW, CCW})
      out.push_back(Move{static_cast<std::uint8_t>(kHouse), static_cast<std::int8_t>(dir), 0});
}

void State::legal_moves(MoveList& moves) const {
  moves.clear();
  if (is_over()) return;
  if (in_namua(mover_)) {
    namua_moves(moves);
    return;
  }
  capture_moves(mover_, moves);
  if (moves.empty()) takasa_moves(moves);
}

int State::sow(Row& own, int from, int seeds, int dir) {
  steps_ += static_cast<std::uint64_t>(seeds);
  if (sow_trace) [[unlikely]]
    trace_sow(from, seeds, dir);
  return sow_ring(own, from, seeds, dir);
}

// Out of line: inlined, the trace's JSON made sow() spill a large frame on every call.
void State::trace_sow(int from, int seeds, int dir) const {
  sow_trace->lap(board_json());
  for (int k = 0; k < seeds; ++k) sow_trace->seed(pit_name(mover_, (from + dir * k) & 15));
}

// Endless sowing (docs/games/bao.md, S4:253-255): the game is annulled.
void State::annul() {
  reason_ = EndReason::InfiniteSowing;
  winner_.reset();
}

// The pits where a relay of `p` must stop for the rules to look: pits that would capture (when
// `captures`), the nyumba while it has its status, the takasia pit.
std::uint16_t State::stop_pits(Player p, bool captures, int takasia) const {
  std::uint16_t mask = captures ? capture_targets(p) : 0;
  if (house_[index(p)]) mask = static_cast<std::uint16_t>(mask | 1u << kHouse);
  if (takasia >= 0) mask = static_cast<std::uint16_t>(mask | 1u << takasia);
  return mask;
}

// Relays on from `e` (the house loses its status when it is lifted); false when the sowing
// ended in an empty pit or was annulled as endless.
bool State::relay_on(int& e, int dir, std::uint16_t stops) {
  Row& own = pits_[index(mover_)];
  const Row before = own;
  const int from = e;
  const RelayEnd end = relay(own, e, dir, stops, steps_);
  if (sow_trace) [[unlikely]] {  // show the laps relay() ran in registers
    const Row after = own;
    const std::uint64_t steps = steps_;
    own = before;
    replay_relay(own, from, dir, stops, [&](int f, int seeds) { return sow(own, f, seeds, dir); });
    own = after;
    steps_ = steps;
  }
  if (end == RelayEnd::Endless || end == RelayEnd::OverTime) annul();
  return end == RelayEnd::Special;
}

// A capturing move from its first capture at own front pit `e` (the last seed has landed):
// captures chain and relay on (docs/games/bao.md, S4:199-205).
// Returns true when the house choice point was reached.
bool State::capture_chain(int e, int dir, bool first, Move m) {
  const Player p = mover_, o = opponent(p);
  Row& own = pits_[index(p)];
  Row& opp = pits_[index(o)];
  const bool namua = namua_move_;
  bool reached = false;
  while (true) {
    if (own[e] == 1) return reached;  // the last seed fell into an empty pit
    if (captures_at(p, e)) {
      const int t = facing(e);
      const int taken = opp[t];
      opp[t] = 0;
      if (t == kHouse) house_[index(o)] = false;
      int k;
      if (is_kimbi(e))
        k = nearest_kichwa(e);
      else if (first)
        k = kichwa_of(m.dir);  // a namua capture in the centre: the player's choice
      else
        k = kichwa_of(dir);  // otherwise the direction goes on
      first = false;
      dir = dir_from_kichwa(k);
      e = sow(own, k, taken, dir);
      // A capture that empties the opponent's front row wins at once (R12, docs/games/bao.md):
      // he can never refill it, so the sowing stops here even if it would relay for ever;
      // play() then ends the game at his turn.
      if (front_row_empty(opp)) return false;
      continue;
    }
    first = false;
    if (namua && e == kHouse && house_[index(p)] && own[kHouse] >= 6) {
      reached = true;
      if (!m.sow_house || rules_->house_stop_forced) return reached;
    }
    if (e == kHouse) house_[index(p)] = false;
    if (!relay_on(e, dir, stop_pits(p, true, -1))) return reached;
  }
}

// A takasa (non-capturing) move from the pit `e` where a sowing just ended (docs/games/bao.md,
// S4:196, S4:231: it stops in the functional house and in the takasia pit).
void State::takasa_chain(int e, int dir, int takasia) {
  const Player p = mover_;
  Row& own = pits_[index(p)];
  const bool namua = namua_move_;
  while (true) {
    if (own[e] == 1) return;
    if (e == takasia) return;  // a sowing ending in the takasia pit does not go on
    // A namua takasa stops in the functional house; in mtaji (with S4's house rules) the
    // full house is sown out like any pit.
    if (namua && e == kHouse && house_[index(p)] && own[kHouse] >= 6) return;
    if (e == kHouse) house_[index(p)] = false;
    if (!relay_on(e, dir, stop_pits(p, false, takasia))) return;
  }
}

bool State::run(Move m) {
  const Player p = mover_;
  Row& own = pits_[index(p)];
  const int takasia = takasia_;
  takasia_ = -1;
  steps_ = 0;
  namua_move_ = in_namua(p);
  const bool house_was_active = house_active(p);
  const int r = m.pit;
  if (namua_move_) {
    --hand_[index(p)];
    ++own[r];
    ++steps_;
    if (captures_at(p, r)) {
      last_was_takasa_ = false;
      return capture_chain(r, m.dir, true, m);
    }
    int seeds;
    if (r == kHouse && house_was_active) {
      seeds = 2;  // the hand seed into the house lifts only two
      own[r] = static_cast<std::uint8_t>(own[r] - 2);
    } else {
      seeds = own[r];
      own[r] = 0;
      if (r == kHouse) house_[index(p)] = false;
    }
    last_was_takasa_ = true;
    takasa_chain(sow(own, next(r, m.dir), seeds, m.dir), m.dir, takasia);
    return false;
  }
  const bool capture = is_capture_start(p, r, m.dir);
  const bool house_tax =
      !capture && r == kHouse && house_was_active && rules_->house_rules_in_mtaji;
  int seeds = own[r];
  if (house_tax) {
    seeds = 2;
    own[r] = static_cast<std::uint8_t>(own[r] - 2);
  } else {
    own[r] = 0;
    if (r == kHouse) house_[index(p)] = false;
  }
  const int e = sow(own, next(r, m.dir), seeds, m.dir);
  last_was_takasa_ = !capture;
  if (capture) return capture_chain(e, m.dir, false, m);
  // Takasia's third clause (S4:246, A14b): a house tax whose first sowing does not reach the
  // takasia pit ends there.
  if (house_tax && takasia >= 0 && next(r, m.dir) != takasia && e != takasia) return false;
  takasa_chain(e, m.dir, takasia);
  return false;
}

void State::play(Move m) {
  run(m);
  if (is_over()) return;  // annulled by an endless sowing
  const Player p = mover_, o = opponent(p);
  mover_ = o;
  if (rules_->game == Game::Kiswahili && rules_->takasia && last_was_takasa_ && !hand_[0] &&
      !hand_[1])
    set_takasia(p);
  check_turn_start();
}

// Takasia (docs/games/bao.md, S4:244-250). After a takasa by `p` in the mtaji stage: if p now
// threatens exactly one pit of the opponent and the opponent threatens nothing, that pit is
// takasia for the opponent's move.
void State::set_takasia(Player p) {
  const Player o = opponent(p);
  const unsigned ends = capture_starts(p).ends;  // own pits facing the pits under threat
  if (!ends || (ends & (ends - 1))) return;      // none, or more than one
  const int target = facing(std::countr_zero(ends));
  const Row& row = pits_[index(o)];
  if (target == kHouse && house_[index(o)]) return;
  if (row[target] == 1) return;
  const std::uint64_t occupied = nonzero_bytes(front_word(row));
  if (occupied && !(occupied & (occupied - 1))) return;  // a single occupied front pit
  const CaptureStarts theirs = capture_starts(o);
  if ((theirs.cw | theirs.ccw) & ~(takasia_ >= 0 ? 1u << takasia_ : 0u)) return;
  takasia_ = static_cast<std::int8_t>(target);
}

bool State::has_any_move() const {
  if (in_namua(mover_)) return true;  // a seed can always go into a non-empty front pit
  const Row& own = pits_[index(mover_)];
  for (int r = 0; r < kPits; ++r)
    if (own[r] >= 2 && r != takasia_) return true;
  return false;
}

// Losing (docs/games/bao.md, S4:257-258): an empty front row or no legal move at one's turn.
void State::check_turn_start() {
  if (front_row_empty(pits_[index(mover_)])) {
    reason_ = EndReason::RowEmpty;
    winner_ = opponent(mover_);
  } else if (!has_any_move()) {
    reason_ = EndReason::NoMove;
    winner_ = opponent(mover_);
  }
}

Outcome State::outcome() const {
  Outcome o;
  o.winner = winner_;
  o.reason = reason_;
  o.scores = {seeds_on_side(Player::South), seeds_on_side(Player::North)};
  return o;
}

namespace {

// The table's keys in flat arrays of fixed strides: the same keys as the table's (a count above 64
// shares the top one there; a pit or hand never holds more than the game's 64 seeds), without its
// indirections or a guard on every call.
struct Keys {
  std::array<std::uint64_t, 2 * kPits * 65> pits{};
  std::array<std::uint64_t, 2 * 65> hands{};
  std::array<std::uint64_t, 2> houses{};
  std::array<std::uint64_t, kPits> takasia{};
  std::uint64_t north = 0;
  Keys() {
    const ZobristTable& z = zobrist();
    for (int i = 0; i < 2 * kPits; ++i)
      for (int c = 0; c <= 64; ++c) pits[i * 65 + c] = z.key(i, c);
    for (int p = 0; p < 2; ++p) {
      for (int c = 0; c <= 64; ++c) hands[p * 65 + c] = z.key(32 + p, c);
      houses[p] = z.feature(p);
    }
    for (int r = 0; r < kPits; ++r) takasia[r] = z.feature(2 + r);
    north = z.side();
  }
};

}  // namespace

std::uint64_t State::hash() const {
  static const Keys kKeys;
  std::uint64_t h = 0;
  for (int p = 0; p < 2; ++p) {
    const std::uint64_t* keys = kKeys.pits.data() + p * kPits * 65;
    for (int r = 0; r < kPits; ++r) h ^= keys[r * 65 + pits_[p][r]];
    h ^= kKeys.hands[p * 65 + hand_[p]];
    if (house_[p]) h ^= kKeys.houses[p];
  }
  if (takasia_ >= 0) h ^= kKeys.takasia[takasia_];
  if (mover_ == Player::North) h ^= kKeys.north;
  return h;
}

std::string State::format_move(Move m) const {
  std::string s = pit_name(mover_, m.pit);
  s += dir_marker(m.pit, m.dir);
  if (m.sow_house) s += '+';
  return s;
}

std::optional<Move> State::parse_move(std::string_view t) const {
  // Annotations of the literature are accepted and ignored: * takasa, ** takasia, # win.
  while (!t.empty() && (t.back() == '*' || t.back() == '#' || t.back() == '!' || t.back() == '?'))
    t.remove_suffix(1);
  std::uint8_t sow_house = 0;
  if (!t.empty() && t.back() == '+') {
    sow_house = 1;
    t.remove_suffix(1);
  }
  char marker = 0;
  if (!t.empty() && (t.back() == '<' || t.back() == '>')) {
    marker = t.back();
    t.remove_suffix(1);
  }
  const auto pit = parse_pit(t);
  if (!pit) return std::nullopt;
  const auto [owner, r] = *pit;
  // Another player's pit is a move of this game, just never a legal one here.
  Move m{owner == mover_ ? static_cast<std::uint8_t>(r) : std::uint8_t{255}, 0, sow_house};
  if (marker) {
    m.dir = static_cast<std::int8_t>(dir_from_marker(r, marker));
    return m;
  }
  // Without a direction: the one legal move from that pit, if there is only one
  // (a kimbi capture, a lone kichwa).
  MoveList moves;
  legal_moves(moves);
  int found = 0;
  for (auto lm : moves)
    if (lm.pit == m.pit && lm.sow_house == sow_house) {
      ++found;
      m.dir = lm.dir;
    }
  if (found != 1) m.dir = 0;
  return m;
}

namespace {

constexpr const char* kPositionForm =
    "<South a1..h1>/<South a2..h2>/<North A1..H1>/<North A2..H2>/<hand S>,<hand N>/<houses: SN, S, "
    "N "
    "or ->/<S or N to move>[/<takasia pit or ->]";

}  // namespace

std::string State::position() const {
  std::string s = write_rows(pits_);
  s += std::to_string(hand_[0]) + "," + std::to_string(hand_[1]) + "/";
  std::string houses = std::string(house_[0] ? "S" : "") + (house_[1] ? "N" : "");
  s += (houses.empty() ? "-" : houses) + "/";
  s += letter(mover_);
  s += "/";
  s += takasia_ >= 0 ? pit_name(mover_, takasia_) : "-";
  return s;
}

State State::from_position(const Rules& rules, std::string_view text) {
  const auto fields = split(text, '/');
  if (fields.size() != 7 && fields.size() != 8)
    throw ParseError("a " + rules.name + " position has 7 or 8 fields separated by '/': " +
                     kPositionForm + "; got " + std::to_string(fields.size()));
  State s;
  s.rules_ = &rules;
  int total = read_rows(fields, s.pits_);
  const auto hands = split(fields[4], ',');
  if (hands.size() != 2) throw ParseError("the hands field is '<South>,<North>', e.g. 22,22");
  for (int p = 0; p < 2; ++p) {
    const int v = parse_number(hands[p], "a hand", 64);
    if (v > rules.hand_seeds())
      throw ParseError("a hand of " + std::to_string(v) + " seeds; in " + rules.name +
                       " a hand holds at most " + std::to_string(rules.hand_seeds()));
    s.hand_[p] = static_cast<std::uint8_t>(v);
    total += v;
  }
  if (total != 64)
    throw ParseError("the position holds " + std::to_string(total) + " seeds; " + rules.name +
                     " has 64");
  const std::string_view houses = fields[5];
  if (houses != "-") {
    for (char c : houses) {
      if (c != 'S' && c != 'N')
        throw ParseError("the houses field is SN, S, N or -; got '" + std::string(houses) + "'");
      s.house_[c == 'N'] = true;
    }
    if (!rules.has_house())
      throw ParseError(rules.name + " has no nyumba; write - in the houses field");
  }
  for (int p = 0; p < 2; ++p)
    if (s.house_[p] && s.pits_[p][kHouse] == 0)
      throw ParseError(
          "an empty nyumba has lost its status for good; drop it from the houses field");
  if (fields[6] == "S")
    s.mover_ = Player::South;
  else if (fields[6] == "N")
    s.mover_ = Player::North;
  else
    throw ParseError("the side to move is S or N; got '" + std::string(fields[6]) + "'");
  if (fields.size() == 8 && fields[7] != "-") {
    const auto pit = parse_pit(fields[7]);
    if (!pit || pit->first != s.mover_ || !is_front(pit->second))
      throw ParseError("the takasia pit must be a front-row pit of the side to move, or -; got '" +
                       std::string(fields[7]) + "'");
    if (rules.game != Game::Kiswahili) throw ParseError(rules.name + " has no takasia; write -");
    s.takasia_ = static_cast<std::int8_t>(pit->second);
  }
  s.check_turn_start();
  return s;
}

std::string State::render() const {
  std::ostringstream out;
  auto cell = [&](int p, int r) {
    std::string v = std::to_string(pits_[p][r]);
    if (r == kHouse && house_[p])
      v = "[" + v + "]";
    else if (r == takasia_ && p == index(mover_))
      v = "(" + v + ")";
    std::string pad(5 - std::min<std::size_t>(v.size(), 4), ' ');
    return pad + v;
  };
  out << "        North" << (mover_ == Player::North ? "  <- to move" : "") << "   hand "
      << int(hand_[1]) << "\n";
  draw_rows(out, cell);
  out << "        South" << (mover_ == Player::South ? "  <- to move" : "") << "   hand "
      << int(hand_[0]) << "\n";
  if (is_over()) out << "game over: " << to_string(reason_) << "\n";
  return out.str();
}

nlohmann::json State::board_json() const {
  nlohmann::json j;
  for (int p = 0; p < 2; ++p) {
    std::vector<int> f, b;
    for (int i = 0; i < 8; ++i) {
      f.push_back(pits_[p][front(i)]);
      b.push_back(pits_[p][back(i)]);
    }
    j[p == 0 ? "south" : "north"] = {{"front", f},
                                     {"back", b},
                                     {"hand", hand_[p]},
                                     {"house", bool(house_[p])},
                                     {"stage", hand_[p] ? "namua" : "mtaji"}};
  }
  j["to_move"] = std::string(name(mover_));
  j["takasia"] =
      takasia_ >= 0 ? nlohmann::json(pit_name(mover_, takasia_)) : nlohmann::json(nullptr);
  j["position"] = position();
  return j;
}

}  // namespace naqala::bao
