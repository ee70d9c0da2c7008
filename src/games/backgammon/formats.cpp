// gnubg position and match IDs, FIBS board strings.
#include "games/backgammon/formats.h"

#include <algorithm>
#include <charconv>
#include <vector>

#include "core/error.h"

namespace naqala::backgammon {

namespace {

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Little-endian bit string over bytes, as gnubg packs its keys.
struct Bits {
  std::vector<std::uint8_t> bytes;
  explicit Bits(std::size_t n) : bytes(n, 0) {}
  void set(unsigned pos, unsigned nbits, unsigned value) {
    for (unsigned i = 0; i < nbits; ++i)
      if (value & (1u << i)) bytes[(pos + i) / 8] |= std::uint8_t(1u << ((pos + i) % 8));
  }
  unsigned get(unsigned pos, unsigned nbits) const {
    unsigned v = 0;
    for (unsigned i = 0; i < nbits; ++i)
      if (bytes[(pos + i) / 8] & (1u << ((pos + i) % 8))) v |= 1u << i;
    return v;
  }
  bool bit(unsigned pos) const { return bytes[pos / 8] & (1u << (pos % 8)); }
};

// gnubg's base64 of its keys: each 3 bytes as 4 characters, most significant bits first.
std::string to_base64(const std::vector<std::uint8_t>& b, std::size_t chars) {
  std::string s;
  std::size_t i = 0;
  while (s.size() < chars) {
    const unsigned b0 = b[i], b1 = i + 1 < b.size() ? b[i + 1] : 0,
                   b2 = i + 2 < b.size() ? b[i + 2] : 0;
    s += kBase64[b0 >> 2];
    s += kBase64[((b0 & 3) << 4) | (b1 >> 4)];
    if (s.size() < chars) s += kBase64[((b1 & 15) << 2) | (b2 >> 6)];
    if (s.size() < chars) s += kBase64[b2 & 63];
    i += 3;
  }
  return s;
}

std::vector<std::uint8_t> from_base64(std::string_view text, std::size_t nbytes, const char* what) {
  std::vector<int> v;
  for (char c : text) {
    const int x = base64_value(c);
    if (x < 0)
      throw ParseError(std::string(what) + " '" + std::string(text) + "' contains '" +
                       std::string(1, c) + "', which is not a base64 character (A-Z a-z 0-9 + /)");
    v.push_back(x);
  }
  while (v.size() % 4) v.push_back(0);
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < v.size(); i += 4) {
    out.push_back(std::uint8_t((v[i] << 2) | (v[i + 1] >> 4)));
    out.push_back(std::uint8_t((v[i + 1] << 4) | (v[i + 2] >> 2)));
    out.push_back(std::uint8_t((v[i + 2] << 6) | v[i + 3]));
  }
  out.resize(nbytes);
  return out;
}

int to_int(std::string_view field, const char* what, std::string_view text) {
  int v = 0;
  const auto* end = field.data() + field.size();
  auto [p, ec] = std::from_chars(field.data(), end, v);
  if (ec != std::errc() || p != end)
    throw ParseError("FIBS board field " + std::string(what) + " is '" + std::string(field) +
                     "', not a number, in '" + std::string(text) + "'");
  return v;
}

}  // namespace

std::string encode_position_id(const Board& board, Player on_roll) {
  Bits bits(10);
  unsigned pos = 0;
  for (Player p : {opponent(on_roll), on_roll}) {
    for (int i = 0; i < 25; ++i) {
      for (int k = 0; k < board[index(p)][i]; ++k) bits.set(pos++, 1, 1);
      ++pos;
    }
  }
  return to_base64(bits.bytes, 14);
}

