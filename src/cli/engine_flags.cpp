#include "cli/engine_flags.h"

#include <cstdio>

#include "core/error.h"
#include "protocol/external_engine.h"

namespace naqala::cli {

void add_engine_flags(CLI::App* cmd, EngineFlags& a) {
  cmd->add_option("--movetime", a.movetime,
                  "Seconds per move for every engine (default: each engine's own limits; 1 s "
                  "for a cmd: engine)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--tc", a.tc,
                  "Game clock BASE+INC in seconds (e.g. 60+0.5): a fallen flag loses the game");
  cmd->add_option("--time-margin", a.time_margin,
                  "Seconds a clock may run below zero before its flag falls (default 0.2)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--hang-seconds", a.grace,
                  "Seconds past its time before a cmd: engine that gives no move loses as hung "
                  "(default 10)")
      ->check(CLI::Range(0.1, 86400.0));
  cmd->add_option("--max-plies", a.max_plies,
                  "A game still running after this many plies is adjudicated by its score "
                  "(default 2000)")
      ->check(CLI::Range(10, 1000000));
}

engine::EngineGameOptions game_options(const EngineFlags& a) {
  engine::EngineGameOptions o;
  o.movetime = a.movetime;
  o.time_margin = a.time_margin;
  o.max_plies = a.max_plies;
  if (!a.tc.empty()) {
    double inc = 0;
    char extra = 0;
    const int n = std::sscanf(a.tc.c_str(), "%lf+%lf%c", &o.clock_base, &inc, &extra);
    if (n < 1 || n > 2 || o.clock_base <= 0 || inc < 0 ||
        (n == 1 && a.tc.find_first_not_of("0123456789.") != std::string::npos))
      throw Error("--tc " + a.tc + ": write BASE or BASE+INC in seconds, e.g. 60+0.5");
    o.clock_increment = inc;
    if (a.movetime > 0) throw Error("give --movetime or --tc, not both");
  }
  return o;
}

std::function<std::unique_ptr<engine::Engine>(const AnyGame&, const std::string&)> engine_factory(
    const EngineFlags& a) {
  protocol::ExternalOptions external;
  external.grace_seconds = a.grace;
  if (a.movetime > 0) external.movetime = a.movetime;
  return
      [external](const AnyGame& game, const std::string& spec) -> std::unique_ptr<engine::Engine> {
        if (spec.rfind("cmd:", 0) == 0)
          return std::make_unique<protocol::ExternalEngine>(game, spec.substr(4), external);
        return engine::make_engine(game, spec);
      };
}

}  // namespace naqala::cli
