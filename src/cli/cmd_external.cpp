// naqala external [--port N] [--engine SPEC]: serves gnubg's external-player socket, so that
// gnubg (`set player 1 external localhost:N`) plays naqala's backgammon engine.
#include <iostream>

#include "cli/commands.h"
#include "protocol/gnubg_external.h"

namespace naqala::cli {

void add_external_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "external", "Serve gnubg's external-player socket with naqala's backgammon engine");
  auto options = std::make_shared<protocol::ExternalServerOptions>();
  options->port = 10000;
  cmd->add_option("--port", options->port, "TCP port on 127.0.0.1 (default 10000)")
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--engine", options->engine, "Engine spec (default level:8)");
  cmd->callback([options] {
    options->listening = [](int port) {
      std::cerr << "naqala: serving gnubg's external player on 127.0.0.1:" << port
                << " (in gnubg: set player 1 external localhost:" << port << ")" << std::endl;
    };
    options->log = [](const std::string& m) { std::cerr << "naqala: " << m << std::endl; };
    protocol::serve_gnubg_external(*options);
  });
}

}  // namespace naqala::cli
