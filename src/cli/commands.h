#pragma once
// One file per `naqala` subcommand; main.cpp adds them all.
#include <CLI/CLI.hpp>

#include "cli/common.h"

namespace naqala::cli {

// For text flags where an empty value would silently mean "not given" (--position "").
inline const CLI::Validator kNotEmpty(
    [](std::string& s) {
      return s.empty() ? std::string("an empty value; give one or leave the flag out")
                       : std::string();
    },
    "TEXT");

// --position (described by `position_help`: what the command does with it), --record and
// --moves, with the same meaning and help in every command that starts from a position.
void add_start_flags(CLI::App* cmd, StartFlags& start, const std::string& position_help);

void add_variants_command(CLI::App& app);
void add_rules_command(CLI::App& app);
void add_state_command(CLI::App& app);
void add_perft_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_analyze_command(CLI::App& app);
void add_arena_command(CLI::App& app);
void add_tournament_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_book_command(CLI::App& app);
void add_bench_search_command(CLI::App& bench);  // `bench search`, under `bench`
void add_bench_eval_command(CLI::App& bench);    // `bench eval`, under `bench`
void add_bench_serve_command(CLI::App& bench);   // `bench serve`, under `bench`
void add_mat_command(CLI::App& app);
void add_mat_analyze_command(CLI::App& mat);  // `mat analyze`, under `mat`
void add_serve_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_engine_command(CLI::App& app);
void add_external_command(CLI::App& app);
void add_train_command(CLI::App& app);

}  // namespace naqala::cli