Board decode_position_id(std::string_view id, Player on_roll) {
  if (id.size() != 14)
    throw ParseError("position ID '" + std::string(id) + "' has " + std::to_string(id.size()) +
                     " characters; a gnubg position ID has 14 (e.g. 4HPwATDgc/ABMA)");
  Bits bits(10);
  bits.bytes = from_base64(id, 10, "position ID");
  Board b{};
  int side = 0, point = 0;
  unsigned pos = 0;
  for (; pos < 80 && side < 2; ++pos) {
    if (bits.bit(pos)) {
      Player p = side == 0 ? opponent(on_roll) : on_roll;
      if (++b[index(p)][point] > kCheckers)
        throw ParseError("position ID '" + std::string(id) +
                         "' puts more than 15 checkers on one point");
    } else if (++point == 25) {
      point = 0;
      ++side;
    }
  }
  if (side < 2)
    throw ParseError("position ID '" + std::string(id) +
                     "' is not valid: it describes more than 15 checkers");
  for (; pos < 80; ++pos)
    if (bits.bit(pos))
      throw ParseError("position ID '" + std::string(id) + "' has stray bits after both sides");
  for (int p = 0; p < 2; ++p) {
    int n = 0;
    for (int i = 0; i < 25; ++i) n += b[p][i];
    if (n > kCheckers)
      throw ParseError("position ID '" + std::string(id) + "' gives a player " + std::to_string(n) +
                       " checkers; at most 15 are allowed");
  }
  for (int i = 0; i < 24; ++i)
    if (b[0][i] && b[1][23 - i])
      throw ParseError("position ID '" + std::string(id) + "' puts both players on the same point");
  return b;
}

std::string encode_match_id(const MatchKey& k) {
  Bits bits(9);
  int log = 0;
  while ((1 << log) < k.cube) ++log;
  bits.set(0, 4, log);
  bits.set(4, 2, k.cube_owner & 3);
  bits.set(6, 1, k.on_roll);
  bits.set(7, 1, k.crawford);
  bits.set(8, 3, k.game_state);
  bits.set(11, 1, k.turn);
  bits.set(12, 1, k.doubled);
  bits.set(13, 2, k.resigned);
  bits.set(15, 3, std::max(k.dice[0], k.dice[1]));
  bits.set(18, 3, std::min(k.dice[0], k.dice[1]));
  bits.set(21, 15, k.match_to & 0x7fff);
  bits.set(36, 15, k.score[0] & 0x7fff);
  bits.set(51, 15, k.score[1] & 0x7fff);
  bits.set(66, 1, !k.jacoby);
  return to_base64(bits.bytes, 12);
}

MatchKey decode_match_id(std::string_view id) {
  if (id.size() != 12)
    throw ParseError("match ID '" + std::string(id) + "' has " + std::to_string(id.size()) +
                     " characters; a gnubg match ID has 12 (e.g. cAgAAAAAAAAA)");
  Bits bits(9);
  bits.bytes = from_base64(id, 9, "match ID");
  MatchKey k;
  k.cube = 1 << bits.get(0, 4);
  k.cube_owner = static_cast<int>(bits.get(4, 2));
  k.on_roll = static_cast<int>(bits.get(6, 1));
  k.crawford = bits.get(7, 1);
  k.game_state = static_cast<int>(bits.get(8, 3));
  k.turn = static_cast<int>(bits.get(11, 1));
  k.doubled = bits.get(12, 1);
  k.resigned = static_cast<int>(bits.get(13, 2));
  // Higher die first, as encode_match_id writes them (gnubg keeps the order rolled; the game
  // does not depend on it), so that an ID reads back as the same key.
  k.dice = {static_cast<int>(bits.get(15, 3)), static_cast<int>(bits.get(18, 3))};
  if (k.dice[0] < k.dice[1]) std::swap(k.dice[0], k.dice[1]);
  k.match_to = static_cast<int>(bits.get(21, 15));
  k.score = {static_cast<int>(bits.get(36, 15)), static_cast<int>(bits.get(51, 15))};
  k.jacoby = !bits.get(66, 1);
  const std::string where = "match ID '" + std::string(id) + "' ";
  if (k.cube_owner == 2)
    throw ParseError(where + "has cube owner 2; allowed are 0, 1 and 3 (centred)");
  if (k.game_state > 4)
    throw ParseError(where + "has game state " + std::to_string(k.game_state) + "; allowed 0-4");
  for (int d : k.dice)
    if (d > 6)
      throw ParseError(where + "has a die of " + std::to_string(d) +
                       "; dice are 1-6 (0 = not rolled)");
  if ((k.dice[0] == 0) != (k.dice[1] == 0)) throw ParseError(where + "has only one die rolled");
  if (k.match_to > 0 && (k.score[0] > k.match_to || k.score[1] > k.match_to))
    throw ParseError(where + "has a score above the match length " + std::to_string(k.match_to));
  if (k.match_to == 0 && k.crawford)
    throw ParseError(where + "marks a Crawford game in money play");
  return k;
}

