// Moves and positions as text (docs/notation.md): pit names, move notation, the position
// string and its extra fields (owners, burnt pits, tuz, phase, lock-step, rounds), the board
// drawn for the terminal and its JSON for the browser.
#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "games/sowing/state.h"

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
  parts.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), sep)) + 1);
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

std::optional<State::Move> State::parse_move(std::string_view text) const {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (rules_->general) return parse_general(text);
  int pit = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pit);
  if (ec != std::errc() || end != text.data() + text.size() || pit < 1 || pit > rules_->pits)
    return std::nullopt;
  return static_cast<Move>(pit - 1);
}

std::string State::position() const {
  // Written into one buffer (a count is at most 3 digits): the text of every ply is checked
  // by tests and the fuzzers, and to_string per pit made it a third of their time.
  const Rules& r = *rules_;
  char buffer[4 * (kMaxHoles + 2) + 2];
  char* at = buffer;
  auto put = [&](int count, char after) {
    at = std::to_chars(at, at + 3, count).ptr;
    *at++ = after;
  };
  for (int row = 0; row < r.rows; ++row)
    for (int i = 0; i < r.pits; ++i) put(board_[row * r.pits + i], i + 1 < r.pits ? ',' : '/');
  put(store(Player::South), ',');
  put(store(Player::North), '/');
  *at++ = letter(mover_);
  std::string out(buffer, at);
  if (r.extras) out += position_extras();
  return out;
}

namespace {

int parse_count(std::string_view field, std::string_view what, std::string_view text) {
  int v = -1;
  auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (ec != std::errc() || end != field.data() + field.size() || v < 0 || v > kMaxSeedsPerHole)
    throw ParseError("position '" + std::string(text) + "': " + std::string(what) + " '" +
                     std::string(field) + "' is not a seed count (0 to 255)");
  return v;
}

}  // namespace

