// Turn structure, cube, scoring and match score of backgammon.
#include "games/backgammon/backgammon.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/rng.h"

namespace naqala::backgammon {

Board start_board() {
  Side s{};
  s[23] = 2;  // 24-point
  s[12] = 5;  // mid-point
  s[7] = 3;   // 8-point
  s[5] = 5;   // 6-point
  return {s, s};
}

int pip_count(const Side& side) {
  int pips = 0;
  for (int i = 0; i < 25; ++i) pips += side[i] * (i + 1);
  return pips;
}

int checkers_off(const Side& side) {
  int on = 0;
  for (int i = 0; i < 25; ++i) on += side[i];
  return kCheckers - on;
}

State::State(const Rules& rules) : board_(start_board()), rules_(rules) {}

std::optional<Player> State::cube_owner() const {
  if (cube_owner_ < 0) return std::nullopt;
  return static_cast<Player>(cube_owner_);
}

bool State::may_double(Player p) const {
  if (!rules_.cube || crawford_game_ || cube_log_ >= kMaxCubeLog) return false;
  return cube_owner_ < 0 || cube_owner_ == index(p);
}

Player State::to_move() const {
  if (phase_ == Phase::Doubled || offer_) return opponent(turn_);
  return turn_;
}

void State::start_turn(Player p) {
  turn_ = p;
  dice_ = {0, 0};
  declined_ = 0;
  phase_ = may_double(p) ? Phase::TurnStart : Phase::Rolling;
}

void State::legal_moves(MoveList& out) const {
  out.clear();
  if (offer_) {
    out.push_back(Move::of(Move::Kind::Accept));
    out.push_back(Move::of(Move::Kind::Decline));
    return;
  }
  switch (phase_) {
    case Phase::TurnStart:
      out.push_back(Move::of(Move::Kind::Roll));
      out.push_back(Move::of(Move::Kind::Double));
      return;
    case Phase::Doubled:
      out.push_back(Move::of(Move::Kind::Take));
      out.push_back(Move::of(Move::Kind::Drop));
      return;
    case Phase::Moving:
      generate_moves(board_, turn_, dice_[0], dice_[1], out);
      if (out.empty()) out.push_back(Move::of(Move::Kind::Pass));
      return;
    default:
      return;  // chance nodes and finished games have no decisions
  }
}

void State::play(const Move& m) {
  switch (m.kind) {
    case Move::Kind::Accept:
      finish_game(opponent(turn_), resignation_value(offer_), false, true);
      return;
    case Move::Kind::Decline:
      declined_ = offer_;
      offer_ = 0;
      return;
    case Move::Kind::Roll:
      phase_ = Phase::Rolling;
      return;
    case Move::Kind::Double:
      phase_ = Phase::Doubled;
      return;
    case Move::Kind::Take:
      ++cube_log_;
      cube_owner_ = static_cast<std::int8_t>(index(opponent(turn_)));
      phase_ = Phase::Rolling;
      return;
    case Move::Kind::Drop:
      finish_game(turn_, 1, true);
      return;
    case Move::Kind::Pass:
      start_turn(opponent(turn_));
      return;
    case Move::Kind::Checkers:
      apply_steps(board_, turn_, m);
      // Only a move that bears off can end the game.
      if (m.count && m.steps[m.count - 1].to < 0 &&
          checkers_off(board_[index(turn_)]) == kCheckers) {
        finish_game(turn_, game_multiplier(turn_), false);
        return;
      }
      start_turn(opponent(turn_));
      return;
  }
}

int State::game_multiplier(Player winner) const {
  const Side& loser = board_[index(opponent(winner))];
  const int off = checkers_off(loser);
  int mult = 1;
  if (rules_.scoring == Scoring::Seed) {
    // S3: 3 while the loser still has checkers outside his home board, 2 if all are home
    // but none borne off.
    bool all_home = true;
    for (int i = 6; i < 25; ++i)
      if (loser[i]) all_home = false;
    mult = !all_home ? 3 : (off == 0 ? 2 : 1);
  } else if (off == 0) {
    // The loser's checkers in the winner's home board are on the loser's points 19-24.
    bool back = loser[kBar] > 0;
    for (int i = 18; i < 24; ++i)
      if (loser[i]) back = true;
    mult = back ? 3 : 2;
  }
  if (rules_.jacoby && rules_.is_money() && rules_.cube && cube_log_ == 0) mult = 1;
  return mult;
}

void State::finish_game(Player winner, int multiplier, bool dropped, bool resigned) {
  const int points = multiplier << cube_log_;
  last_ = {winner, points, multiplier, dropped, resigned};
  dice_ = {0, 0};
  offer_ = declined_ = 0;
  ++games_played_;
  if (rules_.is_money()) {
    phase_ = Phase::GameOver;
    turn_ = winner;
    return;
  }
  const int w = index(winner);
  const bool someone_one_away_before =
      rules_.match > 0 && (score_[0] == rules_.match - 1 || score_[1] == rules_.match - 1);
  // Saturated: a cube of 2^14 on a backgammon is 49,152 points, which wrapped the 16-bit score
  // to -16,384 and went on with a match already won (fuzz_position; a match is <= 32,767).
  score_[w] = static_cast<std::int16_t>(std::min(score_[w] + points, 0x7fff));
  const bool over = rules_.match > 0 ? score_[w] >= rules_.match : games_played_ >= rules_.series;
  if (over) {
    phase_ = Phase::GameOver;
    turn_ = winner;
    return;
  }
  // The game after a player first reaches match-1 is the Crawford game: no doubling.
  crawford_game_ = rules_.match > 0 && rules_.crawford && !someone_one_away_before &&
                   score_[w] == rules_.match - 1;
  board_ = start_board();
  cube_log_ = 0;
  cube_owner_ = -1;
  phase_ = Phase::Opening;
  turn_ = Player::South;
}

Outcome State::outcome() const {
  Outcome o;
  if (phase_ != Phase::GameOver) return o;
  o.reason = last_.dropped || last_.resigned ? EndReason::Resignation : EndReason::BorneOff;
  if (rules_.is_money()) {
    o.winner = last_.winner;
    o.scores[index(last_.winner)] = last_.points;
    return o;
  }
  o.scores = {score_[0], score_[1]};
  if (score_[0] != score_[1]) o.winner = score_[0] > score_[1] ? Player::South : Player::North;
  return o;
}

std::uint64_t State::hash() const {
  std::uint64_t h = 0x6261636b67616d6dULL;
  auto mix = [&h](std::uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    std::uint64_t x = h;
    h = splitmix64(x);
  };
  for (int p = 0; p < 2; ++p) {
    std::uint64_t lo = 0, hi = 0;
    for (int i = 0; i < 16; ++i) lo |= std::uint64_t(board_[p][i]) << (4 * i);
    for (int i = 16; i < 25; ++i) hi |= std::uint64_t(board_[p][i]) << (4 * (i - 16));
    mix(lo);
    mix(hi);
  }
  mix(std::uint64_t(phase_) | std::uint64_t(index(turn_)) << 8 | std::uint64_t(dice_[0]) << 16 |
      std::uint64_t(dice_[1]) << 24 | std::uint64_t(cube_log_) << 32 |
      std::uint64_t(std::uint8_t(cube_owner_)) << 40 | std::uint64_t(crawford_game_) << 48 |
      std::uint64_t(offer_) << 52 | std::uint64_t(declined_) << 56);
  mix(std::uint64_t(std::uint16_t(score_[0])) | std::uint64_t(std::uint16_t(score_[1])) << 16 |
      std::uint64_t(std::uint16_t(games_played_)) << 32);
  return h;
}

void State::chance_outcomes(ChanceList& out) const {
  out.clear();
  if (phase_ == Phase::Opening) {
    for (int a = 1; a <= 6; ++a)
      for (int b = 1; b <= 6; ++b)
        if (a != b)
          out.push_back({{static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)}, 1.0 / 30});
    return;
  }
  if (phase_ != Phase::Rolling) return;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= a; ++b)
      out.push_back({{static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)},
                     a == b ? 1.0 / 36 : 2.0 / 36});
}