std::string State::position_id() const {
  return encode_position_id(board_, turn_);
}

std::string State::match_id() const {
  MatchKey k;
  k.cube = cube();
  k.cube_owner = cube_owner_ < 0 ? 3 : cube_owner_;
  k.on_roll = index(turn_);
  k.crawford = crawford_game_;
  switch (phase_) {
    case Phase::Opening:
      k.game_state = 0;
      break;
    case Phase::GameOver:
      k.game_state = last_.dropped ? 4 : last_.resigned ? 3 : 2;
      break;
    default:
      k.game_state = 1;
  }
  k.turn = index(to_move());
  k.doubled = phase_ == Phase::Doubled;
  k.resigned = offer_;
  k.dice = {dice_[0], dice_[1]};
  k.match_to = rules_.match;
  if (rules_.is_money() && phase_ == Phase::GameOver) {
    k.score[index(last_.winner)] = last_.points;
  } else {
    // Money play keeps the session's score the ID came with (naqala's own games leave it 0).
    for (int p = 0; p < 2; ++p)
      k.score[p] = rules_.match > 0 ? std::min<int>(score_[p], rules_.match)
                                    : std::min<int>(score_[p], 0x7fff);
  }
  k.jacoby = rules_.jacoby;
  return encode_match_id(k);
}

State State::from_gnubg_id(std::string_view id, const Rules& base) {
  const auto colon = id.find(':');
  if (colon == std::string_view::npos)
    throw ParseError(
        "'" + std::string(id) +
        "' is not a gnubg ID; write <position id>:<match id>, e.g. 4HPwATDgc/ABMA:cAgAAAAAAAAA");
  const std::string_view pos = id.substr(0, colon), mid = id.substr(colon + 1);
  const MatchKey k = decode_match_id(mid);
  Rules rules = base;
  if (k.match_to > 0) {
    rules.match = k.match_to;
    rules.series = 0;
  } else if (base.match > 0) {
    rules.match = 0;
  }
  if (rules.is_money()) rules.jacoby = k.jacoby;
  if (k.crawford) rules.crawford = true;
  if ((k.cube > 1 || k.cube_owner != 3 || k.doubled) && !rules.cube) rules.cube = true;

  const Player roller = static_cast<Player>(k.on_roll);
  State s(rules);
  s.board_ = decode_position_id(pos, roller);
  s.turn_ = roller;
  s.cube_log_ = 0;
  while ((1 << s.cube_log_) < k.cube) ++s.cube_log_;
  s.cube_owner_ = k.cube_owner == 3 ? std::int8_t{-1} : static_cast<std::int8_t>(k.cube_owner);
  s.crawford_game_ = k.crawford;
  if (!rules.is_money() || k.game_state < 2)
    s.score_ = {static_cast<std::int16_t>(k.score[0]), static_cast<std::int16_t>(k.score[1])};
  s.dice_ = {static_cast<std::uint8_t>(std::max(k.dice[0], k.dice[1])),
             static_cast<std::uint8_t>(std::min(k.dice[0], k.dice[1]))};
  const std::string where = "gnubg ID '" + std::string(id) + "' ";
  switch (k.game_state) {
    case 0:
      s.phase_ = Phase::Opening;
      s.dice_ = {0, 0};
      s.turn_ = Player::South;
      break;
    case 1:
      if (k.doubled) {
        if (k.turn == k.on_roll)
          throw ParseError(where + "has a double pending but the doubler to decide");
        if (s.dice_[0]) throw ParseError(where + "has a double pending after the dice were rolled");
        s.phase_ = Phase::Doubled;
      } else if (s.dice_[0]) {
        s.phase_ = Phase::Moving;
      } else {
        s.start_turn(roller);
      }
      if (k.resigned) {
        // gnubg: the player on roll offered to resign; the opponent decides.
        if (k.doubled) throw ParseError(where + "has both a double and a resignation pending");
        if (k.turn == k.on_roll)
          throw ParseError(where + "has a resignation pending but the resigner to decide");
        if (s.phase_ == Phase::Rolling)
          throw ParseError(where + "has a resignation offered by a player who must roll first");
        s.offer_ = static_cast<std::uint8_t>(k.resigned);
      }
      if (k.turn != k.on_roll && !k.doubled && !k.resigned)
        throw ParseError(where +
                         "gives the decision to the player not on roll without a double or a "
                         "resignation");
      if (checkers_off(s.board_[0]) == kCheckers || checkers_off(s.board_[1]) == kCheckers)
        throw ParseError(where + "is a game in play in which a player has borne off all checkers");
      break;
    default: {
      s.phase_ = Phase::GameOver;
      s.dice_ = {0, 0};
      const bool dropped = k.game_state == 4, resigned = k.game_state == 3;
      Player winner = roller;
      if (!dropped && !resigned) {
        if (checkers_off(s.board_[0]) == kCheckers)
          winner = Player::South;
        else if (checkers_off(s.board_[1]) == kCheckers)
          winner = Player::North;
        else
          throw ParseError(where + "says the game is over but nobody has borne off all checkers");
      }
      const int mult = dropped || resigned ? 1 : s.game_multiplier(winner);
      const int points =
          rules.is_money() && k.score[index(winner)] ? k.score[index(winner)] : mult * k.cube;
      s.last_ = {winner, points, mult, dropped, resigned};
      s.turn_ = winner;
      s.games_played_ = 1;
      if (!rules.is_money() && rules.match > 0 && s.score_[index(winner)] < rules.match)
        throw ParseError(
            where + "says the game is over but the match is not decided; give the next game's ID");
    }
  }
  return s;
}

