#include "protocol/notation.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"

namespace naqala::protocol {

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string join_words(const std::vector<std::string>& words, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < words.size(); ++i)
    out += (out.empty() ? "" : " ") + words[i];
  return out;
}

std::string to_token(std::string_view move) {
  std::string t(move);
  std::replace(t.begin(), t.end(), ' ', ',');
  return t;
}

std::string from_token(std::string_view token) {
  std::string m(token);
  std::replace(m.begin(), m.end(), ',', ' ');
  return m;
}

bool has_auale_form(const AnyGame& game) {
  if (game.info().family != "sowing") return false;
  const auto board = game.new_game()->board_json();
  if (!board.contains("rows") || board.contains("middle_row")) return false;
  const auto& rows = board["rows"];
  return rows.size() == 2 && rows[0].size() == 6 && rows[1].size() == 6;
}

bool is_auale_moves(std::string_view token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
    return (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
  });
}

std::vector<std::string> play_auale_moves(AnyState& state, std::string_view letters) {
  std::vector<std::string> played;
  for (char c : letters) {
    const bool south = c >= 'A' && c <= 'F';
    const Player owner = south ? Player::South : Player::North;
    if (state.is_over())
      throw IllegalMoveError(std::string("move '") + c + "': the game is already over");
    if (state.to_move() != owner)
      throw IllegalMoveError(std::string("move '") + c + "' is " + (south ? "South" : "North") +
                             "'s pit " + std::to_string((south ? c - 'A' : c - 'a') + 1) + " but " +
                             (south ? "North" : "South") + " is to move");
    const std::string move = std::to_string((south ? c - 'A' : c - 'a') + 1);
    state.play(move);
    played.push_back(move);
  }
  return played;
}

std::string auale_letter(std::string_view move, Player mover) {
  if (move.size() != 1 || move[0] < '1' || move[0] > '6')
    throw ParseError("move '" + std::string(move) + "' has no letter in the Aualé form");
  const char base = mover == Player::South ? 'A' : 'a';
  return std::string(1, static_cast<char>(base + (move[0] - '1')));
}

namespace {

[[noreturn]] void bad_fen(std::string_view fen) {
  throw ParseError("'" + std::string(fen) +
                   "' is not an Aualé position; write 12 pits (South's 1-6, North's 1-6), the "
                   "two stores and the side to move, separated by '-', e.g. "
                   "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
}

}  // namespace

std::string position_from_auale(std::string_view fen) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const auto dash = fen.find('-', start);
    fields.emplace_back(fen.substr(start, dash - start));
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  if (fields.size() != 15 || (fields[14] != "S" && fields[14] != "N")) bad_fen(fen);
  for (int i = 0; i < 14; ++i) {
    int v = 0;
    const auto& f = fields[i];
    auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (f.empty() || ec != std::errc() || end != f.data() + f.size() || v < 0) bad_fen(fen);
  }
  std::string out;
  for (int i = 0; i < 12; ++i) out += fields[i] + (i == 5 ? "/" : i == 11 ? "/" : ",");
  return out + fields[12] + "," + fields[13] + "/" + fields[14];
}

std::string position_to_auale(std::string_view position) {
  // naqala's "a,b,c,d,e,f/g,h,i,j,k,l/s,n/S" with no extra fields.
  std::string out;
  int numbers = 0;
  for (std::size_t i = 0; i < position.size(); ++i) {
    const char c = position[i];
    if (c >= '0' && c <= '9') {
      out += c;
    } else if (c == ',' || c == '/') {
      if (out.empty() || out.back() == '-') break;
      out += '-';
      ++numbers;
    } else if ((c == 'S' || c == 'N') && numbers == 14 && out.back() == '-' &&
               i + 1 == position.size()) {
      out += c;
      return out;
    } else {
      break;
    }
  }
  throw ParseError("position '" + std::string(position) +
                   "' has no Aualé form (a 2x6 board "
                   "with two stores and no other fields)");
}

}  // namespace naqala::protocol
