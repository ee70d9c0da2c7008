#pragma once
// Pieces several commands share: building a game and a state from the usual flags.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "games/any_game.h"
#include "play/record.h"

namespace naqala::cli {

struct Loaded {
  std::unique_ptr<AnyGame> game;
  std::unique_ptr<AnyState> state;
  std::vector<GameRecord::Ply> plies;  // what --record and --moves played, in order
  std::string start_position;
};

// Splits a --moves list: on ';' or ',' when present, otherwise on white space with the
// checker steps of one backgammon move kept together ("3-1 8/5 6/5 6-4 24/14" is four items).
std::vector<std::string> split_moves(const std::string& text);

// variant + optional --position, --record, --moves (applied in that order). Throws naqala::Error
// subclasses; an illegal move names the move, its index and the legal moves.
Loaded load_state(const std::string& variant, const std::string& position,
                  const std::string& record_file, const std::string& moves);

// The flags that say where a command starts: --position, --record, --moves (commands.h adds
// them to a command).
struct StartFlags {
  std::string position, record, moves;
};
inline Loaded load_state(const std::string& variant, const StartFlags& start) {
  return load_state(variant, start.position, start.record, start.moves);
}

nlohmann::json outcome_json(const AnyState& state);
std::string read_file(const std::string& path, const std::string& what = "file");

// Thrown by a check that found problems and has reported them: the program exits with status 1.
struct CheckFailed {};

// v with `digits` decimals ("%.*f").
std::string fixed(double v, int digits);

// "South wins", "a draw", "South draws or loses", ... from proven bounds on the final margin
// of `who`, the player to move; "not decided" when they allow anything.
std::string proof_verdict(const std::string& who, int low, int high);

}  // namespace naqala::cli