// --- FIBS boards ---

std::string write_fibs_board(const FibsBoard& b) {
  std::string s = "board:";
  for (char c : b.you_name) s += c == ':' ? '_' : c;
  s += ':';
  for (char c : b.opp_name) s += c == ':' ? '_' : c;
  auto add = [&s](int v) { s += ':' + std::to_string(v); };
  add(b.match_to == 0 ? 9999 : b.match_to);
  add(b.you_score);
  add(b.opp_score);
  // Fields 0..25 with You moving 24 -> 1 (direction -1): You's checkers positive.
  add(-static_cast<int>(b.opp[kBar]));
  for (int point = 1; point <= 24; ++point) {
    const int o = b.opp[24 - point];
    add(o ? -o : b.you[point - 1]);
  }
  add(b.you[kBar]);
  add(b.turn);
  add(b.you_dice[0]);
  add(b.you_dice[1]);
  add(b.opp_dice[0]);
  add(b.opp_dice[1]);
  add(b.cube);
  add(b.you_may_double);
  add(b.opp_may_double);
  add(b.doubled);
  add(1);   // colour
  add(-1);  // direction
  add(0);   // home
  add(25);  // bar
  add(checkers_off(b.you));
  add(checkers_off(b.opp));
  add(b.you[kBar]);
  add(b.opp[kBar]);
  add(0);  // can move
  add(b.crawford ? 0 : (b.post_crawford ? 1 : 0));
  add(b.post_crawford);
  add(0);  // redoubles
  return s;
}

