#pragma once
// The field's text formats: gnubg position ID (14 characters, 80 bits), match ID
// (12 characters, 66 bits + Jacoby), and FIBS board strings ("board:You:Opp:...").
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "games/backgammon/backgammon.h"

namespace naqala::backgammon {

// The position ID of a board seen by `on_roll` (gnubg's key: the opponent's checkers first,
// then the roller's, each point as that many 1 bits and a 0).
std::string encode_position_id(const Board& board, Player on_roll);
// Throws ParseError when the text is not a valid position ID.
Board decode_position_id(std::string_view id, Player on_roll);

// The fields of a gnubg match ID.
struct MatchKey {
  int cube = 1;
  int cube_owner = 3;  // 0, 1, or 3 = centred
  int on_roll = 0;     // fMove
  bool crawford = false;
  int game_state = 1;  // 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
  int turn = 0;        // fTurn: who must decide now
  bool doubled = false;
  int resigned = 0;
  std::array<int, 2> dice{0, 0};
  int match_to = 0;
  std::array<int, 2> score{0, 0};
  bool jacoby = false;
  bool operator==(const MatchKey&) const = default;
};
std::string encode_match_id(const MatchKey& key);
MatchKey decode_match_id(std::string_view id);  // throws ParseError

// A FIBS board string, as FIBS and gnubg's external-player socket write it. `you` and
// `opp` are seen from You's side: you[i] = You's checkers on You's point i+1, [24] = bar.
struct FibsBoard {
  std::string you_name = "you", opp_name = "opponent";
  int match_to = 0;  // FIBS writes 9999 for unlimited; read back as 0
  int you_score = 0, opp_score = 0;
  Side you{}, opp{};
  int turn = 1;  // 1 = You's colour to move, -1 = the opponent's
  std::array<int, 2> you_dice{0, 0}, opp_dice{0, 0};
  int cube = 1;
  bool you_may_double = true, opp_may_double = true;
  int doubled = 0;  // non-zero: a double is pending
  int color = 1, direction = -1;
  bool crawford = false, post_crawford = false;
};
std::string write_fibs_board(const FibsBoard& b);
FibsBoard parse_fibs_board(std::string_view text);  // throws ParseError

// The FIBS board of a state as the player to decide sees it: You = the player to move, or,
// while a double is pending, the doubler (gnubg's convention, which its parser undoes).
FibsBoard fibs_board_of(const State& s, std::string_view south_name = "south",
                        std::string_view north_name = "north");

}  // namespace naqala::backgammon
