// naqala engine [VARIANT] [--engine SPEC] [--notation naqala|auale]: the engine protocol on
// stdin/stdout (docs/protocol.md), for GUIs and tournament runners.
#include <iostream>
#include <string>

#include "cli/commands.h"
#include "core/error.h"
#include "core/text_file.h"
#include "protocol/engine_server.h"

namespace naqala::cli {

void add_engine_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "engine", "Speak the engine protocol (UCI-shaped) on stdin/stdout: see docs/protocol.md");
  auto options = std::make_shared<protocol::ServerOptions>();
  auto notation = std::make_shared<std::string>("naqala");
  cmd->add_option("variant", options->variant, "Variant (default oware)");
  cmd->add_option("--engine", options->engine,
                  "Engine spec: level:N, alphabeta:..., mcts:..., random (default level:10)");
  cmd->add_option("--notation", *notation,
                  "Moves in naqala's notation or in Aualé's letters (2x6 boards)")
      ->check(CLI::IsMember({"naqala", "auale"}));
  cmd->callback([options, notation] {
    options->auale = *notation == "auale";
    protocol::EngineServer server(*options, std::cout);
    std::string line;
    while (read_bounded_line(std::cin, line, "the engine protocol's input"))
      if (!server.handle(line)) return;
    server.finish();
  });
}

}  // namespace naqala::cli