void State::apply_chance(const Chance& c) {
  const auto hi = std::max(c.a, c.b), lo = std::min(c.a, c.b);
  if (phase_ == Phase::Opening) {
    turn_ = c.a > c.b ? Player::South : Player::North;
  }
  dice_ = {hi, lo};
  phase_ = Phase::Moving;
}

std::string State::format_chance(const Chance& c) const {
  return std::to_string(c.a) + "-" + std::to_string(c.b);
}

std::optional<Chance> State::parse_chance(std::string_view text) const {
  std::string digits;
  for (char ch : text)
    if (std::isdigit(static_cast<unsigned char>(ch)))
      digits += ch;
    else if (ch != '-' && ch != ' ' && ch != ',')
      return std::nullopt;
  if (digits.size() != 2) return std::nullopt;
  const int a = digits[0] - '0', b = digits[1] - '0';
  if (a < 1 || a > 6 || b < 1 || b > 6) return std::nullopt;
  if (phase_ == Phase::Opening) {
    if (a == b) return std::nullopt;  // an opening tie is re-rolled, never played
    return Chance{static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)};
  }
  return Chance{static_cast<std::uint8_t>(std::max(a, b)),
                static_cast<std::uint8_t>(std::min(a, b))};
}

std::string State::format_move(const Move& m) const {
  switch (m.kind) {
    case Move::Kind::Roll:
      return "roll";
    case Move::Kind::Double:
      return "double";
    case Move::Kind::Take:
      return "take";
    case Move::Kind::Drop:
      return "drop";
    case Move::Kind::Pass:
      return "pass";
    case Move::Kind::Accept:
      return "accept";
    case Move::Kind::Decline:
      return "decline";
    case Move::Kind::Checkers:
      return format_checker_move(board_, turn_, m);
  }
  return "?";
}

