#include "cli/common.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/commands.h"
#include "core/error.h"
#include "core/text_file.h"
#include "games/registry.h"

namespace naqala::cli {

std::vector<std::string> split_moves(const std::string& text) {
  std::vector<std::string> out;
  const bool listed = text.find_first_of(";,") != std::string::npos;
  std::string current;
  auto flush = [&] {
    auto b = current.find_first_not_of(" \t\n");
    auto e = current.find_last_not_of(" \t\n");
    if (b != std::string::npos) out.push_back(current.substr(b, e - b + 1));
    current.clear();
  };
  for (char c : text) {
    if (listed ? (c == ';' || c == ',') : (c == ' ' || c == '\t' || c == '\n')) {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  if (listed) return out;
  // Without ';' the words of one backgammon move stay together: checker steps ("13/11",
  // "bar/22*", "6/off") next to each other are one move, because two checker moves are
  // always separated by a roll or a cube action.
  std::vector<std::string> joined;
  for (auto& word : out) {
    const bool step = word.find('/') != std::string::npos;
    if (step && !joined.empty() && joined.back().find('/') != std::string::npos)
      joined.back() += " " + word;
    else
      joined.push_back(std::move(word));
  }
  return joined;
}

std::string read_file(const std::string& path, const std::string& what) {
  return read_text_file(path, what);
}

void add_start_flags(CLI::App* cmd, StartFlags& start, const std::string& position_help) {
  cmd->add_option("--position", start.position,
                  position_help + " (the variant's position text, docs/notation.md)")
      ->check(kNotEmpty);
  cmd->add_option("--record", start.record, "Start from the end of this game record");
  cmd->add_option("--moves", start.moves,
                  "Moves to play first, after the position or record, separated by spaces or ';' "
                  "(e.g. \"3 5 1\"); a backgammon move's steps stay together: \"3-1 8/5 6/5 6-4 "
                  "24/14\"");
}

Loaded load_state(const std::string& variant, const std::string& position,
                  const std::string& record_file, const std::string& moves) {
  Loaded out;
  if (!record_file.empty()) {
    GameRecord rec = parse_record(read_file(record_file, "record"));
    auto [game, state] = replay_record(rec);
    if (make_game(variant)->spec() != game->spec())
      throw VariantError("the record is a game of '" + game->spec() + "', not of '" + variant +
                         "'");
    out.game = std::move(game);
    out.state = std::move(state);
    out.plies = rec.plies;
    out.start_position = rec.tag("Position", out.game->new_game()->position());
    if (!position.empty()) throw Error("give --position or --record, not both");
  } else {
    out.game = make_game(variant);
    out.state = position.empty() ? out.game->new_game() : out.game->from_position(position);
    out.start_position = out.state->position();
  }
  const auto list = split_moves(moves);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string& m = list[i];
    const std::string where = "move " + std::to_string(i + 1) + " of --moves ('" + m + "'): ";
    try {
      if (out.state->is_chance_node()) {
        out.state->apply_chance(m);
        out.plies.push_back({'*', m});
      } else {
        const char side = letter(out.state->to_move());
        out.state->play(m);
        out.plies.push_back({side, m});
      }
    } catch (const ParseError& e) {
      throw ParseError(where + e.what());
    } catch (const IllegalMoveError& e) {
      throw IllegalMoveError(where + e.what());
    }
  }
  return out;
}

nlohmann::json outcome_json(const AnyState& s) {
  if (!s.is_over()) return nullptr;
  const Outcome o = s.outcome();
  return {
      {"winner", o.winner ? nlohmann::json(std::string(name(*o.winner))) : nlohmann::json(nullptr)},
      {"scores", {o.scores[0], o.scores[1]}},
      {"reason", std::string(to_string(o.reason))}};
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string proof_verdict(const std::string& who, int low, int high) {
  if (low >= 1) return who + " wins";
  if (high <= -1) return who + " loses";
  if (low == 0 && high == 0) return "a draw";
  if (low >= 0) return who + " draws or wins";
  if (high <= 0) return who + " draws or loses";
  return "not decided";
}

}  // namespace naqala::cli
