#pragma once
// Moves and positions as the engine protocol writes them (docs/protocol.md).
//
// A protocol move is one token: a naqala move whose text has spaces (backgammon's
// `24/18 13/11`) is written with commas in their place (`24/18,13/11`). On 2x6 sowing boards
// (Oware, Kalah, ...) the protocol also reads and writes the form of the Aualé GUI and its
// engine Aalina: a letter per move, A-F for South's pits 1-6 and a-f for North's, a game as
// one token (`AbCd`), and a position as 12 pits, two stores and the side to move
// (`4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`).
#include <string>
#include <string_view>
#include <vector>

#include "games/any_game.h"

namespace naqala::protocol {

// A command line's words, and words [from, to) joined by single spaces.
std::vector<std::string> split_words(const std::string& line);
std::string join_words(const std::vector<std::string>& words, std::size_t from,
                       std::size_t to = static_cast<std::size_t>(-1));

// A naqala move as one protocol token, and back.
std::string to_token(std::string_view move);
std::string from_token(std::string_view token);

// Whether the game has the 2x6 board the Aualé form describes.
bool has_auale_form(const AnyGame& game);

// Whether every character of `token` is a pit letter (A-F, a-f).
bool is_auale_moves(std::string_view token);

// The naqala moves of a run of pit letters played from `state` (which it advances); throws
// ParseError naming the letter when a letter is not the mover's pit.
std::vector<std::string> play_auale_moves(AnyState& state, std::string_view letters);

// The letter of a naqala pit move by `mover` ("3" by South is "C"); throws ParseError for
// a move that has no letter (a move of another form).
std::string auale_letter(std::string_view move, Player mover);

// Aualé's position text <-> naqala's position text; throw ParseError on malformed text.
std::string position_from_auale(std::string_view fen);
std::string position_to_auale(std::string_view position);

}  // namespace naqala::protocol
