#pragma once
#include <map>
#include <memory>
#include <string>

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

}  // namespace naqala::sowing::testing