std::optional<Move> State::parse_move(std::string_view text) const {
  std::string word;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch)))
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (offer_) {  // the answer to a resignation offer (gnubg's words too)
    if (word == "accept" || word == "agree" || word == "yes") return Move::of(Move::Kind::Accept);
    if (word == "decline" || word == "reject" || word == "refuse" || word == "no")
      return Move::of(Move::Kind::Decline);
  }
  if (word == "roll" || word == "r") return Move::of(Move::Kind::Roll);
  if (word == "double" || word == "d") return Move::of(Move::Kind::Double);
  if (word == "take" || word == "accept" || word == "t") return Move::of(Move::Kind::Take);
  if (word == "drop" || word == "reject" || word == "refuse") return Move::of(Move::Kind::Drop);
  if (word == "pass" || word == "dance" || word.empty())
    return Move::of(phase_ == Phase::Doubled ? Move::Kind::Drop : Move::Kind::Pass);
  auto steps = parse_checker_steps(text);
  if (!steps) return std::nullopt;
  if (phase_ != Phase::Moving) return steps;
  // The move is what it does: find the legal move with the same resulting position.
  Board target = board_;
  if (!apply_steps(target, turn_, *steps)) return steps;
  MoveList moves;
  legal_moves(moves);
  for (const Move& m : moves) {
    if (m.kind != Move::Kind::Checkers) continue;
    Board b = board_;
    apply_steps(b, turn_, m);
    if (b == target) return m;
  }
  return steps;
}

void State::resign(Player loser, int multiplier) {
  if (phase_ == Phase::GameOver || phase_ == Phase::Opening)
    throw IllegalMoveError("no game is in play to resign");
  if (multiplier < 1 || multiplier > 3)
    throw IllegalMoveError("a resignation is of a single (1), a gammon (2) or a backgammon (3)");
  finish_game(opponent(loser), multiplier, false, true);
}

int State::resignation_value(int multiplier) const {
  if (rules_.jacoby && rules_.is_money() && rules_.cube && cube_log_ == 0) return 1;
  return multiplier;
}

void State::offer_resignation(Player by, int multiplier) {
  if (phase_ == Phase::GameOver || phase_ == Phase::Opening)
    throw IllegalMoveError("no game is in play to resign");
  if (multiplier < 1 || multiplier > 3)
    throw IllegalMoveError(
        "a resignation offer is of a single (1), a gammon (2) or a backgammon (3)");
  if (offer_)
    throw IllegalMoveError(std::string(name(turn_)) +
                           "'s resignation offer waits for its answer: accept or decline");
  if (phase_ == Phase::Rolling)
    throw IllegalMoveError("the dice are to be rolled first; offer before rolling or after");
  if (phase_ == Phase::Doubled)
    throw IllegalMoveError(
        "a double waits for its answer: take, or drop (which gives up the game at the current "
        "cube)");
  if (by != turn_)
    throw IllegalMoveError("only the player on roll may offer to resign; it is " +
                           std::string(name(turn_)) + "'s turn");
  if (multiplier <= declined_)
    throw IllegalMoveError(
        "a resignation of this level or less was declined this turn; offer "
        "more, or play on");
  offer_ = static_cast<std::uint8_t>(multiplier);
}

void State::set_position(const Board& board, Player on_roll, int die0, int die1) {
  for (int p = 0; p < 2; ++p) {
    int n = 0;
    for (int i = 0; i < 25; ++i) n += board[p][i];
    if (n > kCheckers)
      throw ParseError(std::string(name(static_cast<Player>(p))) + " has " + std::to_string(n) +
                       " checkers; at most 15 are allowed");
  }
  for (int i = 0; i < 24; ++i)
    if (board[0][i] && board[1][23 - i])
      throw ParseError("both players have checkers on south's point " + std::to_string(i + 1));
  board_ = board;
  turn_ = on_roll;
  if (die0) {
    dice_ = {static_cast<std::uint8_t>(std::max(die0, die1)),
             static_cast<std::uint8_t>(std::min(die0, die1))};
    phase_ = Phase::Moving;
  } else {
    start_turn(on_roll);
  }
}

void State::set_cube(int cube, std::optional<Player> owner) {
  int log = 0;
  while ((1 << log) < cube) ++log;
  if ((1 << log) != cube || log > kMaxCubeLog)
    throw ParseError("cube value " + std::to_string(cube) + " is not a power of two up to 32768");
  cube_log_ = static_cast<std::uint8_t>(log);
  cube_owner_ = owner ? static_cast<std::int8_t>(index(*owner)) : std::int8_t{-1};
  if (phase_ == Phase::TurnStart || phase_ == Phase::Rolling) start_turn(turn_);
}

void State::set_score(int south, int north, bool crawford_game) {
  score_ = {static_cast<std::int16_t>(south), static_cast<std::int16_t>(north)};
  crawford_game_ = crawford_game;
  if (phase_ == Phase::TurnStart || phase_ == Phase::Rolling) start_turn(turn_);
}

}  // namespace naqala::backgammon
