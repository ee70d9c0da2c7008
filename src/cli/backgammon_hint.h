#pragma once
// `naqala analyze backgammon`: what gnubg's `hint` prints. Checker play: every move with its
// equity, the difference to the best, and the five cubeless probabilities; before the roll
// or after a double: the probabilities and the money cube decision (Janowski).
#include <nlohmann/json.hpp>
#include <string>

#include "engine/backgammon_net_engine.h"
#include "games/backgammon/backgammon.h"

namespace naqala::cli {

nlohmann::json backgammon_hint(const backgammon::State& s, const engine::NetEngineConfig& config);
std::string format_backgammon_hint(const nlohmann::json& hint);

}  // namespace naqala::cli