FibsBoard parse_fibs_board(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' '))
    t.remove_suffix(1);
  if (!t.starts_with("board:"))
    throw ParseError("a FIBS board starts with 'board:'; got '" + std::string(text.substr(0, 40)) +
                     "'");
  std::vector<std::string_view> f;
  std::string_view rest = t.substr(6);
  while (true) {
    const auto c = rest.find(':');
    f.push_back(rest.substr(0, c));
    if (c == std::string_view::npos) break;
    rest = rest.substr(c + 1);
  }
  // names(2), match, scores(2), board(26), turn, dice(4), cube, may double(2), doubled,
  // colour, direction = 42 fields at least.
  if (f.size() < 42)
    throw ParseError("FIBS board has " + std::to_string(f.size()) +
                     " fields; at least 42 are needed in '" + std::string(t) + "'");
  FibsBoard b;
  b.you_name = std::string(f[0]);
  b.opp_name = std::string(f[1]);
  b.match_to = to_int(f[2], "match length", t);
  if (b.match_to == 9999) b.match_to = 0;
  b.you_score = to_int(f[3], "score", t);
  b.opp_score = to_int(f[4], "opponent score", t);
  int fields[26];
  for (int i = 0; i < 26; ++i) fields[i] = to_int(f[5 + i], "board", t);
  b.turn = to_int(f[31], "turn", t);
  b.you_dice = {to_int(f[32], "dice", t), to_int(f[33], "dice", t)};
  b.opp_dice = {to_int(f[34], "dice", t), to_int(f[35], "dice", t)};
  b.cube = to_int(f[36], "cube", t);
  b.you_may_double = to_int(f[37], "may double", t) != 0;
  b.opp_may_double = to_int(f[38], "may double", t) != 0;
  b.doubled = to_int(f[39], "was doubled", t);
  b.color = to_int(f[40], "colour", t);
  b.direction = to_int(f[41], "direction", t);
  if (b.color != 1 && b.color != -1)
    throw ParseError("FIBS board colour must be 1 or -1 in '" + std::string(t) + "'");
  if (b.direction != 1 && b.direction != -1)
    throw ParseError("FIBS board direction must be 1 or -1 in '" + std::string(t) + "'");
  if (f.size() >= 51) {
    b.post_crawford = to_int(f[50], "post-Crawford", t) != 0;
    const bool non_crawford = to_int(f[49], "non-Crawford", t) != 0;
    const bool one_away =
        b.match_to > 0 && (b.match_to - b.you_score == 1 || b.match_to - b.opp_score == 1);
    b.crawford = one_away && !non_crawford && !b.post_crawford;
  }
  for (int k = 1; k <= 24; ++k) {
    const int n = fields[k];
    const int you_point = b.direction < 0 ? k : 25 - k;
    if (n * b.color > 0) b.you[you_point - 1] = static_cast<std::uint8_t>(std::abs(n));
    if (n * b.color < 0) b.opp[24 - you_point] = static_cast<std::uint8_t>(std::abs(n));
  }
  b.you[kBar] = static_cast<std::uint8_t>(std::abs(fields[b.direction < 0 ? 25 : 0]));
  b.opp[kBar] = static_cast<std::uint8_t>(std::abs(fields[b.direction < 0 ? 0 : 25]));
  for (const Side* side : {&b.you, &b.opp}) {
    int n = 0;
    for (int i = 0; i < 25; ++i) n += (*side)[i];
    if (n > kCheckers)
      throw ParseError("FIBS board gives a player " + std::to_string(n) +
                       " checkers (at most 15): '" + std::string(t) + "'");
  }
  return b;
}

FibsBoard fibs_board_of(const State& s, std::string_view south_name, std::string_view north_name) {
  FibsBoard b;
  const Player you = s.phase() == Phase::Doubled ? s.on_roll() : s.to_move();
  const Player opp = opponent(you);
  b.you_name = std::string(you == Player::South ? south_name : north_name);
  b.opp_name = std::string(you == Player::South ? north_name : south_name);
  b.match_to = s.rules().match;
  b.you_score = s.score(you);
  b.opp_score = s.score(opp);
  b.you = s.side(you);
  b.opp = s.side(opp);
  b.turn = 1;
  if (s.phase() == Phase::Moving) b.you_dice = {s.die(0), s.die(1)};
  b.cube = s.cube();
  const auto owner = s.cube_owner();
  b.you_may_double = s.crawford_game() || !owner || *owner == you;
  b.opp_may_double = s.crawford_game() || !owner || *owner == opp;
  b.doubled = s.phase() == Phase::Doubled ? 1 : 0;
  b.crawford = s.crawford_game();
  const int n = s.rules().match;
  b.post_crawford = n > 0 && !s.crawford_game() && (s.score(you) == n - 1 || s.score(opp) == n - 1);
  return b;
}

}  // namespace naqala::backgammon
