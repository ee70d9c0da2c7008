#pragma once
// Backgammon (docs/games/backgammon.md): board, move generation, dice, doubling cube, match
// score. One ply is a complete move of all dice, a cube action (double / take / drop), the
// decision to roll when a double was possible, or a pass when the dice cannot be played.
// Rolls are chance nodes. The player on roll may offer to resign a single game, a gammon or a
// backgammon (offer_resignation); the opponent's only moves are then accept and decline.
//
// Each side's checkers are kept from its own point of view, as gnubg does: side[p][i] is the
// number of p's checkers on p's point i+1 (i = 0..23), side[p][24] its bar. Player p's point
// i is the opponent's point 23-i. South is gnubg's player 0, North its player 1.
#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/outcome.h"
#include "core/player.h"
#include "core/rng.h"
#include "core/static_vector.h"

namespace naqala::backgammon {

constexpr int kBar = 24;
constexpr int kCheckers = 15;
constexpr int kMaxCubeLog = 15;  // the match ID holds log2(cube) in 4 bits

enum class Scoring : std::uint8_t {
  Standard,  // 1 single, 2 gammon (none off), 3 backgammon (none off, one on bar or in winner's
             // home)
  Seed,      // S3: 3 if not all home, 2 if all home but none off, 1 otherwise
};

struct Rules {
  Scoring scoring = Scoring::Standard;
  bool cube = true;
  bool jacoby = false;   // money play: gammons count only once the cube was turned
  int match = 0;         // match to N points; 0 = no match
  bool crawford = true;  // Crawford rule in matches
  int series = 0;        // S3's series of N games, most points wins; 0 = no series
  bool operator==(const Rules&) const = default;
  bool is_money() const { return match == 0 && series == 0; }
};

using Side = std::array<std::uint8_t, 25>;
using Board = std::array<Side, 2>;

Board start_board();
int pip_count(const Side& side);
int checkers_off(const Side& side);

// One checker step from the mover's point of view: from 0..24 (24 = bar), to -1 = off.
struct Step {
  std::int8_t from = 0, to = 0;
  bool operator==(const Step&) const = default;
};

struct Move {
  enum class Kind : std::uint8_t { Checkers, Pass, Roll, Double, Take, Drop, Accept, Decline };
  Kind kind = Kind::Pass;
  std::uint8_t count = 0;  // steps used (Checkers)
  std::array<Step, 4> steps{};

  static Move of(Kind k) {
    Move m;
    m.kind = k;
    return m;
  }
  bool operator==(const Move& o) const {
    if (kind != o.kind || count != o.count) return false;
    for (int i = 0; i < count; ++i)
      if (!(steps[i] == o.steps[i])) return false;
    return true;
  }
};

// The most distinct legal moves a position can have is below gnubg's MAX_MOVES (3060).
constexpr std::size_t kMaxMoves = 3072;

// Fixed capacity and left uninitialised: clearing 30 KB per ply would cost more than
// generating the moves.
class MoveList {
 public:
  MoveList() {}
  void push_back(const Move& m) { moves_[size_++] = m; }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move& operator[](std::size_t i) { return moves_[i]; }
  const Move& operator[](std::size_t i) const { return moves_[i]; }
  Move* begin() { return moves_; }
  Move* end() { return moves_ + size_; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  bool contains(const Move& m) const {
    for (std::size_t i = 0; i < size_; ++i)
      if (moves_[i] == m) return true;
    return false;
  }
  void truncate(std::size_t n) { size_ = n; }

 private:
  Move moves_[kMaxMoves];
  std::size_t size_ = 0;
};

// A roll: at the opening, a is South's die and b North's (never equal); otherwise the two
// dice, higher first.
struct Chance {
  std::uint8_t a = 0, b = 0;
  bool operator==(const Chance&) const = default;
};
struct ChanceOutcome {
  Chance chance;
  double probability;
};
using ChanceList = StaticVector<ChanceOutcome, 30>;

enum class Phase : std::uint8_t {
  Opening,    // chance: each player rolls one die
  TurnStart,  // decision of the player on roll: roll or double
  Doubled,    // decision of the opponent: take or drop
  Rolling,    // chance: the player on roll rolls
  Moving,     // decision: play the dice
  GameOver,   // the game (money) or the match/series is over
};

// How the last finished game ended.
struct GameResult {
  Player winner = Player::South;
  int points = 0;      // what it was worth (cube and multiplier applied)
  int multiplier = 0;  // 1 single, 2 gammon, 3 backgammon (0 = no game finished yet)
  bool dropped = false;
  bool resigned = false;  // the loser resigned (an accepted offer, or an imported record)
  bool operator==(const GameResult&) const = default;
};

class State {
 public:
  using Move = backgammon::Move;
  using MoveList = backgammon::MoveList;
  using Chance = backgammon::Chance;
  using ChanceList = backgammon::ChanceList;

  State() : State(Rules{}) {}
  explicit State(const Rules& rules);

  // The gnubg ID "<position id>:<match id>"; the match ID's length, score and Jacoby flag
  // override `rules`. Throws ParseError saying what is wrong.
  static State from_gnubg_id(std::string_view id, const Rules& rules);

