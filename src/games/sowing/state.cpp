#include "games/sowing/state.h"

#include <charconv>
#include <sstream>

#include "core/error.h"

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
  // Every move would be a forbidden grand slam: the mover takes every seed left (S4c:333).
  end(EndReason::GrandSlam, Remaining::Emptied, mover_);
}

void State::end(EndReason reason, Remaining remaining, std::optional<Player> emptied) {
  const Rules& r = *rules_;
  reason_ = reason;
  bool swept = remaining == Remaining::None;
#if defined(__SSE2__)
  if (r.vector_play && !swept) {
    // Each row's seeds at once (every playout ends here; the loop below mispredicts).
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
  for (int h = 0; !swept && h < r.pit_count(); ++h) {  // the general and scalar paths
    if (board_[h] == 0) continue;
    const Player taker = remaining == Remaining::Owner ? r.owner(h) : *emptied;
    board_[r.store(taker)] += board_[h];
    board_[h] = 0;
  }
  if (r.tie == TieBreak::FirstEmpty && reason == EndReason::RowEmpty && emptied &&
      store(Player::South) == store(Player::North))
    result_ = *emptied == Player::South ? Result::SouthWins : Result::NorthWins;
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
  const Rules& r = *rules_;
  std::string out;
  for (int row = 0; row < r.rows; ++row) {
    for (int i = 0; i < r.pits; ++i) {
      if (i) out += ',';
      out += std::to_string(board_[row * r.pits + i]);
    }
    out += '/';
  }
  out += std::to_string(store(Player::South)) + ',' + std::to_string(store(Player::North)) + '/';
  out += letter(mover_);
  if (r.extras) out += position_extras();
  return out;
}

namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

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
  const std::string form =
      "the form is <south pits>/<north pits>/<south store>,<north store>/<S|N>, "
      "each row from its owner's left, e.g. " +
      initial(rules).position();
  auto fields = split(text, '/');
  const std::size_t base = static_cast<std::size_t>(rules.rows) + 2;
  if (fields.size() < base || (!rules.extras && fields.size() != base))
    throw ParseError("position '" + std::string(text) + "' has " + std::to_string(fields.size()) +
                     " '/'-separated fields, not " + std::to_string(base) + "; " + form);
  State s = initial(rules);
  s.reason_ = EndReason::None;
  s.result_ = Result::ByStores;
  s.phase_ = Phase::Play;
  int total = 0;
  for (int row = 0; row < rules.rows; ++row) {
    const std::string who = row == 0 ? "south" : row + 1 == rules.rows ? "north" : "middle";
    auto pits = split(fields[row], ',');
    if (static_cast<int>(pits.size()) != rules.pits)
      throw ParseError("position '" + std::string(text) + "': the " + who + " row has " +
                       std::to_string(pits.size()) + " pits; " + rules.name + " has " +
                       std::to_string(rules.pits) + "; " + form);
    for (int i = 0; i < rules.pits; ++i) {
      const int v = parse_count(pits[i], "pit", text);
      s.board_[row * rules.pits + i] = static_cast<std::uint8_t>(v);
      total += v;
    }
  }
  fields.erase(fields.begin() + 1,
               fields.begin() + rules.rows - 1);  // now: south, north, stores, side, ...
  auto stores = split(fields[2], ',');
  if (stores.size() != 2)
    throw ParseError("position '" + std::string(text) + "': the stores field needs two counts; " +
                     form);
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
  for (int t : s.tuz_)
    if (t >= 0 && s.board_[t] != 0)
      throw ParseError("position '" + std::string(text) + "': the tuz " + pit_name(rules, t) +
                       " holds seeds; a tuz is always empty (its seeds go to its owner)");
  if (rules.general) {
    if (s.phase_ == Phase::Setup ? total > rules.total_seeds : total != rules.total_seeds)
      throw ParseError("position '" + std::string(text) + "' holds " + std::to_string(total) +
                       " seeds; " + rules.name + " is played with " +
                       std::to_string(rules.total_seeds));
    s.check_general();
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

}  // namespace naqala::sowing
