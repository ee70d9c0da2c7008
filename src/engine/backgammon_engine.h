#pragma once
// The backgammon bot (games/backgammon/bot.h) behind the engine API, so `naqala play
// backgammon` has a computer opponent for every decision: checker plays, roll or double,
// take or drop.
#include <memory>
#include <string_view>

#include "engine/engine.h"

namespace naqala::engine {

// nullptr when `probe` is not a backgammon state. `spec` is the engine spec ("level:N"); levels
// below 10 play a random legal checker move now and then (level 1: one move in three).
// Throws VariantError for search specs (alphabeta, mcts), which do not handle dice.
std::unique_ptr<Engine> make_backgammon_engine(const AnyState& probe, std::string_view spec);

}  // namespace naqala::engine
