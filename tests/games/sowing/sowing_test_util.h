#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"

namespace naqala::sowing::testing {

// The rules of a preset. States point into their rules, so every ruleset a test asks for is
// kept for the whole test program: `State s = State::initial(*preset("toguz"));` stays valid.
inline std::shared_ptr<const Rules> preset(const std::string& name,
                                           const OptionValues& options = {}) {
  static std::map<std::string, std::shared_ptr<const Rules>> kept;
  std::string key = name;
  for (const auto& [k, v] : options) key += "," + k + "=" + v;
  if (auto it = kept.find(key); it != kept.end()) return it->second;
  for (const auto& p : presets())
    if (p.name == name) return kept[key] = load_rules(p.toml, name, options);
  throw Error("no preset " + name);
}

// Plays pit `k` (1-based, from the mover's left) and checks it was legal.
inline void play_pit(State& s, int k) {
  State::MoveList moves;
  s.legal_moves(moves);
  if (!moves.contains(static_cast<State::Move>(k - 1)))
    throw IllegalMoveError("pit " + std::to_string(k) + " is not legal in " + s.position());
  s.play(static_cast<State::Move>(k - 1));
}

// Plays `moves` (space-separated, in the game's notation), each checked to be legal.
inline void play(State& s, const std::string& moves) {
  std::size_t i = 0;
  while (i < moves.size()) {
    const auto j = std::min(moves.find(' ', i), moves.size());
    const std::string text = moves.substr(i, j - i);
    i = j + 1;
    if (text.empty()) continue;
    auto m = s.parse_move(text);
    ASSERT_TRUE(m) << text << " is not a move in " << s.position();
    State::MoveList legal;
    s.legal_moves(legal);
    ASSERT_TRUE(legal.contains(*m)) << text << " is not legal in " << s.position();
    s.play(*m);
  }
}

// The legal moves as the game writes them.
inline std::vector<std::string> legal(const State& s) {
  State::MoveList moves;
  s.legal_moves(moves);
  std::vector<std::string> out;
  for (auto m : moves) out.push_back(s.format_move(m));
  return out;
}

}  // namespace naqala::sowing::testing
