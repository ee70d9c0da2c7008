#pragma once
// Type erasure over every game: what the CLI, the server and Python see. A typed state
// is wrapped by TypedState<S> (typed_state.h); a ruleset family registers a factory in
// the registry (registry.h).
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.h"
#include "core/player.h"
#include "core/rng.h"

namespace naqala {

// One user-settable option of a variant, as `naqala variants` lists it.
struct OptionInfo {
  std::string name;
  std::string help;
  std::string type;                  // "int", "bool" or "enum"
  std::string default_value;         // as text
  std::vector<std::string> allowed;  // every allowed value, as text
};

struct VariantInfo {
  std::string name;     // the preset name, e.g. "oware"
  std::string title;    // "Oware (abapa)"
  std::string family;   // "sowing", "bao", "omweso", "backgammon"
  std::string summary;  // one line
  std::vector<std::string> aliases;
  std::vector<OptionInfo> options;
  // A clock rule for the server and CLI clocks: a sowing not finished within this many
  // seconds is declared endless and the game annulled (Omweso's two minutes); 0 = none.
  int sowing_seconds = 0;
  // The rules' match and tournament data (clock, draw offers, match formats; the TOML
  // [tournament] table of docs/variants.md), read by play::match_rules (src/play/); null when
  // the rules give none. A pointer, so that this header needs only json_fwd.hpp.
  std::shared_ptr<const nlohmann::json> tournament;
};

// name, title, family, summary, aliases and options (each with name, help, type, default and
// allowed), as `naqala variants --json` prints them and the server's /api/variants starts them.
nlohmann::json to_json(const VariantInfo& v);

// Counts from `naqala bench random`.
struct RandomPlayStats {
  std::uint64_t games = 0;
  std::uint64_t plies = 0;       // including those of a game cut off unfinished
  std::uint64_t unfinished = 0;  // 1 when time ran out inside a game (one that may never end)
};

struct ChanceText {
  std::string outcome;  // e.g. "3-1"
  double probability;
};

class AnyState {
 public:
  virtual ~AnyState() = default;
  virtual std::unique_ptr<AnyState> clone() const = 0;

  virtual Player to_move() const = 0;
  virtual bool is_over() const = 0;
  virtual Outcome outcome() const = 0;
  virtual std::uint64_t hash() const = 0;

  // Legal moves in the game's canonical notation.
  virtual std::vector<std::string> legal_moves() const = 0;
  // Plays a move given as text. Throws ParseError (not a move of this game) or
  // IllegalMoveError (not legal here); both messages list the legal moves.
  virtual void play(std::string_view move) = 0;

  // Chance nodes (backgammon dice). The defaults describe a game without chance.
  virtual bool is_chance_node() const { return false; }
  virtual std::vector<ChanceText> chance_outcomes() const { return {}; }
  virtual void apply_chance(std::string_view outcome);
  virtual std::string sample_chance(Rng& rng) const;

  // Simultaneous decisions (Congklak's start): the position waits for both players at once.
  // Each chooses his half without seeing the other's, from joint_halves(side); the move
  // played is then "south+north" (e.g. "3+5"). to_move() says South there by convention.
  virtual bool joint_pending() const { return false; }
  virtual std::vector<std::string> joint_halves(Player side) const;

  // Whether the game is in a setup phase (Omweso's layout, before a seed moves).
  virtual bool in_setup() const { return false; }
  // A setup phase (Omweso's layout): a move that lays the seeds out as the engines do, `rng`
  // varying it; nullopt outside a setup. Random openings make the setup with it and count
  // their random plies after it (random layouts, not play, would decide the games).
  virtual std::optional<std::string> opening_setup_move(Rng&) const { return std::nullopt; }
  // The same phase laid out at random (every layout as likely as if each seed chose its pit at
  // random): matches that measure the setup too draw its first plies with it and leave the
  // rest to the engines. nullopt outside a setup.
  virtual std::optional<std::string> uniform_setup_move(Rng&) const { return std::nullopt; }

  // Positions after exactly d plies, d = 1..depth (chance events are not plies; finished
  // games are not expanded). Typed states count without allocating.
  virtual std::vector<std::uint64_t> perft(int depth) const;
  // Uniformly random games from this state until `seconds` have passed, asked after every ply
  // (core/alarm.h): a game cut off is counted `unfinished` (a variant whose games never end).
  virtual RandomPlayStats play_random(std::uint64_t seed, double seconds) const;

  // The documented text form that round-trips through AnyGame::from_position.
  virtual std::string position() const = 0;
  // A multi-line board for the terminal.
  virtual std::string render() const = 0;
  // Structured board for machines (server, Python); each family documents its fields.
  virtual nlohmann::json board_json() const = 0;
};

class AnyGame {
 public:
  virtual ~AnyGame() = default;
  virtual const VariantInfo& info() const = 0;
  // The canonical variant spec: "name" or "name:key=value,..." listing non-default options.
  virtual std::string spec() const = 0;
  virtual std::unique_ptr<AnyState> new_game() const = 0;
  // Throws ParseError with what was wrong and what the form is.
  virtual std::unique_ptr<AnyState> from_position(std::string_view position) const = 0;
  // The rules of this variant, with its options applied, in plain English.
  virtual std::string rules_text() const = 0;
};

// "move '7' is not legal here; legal moves: 1 2 3" and friends.
std::string join_moves(const std::vector<std::string>& moves);

}  // namespace naqala
