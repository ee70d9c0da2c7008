// naqala: the command line. Each subcommand lives in its own cmd_<name>.cpp.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "core/error.h"

int main(int argc, char** argv) {
  CLI::App app{"naqala: the mancala family and backgammon: rules, play, engines"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Print help for every command");
  naqala::cli::add_variants_command(app);
  naqala::cli::add_rules_command(app);
  naqala::cli::add_state_command(app);
  naqala::cli::add_perft_command(app);
  naqala::cli::add_bench_command(app);
  naqala::cli::add_play_command(app);
  naqala::cli::add_analyze_command(app);
  naqala::cli::add_arena_command(app);
  naqala::cli::add_tune_command(app);
  naqala::cli::add_mat_command(app);
  naqala::cli::add_serve_command(app);
  naqala::cli::add_solve_command(app);
  naqala::cli::add_engine_command(app);
  naqala::cli::add_train_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;  // bad flags: status 2, like every other bad input
  } catch (const naqala::Error& e) {
    std::cerr << "naqala: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