  // --- the game concept ---
  Player to_move() const;
  void legal_moves(MoveList& out) const;
  void play(const Move& m);
  bool is_over() const { return phase_ == Phase::GameOver; }
  Outcome outcome() const;
  std::uint64_t hash() const;

  bool is_chance_node() const { return phase_ == Phase::Opening || phase_ == Phase::Rolling; }
  void chance_outcomes(ChanceList& out) const;
  void apply_chance(const Chance& c);

  // --- text ---
  std::string format_move(const Move& m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string format_chance(const Chance& c) const;
  std::optional<Chance> parse_chance(std::string_view text) const;
  std::string position() const { return gnubg_id(); }
  std::string render() const;
  nlohmann::json board_json() const;

  // --- the field's formats ---
  std::string position_id() const;
  std::string match_id() const;
  std::string gnubg_id() const { return position_id() + ":" + match_id(); }

  // --- accessors ---
  const Rules& rules() const { return rules_; }
  const Board& board() const { return board_; }
  const Side& side(Player p) const { return board_[index(p)]; }
  Phase phase() const { return phase_; }
  Player on_roll() const { return turn_; }
  int die(int i) const { return dice_[i]; }
  int cube() const { return 1 << cube_log_; }
  // The cube's owner; nullopt when centred.
  std::optional<Player> cube_owner() const;
  int score(Player p) const { return score_[index(p)]; }
  bool crawford_game() const { return crawford_game_; }
  int games_played() const { return games_played_; }
  const GameResult& last_result() const { return last_; }
  int pips(Player p) const { return pip_count(side(p)); }
  bool may_double(Player p) const;
  // The resignation offered by the player on roll and not yet answered: 1 single, 2 gammon,
  // 3 backgammon; 0 = none. While one is pending the opponent is to move (accept or decline).
  int resignation_offered() const { return offer_; }
  // The highest level the opponent declined in this turn (0 = none): the player on roll may
  // only offer more in the same turn.
  int resignation_declined() const { return declined_; }
  // What an accepted resignation of `multiplier` scores, times the cube: the multiplier, but a
  // single under the Jacoby rule with the cube not yet turned (gammons do not count then).
  int resignation_value(int multiplier) const;
  // The player on roll offers to resign: before his roll or after it, not while a double is
  // pending. Throws IllegalMoveError saying why not (no game in play, not his turn, a level
  // outside 1-3 or not above one declined this turn).
  void offer_resignation(Player by, int multiplier);
  // True once a game has ended (money) or the match/series is decided.
  int game_number() const { return games_played_ + 1; }

  // Test and tool hooks: put checkers, dice and cube where a position says. No validation
  // beyond the counts (throws ParseError when a side has more than 15 checkers).
  void set_position(const Board& board, Player on_roll, int die0, int die1);
  void set_cube(int cube, std::optional<Player> owner);
  void set_score(int south, int north, bool crawford_game);
  // Ends the current game by `loser`'s resignation of a single (1), gammon (2) or
  // backgammon (3) at the current cube, as .mat files record them (an offer and its
  // acceptance at once). Throws IllegalMoveError when no game is in play.
  void resign(Player loser, int multiplier);

  bool operator==(const State&) const = default;

 private:
  friend struct Generator;
  void finish_game(Player winner, int multiplier, bool dropped, bool resigned = false);
  void start_turn(Player p);
  int game_multiplier(Player winner) const;

  Board board_{};
  Rules rules_{};
  Phase phase_ = Phase::Opening;
  Player turn_ = Player::South;  // the player on roll (the doubler while a double is pending)
  std::array<std::uint8_t, 2> dice_{0, 0};  // higher first; 0 = not rolled
  std::uint8_t cube_log_ = 0;
  std::int8_t cube_owner_ = -1;  // -1 centred, else index(Player)
  bool crawford_game_ = false;
  std::array<std::int16_t, 2> score_{0, 0};
  std::int16_t games_played_ = 0;
  GameResult last_{};
  std::uint8_t offer_ = 0;     // pending resignation offer of turn_ (1-3), 0 = none
  std::uint8_t declined_ = 0;  // highest offer of turn_ declined in this turn
};

// Two fair dice thrown for `s`, in the order thrown: at the opening a tie is thrown again.
// Random games, matches and benches roll with it.
inline Chance throw_dice(const State& s, Rng& rng) {
  Chance c;
  do {
    c.a = static_cast<std::uint8_t>(1 + rng.below(6));
    c.b = static_cast<std::uint8_t>(1 + rng.below(6));
  } while (s.phase() == Phase::Opening && c.a == c.b);
  return c;
}

// Legal checker moves of `mover` for dice d0, d1 on a board, in gnubg's generation order
// (the first sequence found for each distinct result is the one kept, which fixes the text).
void generate_moves(const Board& board, Player mover, int d0, int d1, MoveList& out);
// Applies checker steps for `mover` with no legality check beyond what the board allows;
// returns false if a step moves from an empty point or onto a made point.
bool apply_steps(Board& board, Player mover, const Move& m);
// gnubg's text for a checker move (FormatMove): "24/18 13/11", "bar/22*", "8/4(2)".
std::string format_checker_move(const Board& before, Player mover, const Move& m);
// Parses gnubg move text into steps (as written; "24/13" is one step). nullopt when the
// text is not move notation.
std::optional<Move> parse_checker_steps(std::string_view text);

}  // namespace naqala::backgammon
