#pragma once
// The text of four-row positions (docs/games/bao.md, docs/games/omweso.md): the four rows
// "<a1..h1>/<a2..h2>/<A1..H1>/<A2..H2>" read and written the same way for every four-row game,
// and the small readers their other fields use. Errors say what was wrong and the form.
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "games/board4/board.h"

namespace naqala::board4 {

using Rows = std::array<std::array<std::uint8_t, kPits>, 2>;  // [South, North][ring index]

// The four rows of a diagram, North's back row on top and the column letters above and below,
// as the player sees the board; `cell(side, r)` is one pit's text, five characters wide.
template <class Cell>
void draw_rows(std::ostream& out, Cell cell) {
  out << "    ";
  for (int c = 7; c >= 0; --c) out << "   " << char('A' + c) << " ";
  out << "\n 2  ";
  for (int c = 7; c >= 0; --c) out << cell(1, back(c));
  out << "\n 1  ";
  for (int c = 7; c >= 0; --c) out << cell(1, front(c));
  out << "\n    " << std::string(40, '-') << "\n 1  ";
  for (int c = 0; c < 8; ++c) out << cell(0, front(c));
  out << "\n 2  ";
  for (int c = 0; c < 8; ++c) out << cell(0, back(c));
  out << "\n    ";
  for (int c = 0; c < 8; ++c) out << "   " << char('a' + c) << " ";
  out << "\n";
}

inline std::vector<std::string_view> split(std::string_view t, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const auto k = t.find(sep);
    out.push_back(t.substr(0, k));
    if (k == std::string_view::npos) return out;
    t = t.substr(k + 1);
  }
}

// A whole number 0..max; `what` names the field in the error.
inline int parse_number(std::string_view t, const std::string& what, int max) {
  int v = 0;
  bool digits = !t.empty() && t.size() <= 5;
  for (char c : t) {
    digits = digits && c >= '0' && c <= '9';
    if (digits) v = v * 10 + (c - '0');
  }
  if (!digits) throw ParseError(what + " '" + std::string(t) + "' is not a whole number");
  if (v > max)
    throw ParseError(what + " is " + std::to_string(v) + "; at most " + std::to_string(max));
  return v;
}

// Reads the four row fields (fields[0..3]) into `pits`; returns the seeds they hold.
inline int read_rows(const std::vector<std::string_view>& fields, Rows& pits) {
  static const char* const names[4] = {"South's front row (a1..h1)", "South's back row (a2..h2)",
                                       "North's front row (A1..H1)", "North's back row (A2..H2)"};
  int total = 0;
  for (int k = 0; k < 4; ++k) {
    const auto cells = split(fields[k], ',');
    if (cells.size() != 8)
      throw ParseError(std::string(names[k]) + " needs 8 counts separated by ','; got " +
                       std::to_string(cells.size()));
    for (int i = 0; i < 8; ++i) {
      const int v = parse_number(cells[i], names[k], 64);
      pits[k / 2][k % 2 == 0 ? front(i) : back(i)] = static_cast<std::uint8_t>(v);
      total += v;
    }
  }
  return total;
}

// "<a1..h1>/<a2..h2>/<A1..H1>/<A2..H2>/"
inline std::string write_rows(const Rows& pits) {
  std::string s;
  for (int p = 0; p < 2; ++p)
    for (int row = 0; row < 2; ++row) {
      for (int i = 0; i < 8; ++i) {
        if (i) s += ',';
        s += std::to_string(pits[p][row == 0 ? front(i) : back(i)]);
      }
      s += '/';
    }
  return s;
}

}  // namespace naqala::board4
