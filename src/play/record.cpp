#include "play/record.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "games/registry.h"

namespace naqala {

std::string GameRecord::tag(std::string_view key, std::string fallback) const {
  for (const auto& [k, v] : tags)
    if (k == key) return v;
  return fallback;
}

void GameRecord::set_tag(const std::string& key, const std::string& value) {
  for (auto& [k, v] : tags)
    if (k == key) {
      v = value;
      return;
    }
  tags.emplace_back(key, value);
}

namespace {

bool is_result(std::string_view t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

GameRecord parse_record(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte-order mark
  GameRecord rec;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line_no = 0;
  bool ended = false;
  auto fail = [&](const std::string& what) {
    throw ParseError("record line " + std::to_string(line_no) + ": " + what);
  };
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (ended) fail("text after the result '" + rec.result + "'");
    if (line.front() == '[') {
      if (!rec.plies.empty()) fail("a header tag after the moves");
      if (line.back() != ']') fail("a tag must be [Name \"value\"]");
      auto body = trim(line.substr(1, line.size() - 2));
      auto space = body.find(' ');
      if (space == std::string_view::npos) fail("a tag must be [Name \"value\"]");
      auto key = body.substr(0, space);
      auto value = trim(body.substr(space + 1));
      if (value.size() < 2 || value.front() != '"' || value.back() != '"')
        fail("the value of tag " + std::string(key) + " must be in double quotes");
      std::string v;
      for (std::size_t i = 1; i + 1 < value.size(); ++i) {
        if (value[i] == '\\' && i + 2 < value.size()) ++i;
        v += value[i];
      }
      for (const auto& [k, old] : rec.tags)
        if (k == key) fail("tag " + std::string(key) + " is given twice");
      rec.tags.emplace_back(std::string(key), v);
      continue;
    }
    if (is_result(line)) {
      rec.result = std::string(line);
      ended = true;
      continue;
    }
    // "<n>. <S|N|*> <move text>"; the number and side are checked on replay, not here.
    auto dot = line.find(". ");
    if (dot == std::string_view::npos || dot == 0)
      fail("a ply line must read '<n>. <S|N|*> <move>'");
    for (std::size_t i = 0; i < dot; ++i)
      if (line[i] < '0' || line[i] > '9')
        fail("a ply line must start with its number, e.g. '12. S 3'");
    const auto number = line.substr(0, dot);
    std::size_t n = 0;
    if (std::from_chars(number.data(), number.data() + number.size(), n).ec != std::errc() ||
        n != rec.plies.size() + 1)
      fail("ply number " + std::string(line.substr(0, dot)) + " where " +
           std::to_string(rec.plies.size() + 1) + " was expected");
    auto rest = trim(line.substr(dot + 2));
    auto sp = rest.find(' ');
    if (sp == std::string_view::npos) fail("a ply line must read '<n>. <S|N|*> <move>'");
    auto side = rest.substr(0, sp);
    if (side != "S" && side != "N" && side != "*")
      fail("the side must be S, N or * (a chance event)");
    GameRecord::Ply ply{side[0], std::string(trim(rest.substr(sp + 1)))};
    rec.plies.push_back(ply);
  }
  const std::string result_tag = rec.tag("Result");
  if (!result_tag.empty() && !is_result(result_tag))
    throw ParseError("record: the Result tag is '" + result_tag +
                     "'; allowed: 1-0, 0-1, 1/2-1/2, *");
  if (!result_tag.empty() && !rec.result.empty() && result_tag != rec.result)
    throw ParseError("record: the Result tag says " + result_tag + " but the moves end with " +
                     rec.result);
  return rec;
}

std::string format_record(const GameRecord& rec) {
  std::ostringstream out;
  for (const auto& [k, v] : rec.tags) {
    out << "[" << k << " \"";
    for (char c : v) {
      if (c == '"' || c == '\\') out << '\\';
      out << c;
    }
    out << "\"]\n";
  }
  out << "\n";
  for (std::size_t i = 0; i < rec.plies.size(); ++i)
    out << i + 1 << ". " << rec.plies[i].side << " " << rec.plies[i].text << "\n";
  out << rec.result << "\n";
  return out.str();
}

std::pair<std::unique_ptr<AnyGame>, std::unique_ptr<AnyState>> replay_record(
    const GameRecord& rec) {
  const std::string variant = rec.tag("Variant");
  if (variant.empty()) throw ParseError("the record has no [Variant \"...\"] tag");
  auto game = make_game(variant);
  const std::string position = rec.tag("Position");
  auto state = position.empty() ? game->new_game() : game->from_position(position);
  for (std::size_t i = 0; i < rec.plies.size(); ++i) {
    const auto& ply = rec.plies[i];
    const std::string where =
        "record ply " + std::to_string(i + 1) + " (" + ply.side + " " + ply.text + "): ";
    try {
      if (state->is_over()) throw IllegalMoveError("the game is already over");
      if (ply.side == '*') {
        if (!state->is_chance_node())
          throw IllegalMoveError("a chance event where a player must move");
        state->apply_chance(ply.text);
        continue;
      }
      if (state->is_chance_node())
        throw IllegalMoveError("a move where a chance event (dice) is due");
      if (ply.side != letter(state->to_move()))
        throw IllegalMoveError(std::string("it is ") + std::string(name(state->to_move())) +
                               "'s turn");
      state->play(ply.text);
    } catch (const ParseError& e) {
      throw ParseError(where + e.what());
    } catch (const IllegalMoveError& e) {
      throw IllegalMoveError(where + e.what());
    }
  }
  const std::string result = rec.result.empty() ? rec.tag("Result") : rec.result;
  // Before a backgammon resignation needed an answer, a record ended with the offer itself and
  // the result it gave: that offer was accepted.
  if (!state->is_over() && (result == "1-0" || result == "0-1") && !rec.plies.empty() &&
      rec.plies.back().text.starts_with("resign "))
    state->play("accept");
  if (state->is_over() && !result.empty() && result != "*" &&
      result != state->outcome().result_tag())
    throw ParseError("record: the result " + result + " contradicts the game's end, " +
                     state->outcome().result_tag());
  return {std::move(game), std::move(state)};
}

GameRecord make_record(const AnyGame& game, const std::string& start_position,
                       const std::vector<GameRecord::Ply>& plies, const AnyState& final_state,
                       std::vector<std::pair<std::string, std::string>> tags) {
  GameRecord rec;
  rec.tags = std::move(tags);
  rec.set_tag("Variant", game.spec());
  if (start_position != game.new_game()->position()) rec.set_tag("Position", start_position);
  rec.plies = plies;
  if (final_state.is_over()) {
    const Outcome o = final_state.outcome();
    rec.result = o.result_tag();
    rec.set_tag("Result", rec.result);
    rec.set_tag("Score", std::to_string(o.scores[0]) + "-" + std::to_string(o.scores[1]));
    rec.set_tag("Termination", std::string(to_string(o.reason)));
  } else {
    rec.result = "*";
    rec.set_tag("Result", "*");
  }
  // Multi-round games: every finished round's captures, South first ("30-18 24-24").
  if (const auto board = final_state.board_json(); board.is_object() && board.contains("rounds")) {
    std::string rounds;
    for (const auto& r : board["rounds"])
      rounds += (rounds.empty() ? "" : " ") + std::to_string(r["scores"][0].get<int>()) + "-" +
                std::to_string(r["scores"][1].get<int>());
    if (!rounds.empty()) rec.set_tag("Rounds", rounds);
  }
  return rec;
}

}  // namespace naqala
