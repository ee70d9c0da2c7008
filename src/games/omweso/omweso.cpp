#include "games/omweso/omweso.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/zobrist.h"
#include "games/board4/family_common.h"
#include "games/board4/position_text.h"
#include "games/sow_trace.h"

namespace naqala::omweso {

using namespace board4;

namespace {

const ZobristTable& zobrist() {
  static const ZobristTable table(32, 64, 64, 0x03e50ULL);
  return table;
}

// Reverse capture (docs/games/omweso.md, A18): clockwise moves start only from the four
// leftmost pits, a1, b1, a2, b2.
constexpr bool reverse_pit(int r) {
  return r == back(0) || r == back(1) || r == front(0) || r == front(1);
}

}  // namespace

std::vector<OptionInfo> option_infos(Version version) {
  if (version == Version::S0)
    return {{"impasse_plies",
             "plies without a capture that make an impasse (annulled); 0 = never",
             "int",
             "200",
             {"0..10000"}}};
  return {
      {"reverse_resow",
       "reverse-captured seeds may be sown clockwise again when that sowing captures",
       "bool",
       "false",
       {"true", "false"}},
      {"win_both_ends",
       "capturing at both ends of the board in one move wins",
       "bool",
       "false",
       {"true", "false"}},
      {"sowing_seconds",
       "S4:255: a sowing not finished in this many seconds is endless (a clock rule); 0 = none",
       "int",
       "120",
       {"0..600"}},
  };
}

Rules make_rules(Version version, const std::vector<std::pair<std::string, std::string>>& options) {
  Rules r;
  r.version = version;
  r.name = version == Version::S0 ? "omweso-s0" : "omweso";
  const auto infos = option_infos(version);
  for (const auto& [key, value] : options) {
    const OptionInfo& info = find_option(infos, r.name, key);
    std::string canonical;
    if (info.type == "bool") {
      const bool on = parse_bool(key, value);
      canonical = on ? "true" : "false";
      if (key == "reverse_resow") r.reverse_resow = on;
      if (key == "win_both_ends") r.win_both_ends = on;
    } else if (key == "impasse_plies") {
      r.impasse_plies = int_value(info, value, 0, 10000);
      canonical = std::to_string(r.impasse_plies);
    } else {
      r.sowing_seconds = int_value(info, value, 0, 600);
      canonical = std::to_string(r.sowing_seconds);
    }
    note_choice(r.chosen, info, canonical);
  }
  return r;
}

State State::initial(const Rules& rules) {
  State s;
  s.rules_ = &rules;
  if (rules.version == Version::S0) {
    for (int p = 0; p < 2; ++p)
      for (int i = 0; i < 8; ++i) s.pits_[p][front(i)] = 4;
  } else {
    s.setup_ = 0;  // South arranges his 32 seeds, then North, then South moves
  }
  return s;
}

int State::seeds_on_side(Player p) const {
  int n = 0;
  for (auto c : pits_[index(p)]) n += c;
  return n;
}

// Capture (docs/games/omweso.md): both facing opponent pits occupied.
bool State::can_capture(int e) const {
  const Row& own = pits_[index(mover_)];
  const Row& opp = pits_[index(opponent(mover_))];
  return is_front(e) && own[e] > 1 && opp[facing(e)] > 0 && opp[facing_back(e)] > 0;
}

std::uint16_t State::capture_pits() const {
  const Row& opp = pits_[index(opponent(mover_))];
  std::uint16_t mask = 0;
  for (int r = 8; r < kPits; ++r)
    if (opp[facing(r)] > 0 && opp[facing_back(r)] > 0)
      mask = static_cast<std::uint16_t>(mask | 1u << r);
  return mask;
}

bool State::first_lap_captures(int r, int dir) const {
  const Row& own = pits_[index(mover_)];
  const Row& opp = pits_[index(opponent(mover_))];
  const int n = own[r];
  const int e = (r + dir * n) & 15;
  // Seeds in e just before the last one: what it held (nothing if it is the emptied start
  // pit) plus one for each earlier lap.
  const int before = (e == r ? 0 : own[e]) + (n - 1) / kPits;
  return is_front(e) && before >= 1 && opp[facing(e)] > 0 && opp[facing_back(e)] > 0;
}

State::Move State::spread_setup_move(Rng* jitter) const {
  MoveList moves;
  legal_moves(moves);
  const int in_hand = static_cast<int>(moves.size()) - 1;  // moves place 0..in_hand seeds
  const int pits_left = 16 - setup_;  // this pit, the ones after it, and the last (the rest)
  int n = (in_hand + pits_left / 2) / pits_left;
  if (jitter) n += static_cast<int>(jitter->below(3)) - 1;
  return moves[std::clamp(n, 0, in_hand)];
}

State::Move State::uniform_setup_move(Rng& rng) const {
  MoveList moves;
  legal_moves(moves);
  const int in_hand = static_cast<int>(moves.size()) - 1;
  const auto pits_left = static_cast<std::uint32_t>(16 - setup_);
  int n = 0;
  for (int seed = 0; seed < in_hand; ++seed) n += rng.below(pits_left) == 0;
  return moves[n];
}

void State::legal_moves(MoveList& moves) const {
  moves.clear();
  if (is_over()) return;
  const Row& own = pits_[index(mover_)];
  if (in_setup()) {
    int placed = 0;
    for (auto c : own) placed += c;
    const auto pit = static_cast<std::uint8_t>(setup_pit(setup_));
    for (int n = 0; n <= 32 - placed; ++n)
      moves.push_back(Move{pit, 0, static_cast<std::uint8_t>(n)});
    return;
  }
  if (rules_->version == Version::Standard) {
    for (int r = 0; r < kPits; ++r) {
      if (own[r] < 2) continue;
      moves.push_back(Move{static_cast<std::uint8_t>(r), CCW, 0});
      if (reverse_pit(r) && first_lap_captures(r, CW)) {
        const Move m{static_cast<std::uint8_t>(r), CW, 0};
        if (rules_->reverse_resow)
          add_reverse_moves(m, 0, moves);
        else
          moves.push_back(m);
      }
    }
    return;
  }
  // S0: any non-empty pit counter-clockwise, clockwise only into a capture; each capture
  // may be taken or declined, so a move is also the number of captures taken.
  for (int r = 0; r < kPits; ++r) {
    if (!own[r]) continue;
    for (int dir : {CCW, CW}) {
      if (dir == CW && !first_lap_captures(r, CW)) continue;
      const SowTraceScope quiet(nullptr);  // a probe, not the move being played
      State copy = *this;
      const int most =
          copy.run(Move{static_cast<std::uint8_t>(r), static_cast<std::int8_t>(dir), 0}, true);
      for (int k = dir == CW ? 1 : 0; k <= most; ++k)
        moves.push_back(Move{static_cast<std::uint8_t>(r), static_cast<std::int8_t>(dir),
                             static_cast<std::uint8_t>(k)});
    }
  }
}

// Every choice sequence of a reverse move from choice point `from` on (reverse_resow): the
// move as given (later choices counter-clockwise), and for each later choice point met, the
// same with clockwise there. A choice is met only while the sowing goes clockwise, and each
// clockwise choice captures one of the 8 opponent columns, so a reverse move has at most 9
// sequences (clockwise k times, then counter-clockwise).
void State::add_reverse_moves(Move m, int from, MoveList& out) const {
  out.push_back(m);
  const SowTraceScope quiet(nullptr);  // a probe, not the move being played
  State s = *this;
  s.run(m, false);
  for (int i = from; i < s.choice_points_ && i < 8; ++i) {
    Move c = m;
    c.n = static_cast<std::uint8_t>(c.n | 1u << i);
    add_reverse_moves(c, i + 1, out);
  }
}

// Would `caught` seeds sown clockwise from `start` (that pit first) end in a capture?
bool State::resow_captures(int start, int caught) const {
  State s = *this;
  Row& own = s.pits_[index(mover_)];
  return s.can_capture(sow_ring(own, start, caught, CW));
}

int State::sow(Row& own, int from, int seeds, int dir) {
  steps_ += static_cast<std::uint64_t>(seeds);
  if (sow_trace) [[unlikely]] {
    sow_trace->lap(board_json());
    for (int k = 0; k < seeds; ++k) sow_trace->seed(pit_name(mover_, (from + dir * k) & 15));
  }
  return sow_ring(own, from, seeds, dir);
}

int State::run(Move m, bool count_only) {
  const Player p = mover_, o = opponent(p);
  Row& own = pits_[index(p)];
  Row& opp = pits_[index(o)];
  steps_ = 0;
  if (m.dir == 0) {  // a setup move
    own[m.pit] = m.n;
    steps_ = m.n;
    if (setup_ == 14) {
      int placed = 0;
      for (auto c : own) placed += c;
      own[setup_pit(15)] = static_cast<std::uint8_t>(32 - placed);
      steps_ += static_cast<std::uint64_t>(32 - placed);
      setup_ = p == Player::South ? 0 : -1;
      mover_ = o;
    } else {
      ++setup_;
    }
    return 0;
  }
  const bool s0 = rules_->version == Version::S0;
  const int start = m.pit;
  int dir = m.dir;
  int seeds = own[start];
  own[start] = 0;
  int e = sow(own, next(start, dir), seeds, dir);
  int taken = 0;
  std::uint8_t kichwa = 0;
  choice_points_ = 0;
  ends_ = 0;
  while (true) {
    if (own[e] == 1) break;  // the last seed fell into an empty pit
    if (can_capture(e)) {
      if (s0 && !count_only && taken == m.n) break;  // S0: this capture is declined
      const int t = facing(e), b = facing_back(e);
      const int caught = opp[t] + opp[b];
      opp[t] = opp[b] = 0;
      if (t == kLeftKichwa) kichwa |= 1;
      if (t == kRightKichwa) kichwa |= 2;
      ++taken;
      ends_ = static_cast<std::uint8_t>(ends_ | kichwa);
      // Caught seeds (docs/games/omweso.md, A18) are sown from the pit the move started from,
      // that pit first; after a reverse capture the usual counter-clockwise direction resumes
      // (standard), or with reverse_resow the player may go clockwise again when that sowing
      // captures at once.
      if (!s0) {
        const bool choice = dir == CW && rules_->reverse_resow && resow_captures(start, caught);
        const int point = choice_points_;
        if (choice) ++choice_points_;
        dir = choice && point < 8 && (m.n >> point & 1) ? CW : CCW;
      }
      e = sow(own, start, caught, dir);
      continue;
    }
    if (s0) break;  // S0: no relay
    const Row before = own;
    const int from = e;
    const RelayEnd end =
        relay(own, e, dir, capture_pits(), steps_, rules_->sowing_seconds ? kMaxRelayLaps : 0);
    if (sow_trace) [[unlikely]] {  // show the laps relay() ran in registers
      const Row after = own;
      const std::uint64_t steps = steps_;
      own = before;
      replay_relay(own, from, dir, capture_pits(),
                   [&](int f, int n) { return sow(own, f, n, dir); });
      own = after;
      steps_ = steps;
    }
    if (end == RelayEnd::Empty) break;
    if (end != RelayEnd::Special) {
      // Endless sowing (docs/games/omweso.md, S4:253-255): the game is annulled.
      reason_ = EndReason::InfiniteSowing;
      winner_.reset();
      return taken;
    }
  }
  if (!count_only && s0) {
    captures_[index(p)] = static_cast<std::uint8_t>(std::min(2, captures_[index(p)] + taken));
    kichwa_before_[index(p)] = kichwa_now_[index(p)];
    kichwa_now_[index(p)] = kichwa;
    quiet_plies_ = taken ? 0 : static_cast<std::uint16_t>(std::min(quiet_plies_ + 1, 60000));
  }
  return taken;
}

void State::play(Move m) {
  if (m.dir == 0) {
    run(m, false);
    return;
  }
  run(m, false);
  if (is_over()) return;
  const Player p = mover_, o = opponent(p);
  if (rules_->win_both_ends && ends_ == 3) {
    reason_ = EndReason::Other;  // captures at both ends of the board in one move
    winner_ = p;
    mover_ = o;
    return;
  }
  if (rules_->version == Version::S0) {
    // S0's wins (docs/games/omweso-s0.md): both of the opponent's kichwa taken within two
    // consecutive moves, or two
    // captures before the opponent's first, win at once.
    if ((kichwa_now_[index(p)] | kichwa_before_[index(p)]) == 3 ||
        (captures_[index(p)] >= 2 && captures_[index(o)] == 0)) {
      reason_ = EndReason::Other;
      winner_ = p;
      mover_ = o;
      return;
    }
    if (rules_->impasse_plies && quiet_plies_ >= rules_->impasse_plies) {
      // The impasse of S0:24 (docs/games/omweso-s0.md): the game is annulled.
      reason_ = EndReason::Agreement;
      winner_.reset();
      mover_ = o;
      return;
    }
  }
  mover_ = o;
  check_turn_start();
}

void State::check_turn_start() {
  if (in_setup() || is_over()) return;
  const int need = rules_->version == Version::S0 ? 1 : 2;
  for (auto c : pits_[index(mover_)])
    if (c >= need) return;
  reason_ = EndReason::NoMove;
  winner_ = opponent(mover_);
}

void State::end_by_cycle() {
  reason_ = EndReason::Cycle;
  winner_.reset();
}

Outcome State::outcome() const {
  Outcome o;
  o.winner = winner_;
  o.reason = reason_;
  o.scores = {seeds_on_side(Player::South), seeds_on_side(Player::North)};
  return o;
}

std::uint64_t State::hash() const {
  const ZobristTable& z = zobrist();
  std::uint64_t h = 0;
  for (int p = 0; p < 2; ++p)
    for (int r = 0; r < kPits; ++r) h ^= z.key(p * kPits + r, pits_[p][r]);
  if (mover_ == Player::North) h ^= z.side();
  if (setup_ >= 0) h ^= z.feature(setup_);
  for (int p = 0; p < 2; ++p) {
    h ^= z.feature(16 + p * 3 + captures_[p]);
    h ^= z.feature(24 + p * 4 + kichwa_now_[p]);
    h ^= z.feature(32 + p * 4 + kichwa_before_[p]);
  }
  return h;
}

std::string State::format_move(Move m) const {
  std::string s = pit_name(mover_, m.pit);
  if (m.dir == 0) return s + "=" + std::to_string(m.n);
  s += dir_marker(m.pit, m.dir);
  if (rules_->version == Version::S0 && m.n) {
    s += 'x';
    s += std::to_string(m.n);
  } else if (m.n) {  // the directions chosen after reverse captures, up to the last clockwise
    s += ':';
    for (int i = 0; m.n >> i; ++i) s += dir_marker(m.pit, (m.n >> i & 1) ? CW : CCW);
  }
  return s;
}

std::optional<Move> State::parse_move(std::string_view t) const {
  const auto eq = t.find('=');
  if (eq != std::string_view::npos) {  // a setup move "a1=4"
    const auto pit = parse_pit(t.substr(0, eq));
    const auto count = t.substr(eq + 1);
    if (!pit || count.empty() || count.size() > 2) return std::nullopt;
    int n = 0;
    for (char c : count) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + (c - '0');
    }
    Move m{static_cast<std::uint8_t>(pit->second), 0, static_cast<std::uint8_t>(n)};
    if (pit->first != mover_) m.pit = 255;
    return m;
  }
  std::uint8_t n = 0;
  if (const auto colon = t.find(':'); colon != std::string_view::npos) {
    const auto choices = t.substr(colon + 1);
    t = t.substr(0, colon);
    const auto pit = parse_pit(t.substr(0, t.size() ? t.size() - 1 : 0));
    if (!pit || choices.empty() || choices.size() > 8) return std::nullopt;
    for (std::size_t i = 0; i < choices.size(); ++i) {
      if (choices[i] != '<' && choices[i] != '>') return std::nullopt;
      if (dir_from_marker(pit->second, choices[i]) == CW)
        n = static_cast<std::uint8_t>(n | 1u << i);
    }
  }
  const auto x = t.find('x');
  if (x != std::string_view::npos) {
    const auto count = t.substr(x + 1);
    if (count.size() != 1 || count[0] < '0' || count[0] > '9') return std::nullopt;
    n = static_cast<std::uint8_t>(count[0] - '0');
    t = t.substr(0, x);
  }
  char marker = 0;
  if (!t.empty() && (t.back() == '<' || t.back() == '>')) {
    marker = t.back();
    t.remove_suffix(1);
  }
  const auto pit = parse_pit(t);
  if (!pit) return std::nullopt;
  Move m{pit->first == mover_ ? static_cast<std::uint8_t>(pit->second) : std::uint8_t{255}, 0, n};
  if (marker) {
    m.dir = static_cast<std::int8_t>(dir_from_marker(pit->second, marker));
    return m;
  }
  // No marker: the usual counter-clockwise move.
  m.dir = CCW;
  return m;
}

