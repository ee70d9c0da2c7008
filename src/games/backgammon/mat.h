#pragma once
// .mat match files, the text format Jellyfish introduced and gnubg reads and writes
// ("export match mat"): a header, then per game the score line and numbered rows with
// player 0's action on the left and player 1's on the right ("53: 8/3 6/3",
// " Doubles => 2", " Takes", " Drops", "Wins 2 points"). naqala's South is player 0.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "games/backgammon/backgammon.h"

namespace naqala::backgammon {

struct MatchRecord {
  Rules rules;
  std::array<std::string, 2> names{"south", "north"};
  // Every event of every game in order: a roll, a decision, or (from imported files) a
  // resignation of `resign` times the cube by `resigner`.
  struct Event {
    bool is_roll = false;
    Chance roll;
    Move move;
    int resign = 0;
    Player resigner = Player::South;
    bool operator==(const Event&) const = default;
  };
  std::vector<Event> events;
};

// Replays the events and writes the .mat text. Throws IllegalMoveError if an event does not
// fit the game.
std::string export_mat(const MatchRecord& record);

// Reads a .mat file and replays it with naqala's rules: every roll, move and cube action
// must be legal, and the scores and "Wins" lines must agree. Throws ParseError with the line
// number and what was wrong. A " 0 point match" (a money session) of n games is read as a
// series of n games.
MatchRecord import_mat(std::string_view text);

// The state after replaying a record.
State replay(const MatchRecord& record);

}  // namespace naqala::backgammon