State State::from_position(const Rules& rules, std::string_view text) {
  // Built only for an error message: it writes the start position.
  auto form = [&] {
    return "the form is <south pits>/<north pits>/<south store>,<north store>/<S|N>, "
           "each row from its owner's left, e.g. " +
           initial(rules).position();
  };
  auto fields = split_on(text, '/');
  const std::size_t base = static_cast<std::size_t>(rules.rows) + 2;
  if (fields.size() < base || (!rules.extras && fields.size() != base))
    throw ParseError("position '" + std::string(text) + "' has " + std::to_string(fields.size()) +
                     " '/'-separated fields, not " + std::to_string(base) + "; " + form());
  State s = initial(rules);
  s.reason_ = EndReason::None;
  s.result_ = Result::ByStores;
  s.phase_ = Phase::Play;
  int total = 0;
  for (int row = 0; row < rules.rows; ++row) {
    // The row's pits, read as they are split off (no list of them is built).
    const std::string_view row_text = fields[row];
    const auto commas = std::count(row_text.begin(), row_text.end(), ',');
    if (commas + 1 != rules.pits) {
      const char* who = row == 0 ? "south" : row + 1 == rules.rows ? "north" : "middle";
      throw ParseError("position '" + std::string(text) + "': the " + who + " row has " +
                       std::to_string(commas + 1) + " pits; " + rules.name + " has " +
                       std::to_string(rules.pits) + "; " + form());
    }
    std::size_t start = 0;
    for (int i = 0; i < rules.pits; ++i) {
      const std::size_t end = std::min(row_text.find(',', start), row_text.size());
      const int v = parse_count(row_text.substr(start, end - start), "pit", text);
      s.board_[row * rules.pits + i] = static_cast<std::uint8_t>(v);
      total += v;
      start = end + 1;
    }
  }
  fields.erase(fields.begin() + 1,
               fields.begin() + rules.rows - 1);  // now: south, north, stores, side, ...
  auto stores = split_on(fields[2], ',');
  if (stores.size() != 2)
    throw ParseError("position '" + std::string(text) + "': the stores field needs two counts; " +
                     form());
  for (Player p : {Player::South, Player::North}) {
    const int v = parse_count(stores[index(p)], "store", text);
    s.board_[rules.store(p)] = static_cast<std::uint8_t>(v);
    total += v;
  }
  if (fields[3] == "S" || fields[3] == "s") {
    s.mover_ = Player::South;
  } else if (fields[3] == "N" || fields[3] == "n") {
    s.mover_ = Player::North;
  } else {
    throw ParseError("position '" + std::string(text) +
                     "': the side to move must be S or N, not '" + std::string(fields[3]) + "'");
  }
  for (std::size_t i = 4; i < fields.size(); ++i) s.parse_extras(fields[i], text);
  if (s.phase_ == Phase::Joint && s.tick_ > 0) {
    // A paused lock-step waits for whoever has an empty hand and has not ended: both (a joint
    // move) or one (his extra sowing, and then he is the side to move).
    const bool south = s.choosing(Player::South), north = s.choosing(Player::North);
    if (!south && !north)
      throw ParseError("position '" + std::string(text) +
                       "': the lockstep field has no player to choose (an empty hand that has "
                       "not ended)");
    if (!(south && north)) {
      s.phase_ = Phase::JointTurn;
      if (s.mover_ != (south ? Player::South : Player::North))
        throw ParseError("position '" + std::string(text) +
                         "': " + std::string(name(south ? Player::South : Player::North)) +
                         " chooses his next sowing: the side to move must be " +
                         letter(south ? Player::South : Player::North));
    }
  }
  total += s.in_hand();
  if (s.phase_ == Phase::Setup) {
    // [setup]: a layout in progress is one the setup moves could have made (the pits laid so
    // far in order, at least `min` each, the same in both rows for a mirror setup, nothing
    // else on the board), with the seeds left enough for the pits left; otherwise its next
    // moves would make a board of the wrong seed count.
    const bool mirror = rules.setup == SetupKind::Mirror;
    const int slots = mirror ? rules.pits : rules.pit_count();
    auto bad = [&](const std::string& why) {
      throw ParseError("position '" + std::string(text) + "' is not a setup in progress: " + why);
    };
    if (s.mover_ != Player(s.arranger_))
      bad(std::string("the arranger (") + letter(Player(s.arranger_)) + ") lays out the seeds");
    if (s.store(Player::South) != 0 || s.store(Player::North) != 0 || s.in_hand() != 0)
      bad("the stores are empty until play begins");
    for (int i = 0; i < slots; ++i) {
      const int v = s.board_[i];
      if (mirror && s.board_[rules.first_pit(Player::North) + i] != v)
        bad("pit " + std::to_string(i + 1) + " holds different counts in the two rows");
      if (i < s.setup_done_ && v < rules.setup_min)
        bad("a pit laid out holds at least " + std::to_string(rules.setup_min));
      if (i >= s.setup_done_ && v != 0)
        bad("only the first " + std::to_string(s.setup_done_) + " pits are laid out");
    }
    const int to_lay = mirror ? rules.total_seeds / 2 : rules.total_seeds;
    const int laid = mirror ? s.row_seeds(Player::South) : s.seeds_in_play();
    const int left = to_lay - laid, pits_left = slots - s.setup_done_;
    if (left < 0)
      bad("the pits laid out hold " + std::to_string(laid) + " seeds, more than the " +
          std::to_string(to_lay) + " to lay out");
    if (left < rules.setup_min * pits_left || left > kMaxSeedsPerHole * pits_left)
      bad(std::to_string(left) + " seeds are left for the last " + std::to_string(pits_left) +
          " pits, which take " + std::to_string(rules.setup_min) + " to " +
          std::to_string(kMaxSeedsPerHole) + " each");
  }
  for (int t : s.tuz_)
    if (t >= 0 && s.board_[t] != 0)
      throw ParseError("position '" + std::string(text) + "': the tuz " + pit_name(rules, t) +
                       " holds seeds; a tuz is always empty (its seeds go to its owner)");
  if (rules.general) {
    if (s.phase_ == Phase::Setup ? total > rules.total_seeds : total != rules.total_seeds)
      throw ParseError("position '" + std::string(text) + "' holds " + std::to_string(total) +
                       " seeds; " + rules.name + " is played with " +
                       std::to_string(rules.total_seeds));
    const State as_written = s;
    // A game that ended at the threshold ended there, before the turn passed (after_general).
    if (s.phase_ != Phase::Play || !s.threshold_ends()) s.check_general();
    if (rules.rounds != RoundKind::None && s.is_over()) {
      // A game of rounds that is over was written after its last round was counted (round,
      // starter, rounds won, match points): reading it must not count that round again.
      s.round_ = as_written.round_;
      s.round_starter_ = as_written.round_starter_;
      s.rounds_won_ = as_written.rounds_won_;
      s.match_ = as_written.match_;
      s.passed_ = as_written.passed_;
    }
    return s;
  }
  if (total != rules.total_seeds)
    throw ParseError("position '" + std::string(text) + "' holds " + std::to_string(total) +
                     " seeds; " + rules.name + " is played with " +
                     std::to_string(rules.total_seeds));
  s.check_end(opponent(s.mover_));
  return s;
}

