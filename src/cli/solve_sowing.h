#pragma once
// `naqala solve` for the two-row rulesets that are not Kalah-like (Oware, Awale, Bantumi,
// TOML variants): databases of solve/sowing_db.h (built on threads or under mpirun), their
// statistics, and positions solved by solve/sowing_solve.h.
#include <string>

#include "games/any_game.h"
#include "games/sowing/state.h"

namespace naqala::cli {

struct SolveArgs {
  std::string db;
  int build_db = -1, db_seeds = 12, threads = 2;
  double time = 30;
  bool db_stats = false, json = false;
};

void solve_sowing_command(const AnyGame& game, const sowing::State& s, const SolveArgs& args);

}  // namespace naqala::cli
