#pragma once
// Game records (docs/records.md): header tags, then one ply per line, then the result.
//
//   [Variant "kalah:seeds=6"]
//   [South "human"]
//   [North "computer:5"]
//   [Date "2026.11.23"]
//   [Result "1-0"]
//
//   1. S 3
//   2. S 6
//   3. N 4
//   ...
//   1-0
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/any_game.h"

namespace naqala {

struct GameRecord {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  // Plies in order: who decided ('S' or 'N', or '*' for a chance event such as dice) and
  // what, in the game's own notation.
  struct Ply {
    char side = 'S';
    std::string text;
  };
  std::vector<Ply> plies;
  std::string result = "*";  // "1-0", "0-1", "1/2-1/2" or "*" (unfinished)

  std::string tag(std::string_view key, std::string fallback = "") const;
  void set_tag(const std::string& key, const std::string& value);
};

// Throws ParseError naming the line.
GameRecord parse_record(std::string_view text);
std::string format_record(const GameRecord& record);

// Replays a record's plies on a fresh game of its Variant (from its Position tag if any).
// Throws VariantError / ParseError / IllegalMoveError naming the ply.
std::pair<std::unique_ptr<AnyGame>, std::unique_ptr<AnyState>> replay_record(
    const GameRecord& record);

// Builds the record of a game: the tags given plus Variant, Result, Score and Termination.
GameRecord make_record(const AnyGame& game, const std::string& start_position,
                       const std::vector<GameRecord::Ply>& plies, const AnyState& final_state,
                       std::vector<std::pair<std::string, std::string>> tags);

}  // namespace naqala