std::string State::render() const {
  const Rules& r = *rules_;
  const int n = r.pits;
  auto cell = [&](int hole) {
    std::string t = std::to_string(board_[hole]);
    if (r.general && burnt(hole)) t = "x";
    if (r.extras && (hole == tuz_[0] || hole == tuz_[1])) t = "T";
    return std::string(4 - std::min<std::size_t>(t.size(), 3), ' ') + t;
  };
  // North's pits are drawn from South's point of view: North's pit n on the left.
  // Counter-clockwise games keep each store on its owner's right, clockwise on his left.
  const bool ccw = r.direction == Direction::Ccw;
  const int left_store = ccw ? store(Player::North) : store(Player::South);
  const int right_store = ccw ? store(Player::South) : store(Player::North);
  auto number = [](int v) {
    std::string t = std::to_string(v);
    return std::string(4 - std::min<std::size_t>(t.size(), 3), ' ') + t;
  };
  std::ostringstream out;
  std::string numbers_north = "      ", numbers_south = "      ", row_north = "      ",
              row_south = "      ", row_middle = "      ";
  const int north = r.first_pit(Player::North);
  for (int x = 0; x < n; ++x) {
    numbers_north += number(n - x);
    row_north += cell(north + n - 1 - x);
    numbers_south += number(x + 1);
    row_south += cell(x);
    if (r.rows == 3) row_middle += cell(n + x);
  }
  const bool waiting = !is_over() && !joint_pending();
  const std::string mark_n = waiting && mover_ == Player::North ? "  <- to move" : "";
  const std::string mark_s = waiting && mover_ == Player::South ? "  <- to move" : "";
  out << "      North" << mark_n << "\n" << numbers_north << "\n" << row_north << "\n";
  if (r.rows == 3)
    out << row_middle << "   (middle row)\n";
  else
    out << number(left_store) << "  " << std::string(4 * n, ' ') << number(right_store) << "\n";
  out << row_south << "\n"
      << numbers_south << "\n"
      << "      South" << mark_s << "\n";
  out << "      stores: South " << store(Player::South) << ", North " << store(Player::North)
      << "\n";
  if (r.extras) {
    if (owners_ != r.north_owned) {
      out << "      owners:";
      for (int h = 0; h < r.pit_count(); ++h)
        out << (h == n || h == 2 * n ? " " : "") << letter(owner_of(h));
      out << " (South's row, then North's, each from its owner's left)\n";
    }
    if (burnt_) out << "      x = burnt pit (skipped this round)\n";
    if (tuz_[0] >= 0 || tuz_[1] >= 0)
      out << "      T = tuz (its seeds go to the store of the other row's player)\n";
    switch (phase_) {
      case Phase::Play:
        break;
      case Phase::Setup:
        out << "      setup: " << name(mover_) << " lays out the seeds\n";
        break;
      case Phase::Pie:
        out << "      " << name(mover_) << " may turn the board round (swap) or keep it\n";
        break;
      case Phase::Joint:
        out << "      first move: both players choose a pit at once (South+North)\n";
        break;
      case Phase::JointTurn: {
        const Player other = opponent(mover_);
        out << "      first move: " << name(mover_)
            << "'s sowing ended in his store: he sows again; " << name(other) << " "
            << (hands_[index(other)].finished
                    ? "has finished"
                    : "holds " + std::to_string(hands_[index(other)].left) + " seeds in his hand")
            << "\n";
      } break;
      case Phase::Claim:
        out << "      " << name(mover_) << " claims pits of the loser's row\n";
        break;
    }
    if (r.rounds != RoundKind::None) {
      out << "      round " << round_;
      if (r.rounds == RoundKind::Points)
        out << ", set points: South " << match_[0] << ", North " << match_[1];
      out << "\n";
    }
  }
  return out.str();
}

