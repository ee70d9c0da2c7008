#pragma once
// `naqala tune VARIANT --records FILE [--out FILE]`: self-play records by an engine, then a pit
// table fitted to them (src/engine/selfplay_records.h, src/eval/pit_table_fit.h).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "games/any_game.h"

namespace naqala::cli {

struct PitTableArgs {
  std::string records;  // the self-play file, extended to --games games
  std::string engine = "alphabeta:nodes=20000";
  std::string out;           // the evaluation file to write; empty: only play
  double final_share = 0.5;  // label = share x final margin + (1 - share) x the engine's value
  double ridge = 1;
  double smooth = 100;
  int opening_plies = 6;
  bool late = false;   // also a late table (pit_table.h), two-row sowing games
  bool pairs = false;  // also a pair table, rulesets that capture the pit opposite
  int games = 0;
  std::uint64_t seed = 1;
};

void add_pit_table_options(CLI::App& cmd, PitTableArgs& a);
void tune_pit_table(const AnyGame& game, const PitTableArgs& a, bool json);

}  // namespace naqala::cli
