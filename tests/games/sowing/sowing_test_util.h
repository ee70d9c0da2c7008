#pragma once
#include <memory>
#include <string>

#include "core/error.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"

namespace naqala::sowing::testing {

inline std::shared_ptr<const Rules> preset(const std::string& name, const OptionValues& options = {}) {
  for (const auto& p : presets())
    if (p.name == name) return load_rules(p.toml, name, options);
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