nlohmann::json State::board_json() const {
  const Rules& r = *rules_;
  nlohmann::json rows = nlohmann::json::array();
  for (Player p : {Player::South, Player::North}) {
    nlohmann::json row = nlohmann::json::array();
    for (int i = 0; i < r.pits; ++i) row.push_back(pit(p, i));
    rows.push_back(row);
  }
  nlohmann::json extra = nlohmann::json::object();
  if (r.extras) {
    if (r.rows == 3) {
      nlohmann::json middle = nlohmann::json::array(), from_north = nlohmann::json::array();
      for (int i = 0; i < r.pits; ++i) middle.push_back(board_[r.pits + i]);
      for (int i = r.pits - 1; i >= 0; --i) from_north.push_back(board_[r.pits + i]);
      extra["middle_row"] = middle;  // columns from South's left
      rows.push_back(from_north);    // rows[2]: the middle row from North's left (web/src/boards)
    }
    nlohmann::json owners = nlohmann::json::array(), burnt_pits = nlohmann::json::array(),
                   tuz_pits = nlohmann::json::array();
    for (int h = 0; h < r.pit_count(); ++h) {
      owners.push_back(std::string(1, letter(owner_of(h))));
      if (burnt(h)) burnt_pits.push_back(pit_name(r, h));
      if (h == tuz_[0] || h == tuz_[1]) tuz_pits.push_back(pit_name(r, h));
    }
    // "tuz": per player, the index (in the other's row) of his tuz, or null.
    nlohmann::json tuz = nlohmann::json::array();
    for (Player p : {Player::South, Player::North}) {
      const int t = tuz_[index(p)];
      if (t < 0)
        tuz.push_back(nullptr);
      else
        tuz.push_back(t - r.first_pit(opponent(p)));
    }
    extra["tuz"] = tuz;
    extra["tuz_pits"] = tuz_pits;
    extra["owners"] = owners;
    extra["burnt"] = burnt_pits;
    // joint_extra: one player's extra sowing inside the simultaneous start, a decision of his.
    static constexpr const char* phases[] = {"play",  "setup", "pie",
                                             "joint", "claim", "joint_extra"};
    extra["phase"] = phases[static_cast<int>(phase_)];
    if (phase_ == Phase::JointTurn) {
      nlohmann::json hands = nlohmann::json::array();
      for (const JointHand& h : hands_)
        hands.push_back({{"in_hand", h.left}, {"finished", h.finished != 0}});
      extra["joint_hands"] = hands;
    }
    if (r.rounds != RoundKind::None) {
      extra["round"] = round_;
      extra["rounds_won"] = {rounds_won_[0], rounds_won_[1]};
      extra["last_round"] = {last_round_[0], last_round_[1]};
      if (r.rounds == RoundKind::Points) extra["match_points"] = {match_[0], match_[1]};
    }
  }
  nlohmann::json out = {{"family", "sowing"},
                        {"pits", r.pits},
                        {"rows", rows},
                        {"stores", {store(Player::South), store(Player::North)}},
                        {"stores_sown", r.stores != StoreSowing::None},
                        {"direction", r.direction == Direction::Ccw ? "ccw" : "cw"},
                        {"to_move", std::string(name(mover_))},
                        {"position", position()}};
  out.update(extra);
  return out;
}

void trace_lap(const State& s) {
  sow_trace->lap(s.board_json());
}

}  // namespace naqala::sowing
