#pragma once
// `naqala tune VARIANT --records FILE [--out FILE]`: self-play records by an engine, then a pit
// table fitted to them (src/engine/selfplay_records.h, src/eval/pit_table_fit.h); Kalah's exact
// labels and network (--exact, --net-out), Bao's search labels and network (--search-labels,
// --net-out).
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
  // Exact labels (Kalah; engine/kalah_labels.h) and a network trained on them
  // (eval/kalah_net_train.h).
  std::string exact;  // the labels' file, extended to --roots roots of the records
  std::string db;     // the solver's database; empty: the installed one
  int roots = 0;
  int min_seeds = 26, max_seeds = 42;
  bool no_children = false;
  bool children = false;  // --search-labels: also the positions one move after a root
  std::uint64_t proof_nodes = 4'000'000;
  // Search labels (engine/search_labels.h) and Bao's network trained on them (eval/bao_net.h).
  std::string search_labels;  // the labels' file, extended to --roots roots of the records
  std::string label_engine = "alphabeta:nodes=300000";
  std::string net_out;   // the network file to write; empty: none
  bool net_all = false;  // the network also values boards above the labels' seeds
  int counts = 16;       // Bao's network: one-hot inputs of a pit's count
  int hidden = 32;
  int epochs = 60;
};

void add_pit_table_options(CLI::App& cmd, PitTableArgs& a);
void tune_pit_table(const AnyGame& game, const PitTableArgs& a, bool json);

}  // namespace naqala::cli