std::string State::position() const {
  std::string s = write_rows(pits_);
  s += letter(mover_);
  if (setup_ >= 0) s += "/setup:" + std::to_string(setup_);
  if (rules_->version == Version::S0) {
    s += "/";
    for (int p = 0; p < 2; ++p) {
      if (p) s += ',';
      s += std::to_string(captures_[p]);
      s += ':';
      s += std::to_string(kichwa_now_[p]);
      s += std::to_string(kichwa_before_[p]);
    }
    s += ',';
    s += std::to_string(quiet_plies_);
  }
  return s;
}

State State::from_position(const Rules& rules, std::string_view text) {
  const bool s0 = rules.version == Version::S0;
  const std::string form =
      s0 ? "<South a1..h1>/<South a2..h2>/<North A1..H1>/<North A2..H2>/<S or N>/"
           "<captures S>:<kichwa bits S now><before>,<same for N>,<plies since a capture>"
         : "<South a1..h1>/<South a2..h2>/<North A1..H1>/<North A2..H2>/<S or N>[/setup:<k>]";
  const auto fields = split(text, '/');
  const std::size_t want = s0 ? 6 : 5;
  if (fields.size() != want && !(!s0 && fields.size() == 6))
    throw ParseError("a " + rules.name + " position is " + form + "; got " +
                     std::to_string(fields.size()) + " fields");
  State s;
  s.rules_ = &rules;
  const int total = read_rows(fields, s.pits_);
  if (fields[4] == "S")
    s.mover_ = Player::South;
  else if (fields[4] == "N")
    s.mover_ = Player::North;
  else
    throw ParseError("the side to move is S or N; got '" + std::string(fields[4]) + "'");
  if (!s0 && fields.size() == 6) {
    if (!fields[5].starts_with("setup:"))
      throw ParseError("the sixth field is setup:<k> (0 to 14); got '" + std::string(fields[5]) +
                       "'");
    s.setup_ = static_cast<std::int8_t>(parse_number(fields[5].substr(6), "setup progress", 14));
    const int me = index(s.mover_);
    for (int k = s.setup_; k < 16; ++k)
      if (s.pits_[me][setup_pit(k)])
        throw ParseError("in setup, pits after the next one to fill must be empty");
    if (s.seeds_on_side(s.mover_) > 32) throw ParseError("a player sets up 32 seeds, not more");
    const int other = s.seeds_on_side(opponent(s.mover_));
    if (s.mover_ == Player::South && other != 0)
      throw ParseError("South sets up first: North's pits are empty while South arranges");
    if (s.mover_ == Player::North && other != 32)
      throw ParseError("North arranges after South's 32 seeds are placed");
  } else if (total != 64) {
    throw ParseError("the position holds " + std::to_string(total) + " seeds; " + rules.name +
                     " has 64");
  }
  if (s0) {
    const auto parts = split(fields[5], ',');
    if (parts.size() != 3) throw ParseError("the S0 field is " + form.substr(form.rfind('/') + 1));
    s.quiet_plies_ =
        static_cast<std::uint16_t>(parse_number(parts[2], "plies since a capture", 60000));
    for (int p = 0; p < 2; ++p) {
      const auto& f = parts[p];
      if (f.size() != 4 || f[1] != ':' || f[0] < '0' || f[0] > '2' || f[2] < '0' || f[2] > '3' ||
          f[3] < '0' || f[3] > '3')
        throw ParseError(
            "the S0 field is <captures 0-2>:<kichwa bits now 0-3><before 0-3> per player; got '" +
            std::string(f) + "'");
      s.captures_[p] = static_cast<std::uint8_t>(f[0] - '0');
      s.kichwa_now_[p] = static_cast<std::uint8_t>(f[2] - '0');
      s.kichwa_before_[p] = static_cast<std::uint8_t>(f[3] - '0');
    }
  }
  s.check_turn_start();
  return s;
}

std::string State::render() const {
  std::ostringstream out;
  auto cell = [&](int p, int r) {
    const std::string v = std::to_string(pits_[p][r]);
    return std::string(5 - v.size(), ' ') + v;
  };
  out << "        North" << (mover_ == Player::North ? "  <- to move" : "") << "\n";
  draw_rows(out, cell);
  out << "        South" << (mover_ == Player::South ? "  <- to move" : "") << "\n";
  if (in_setup())
    out << "setup: " << name(mover_) << " places seeds into " << pit_name(mover_, setup_pit(setup_))
        << "\n";
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
    j[p == 0 ? "south" : "north"] = {{"front", f}, {"back", b}};
  }
  j["to_move"] = std::string(name(mover_));
  j["setup"] =
      in_setup() ? nlohmann::json(pit_name(mover_, setup_pit(setup_))) : nlohmann::json(nullptr);
  j["position"] = position();
  return j;
}

}  // namespace naqala::omweso
