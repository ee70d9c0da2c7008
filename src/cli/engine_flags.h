#pragma once
// The engine and time-control flags that `naqala arena` and `naqala tournament` share, and
// the engine factory they imply (a `cmd:` spec is an outside program on the engine protocol).
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>

#include "engine/arena.h"
#include "engine/engine.h"

namespace naqala::cli {

struct EngineFlags {
  double movetime = 0, grace = 10, time_margin = 0.2;
  int max_plies = engine::EngineGameOptions{}.max_plies;
  std::string tc;
};

// --movetime, --tc, --time-margin, --hang-seconds, --max-plies.
void add_engine_flags(CLI::App* cmd, EngineFlags& flags);

// The per-game time control of the flags; throws Error on a malformed --tc or a clash.
engine::EngineGameOptions game_options(const EngineFlags& flags);

// make_engine, or an ExternalEngine for `cmd:COMMAND ARGS`.
std::function<std::unique_ptr<engine::Engine>(const AnyGame&, const std::string&)> engine_factory(
    const EngineFlags& flags);

}  // namespace naqala::cli
