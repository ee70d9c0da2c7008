// naqala: the command line. Each subcommand lives in its own cmd_<name>.cpp.
#include <CLI/CLI.hpp>
#include <cctype>
#include <iostream>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"

namespace {

std::string compiler() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "GCC " __VERSION__;
#else
  return "an unknown compiler";
#endif
}

// strtod reads "nan", "inf" and "infinity" (any case, signed) as numbers, and a range check
// lets NaN through (every comparison with it is false): no flag or spec item may be one.
bool names_a_non_finite_number(std::string_view arg) {
  std::size_t start = 0;
  for (std::size_t i = 0; i <= arg.size(); ++i) {
    if (i < arg.size() && arg[i] != '=' && arg[i] != ',' && arg[i] != ':') continue;
    std::string piece(arg.substr(start, i - start));
    start = i + 1;
    if (!piece.empty() && (piece[0] == '+' || piece[0] == '-')) piece.erase(0, 1);
    for (auto& c : piece) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (piece == "nan" || piece == "inf" || piece == "infinity" || piece.starts_with("nan("))
      return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (names_a_non_finite_number(argv[i])) {
      std::cerr << "naqala: '" << argv[i]
                << "': NaN and infinity are not numbers naqala accepts; give a finite number\n";
      return 2;
    }
  CLI::App app{"naqala: the mancala family and backgammon: rules, play, engines"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Print help for every command");
  app.set_version_flag(
      "--version",
      std::string("naqala " NAQALA_VERSION " (" NAQALA_BUILD_KIND " build, ") + compiler() + ")");
  naqala::cli::add_variants_command(app);
  naqala::cli::add_rules_command(app);
  naqala::cli::add_state_command(app);
  naqala::cli::add_perft_command(app);
  naqala::cli::add_bench_command(app);
  naqala::cli::add_play_command(app);
  naqala::cli::add_analyze_command(app);
  naqala::cli::add_arena_command(app);
  naqala::cli::add_tournament_command(app);
  naqala::cli::add_tune_command(app);
  naqala::cli::add_book_command(app);
  naqala::cli::add_mat_command(app);
  naqala::cli::add_serve_command(app);
  naqala::cli::add_solve_command(app);
  naqala::cli::add_engine_command(app);
  naqala::cli::add_external_command(app);
  naqala::cli::add_train_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;  // bad flags: status 2, like every other bad input
  } catch (const naqala::cli::CheckFailed&) {
    return 1;
  } catch (const naqala::Error& e) {
    std::cerr << "naqala: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    // A failure naqala did not foresee: still a message and a status, never an abort.
    std::cerr << "naqala: internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
