#pragma once
// `naqala solve` for the two-row rulesets that are not Kalah-like (Oware, Awale, Bantumi,
// TOML variants): databases of solve/sowing_db.h (built on threads or under mpirun), their
// statistics, and positions solved by solve/sowing_solve.h.
#include <cstdint>
#include <string>

#include "games/any_game.h"
#include "games/sowing/state.h"
#include "solve/kalah_db.h"

namespace naqala::cli {

struct SolveArgs {
  std::string db;
  int build_db = -1, db_seeds = 12, threads = 2;
  double time = 30;
  bool db_stats = false, json = false;
  int check_play = 0;                       // positions of the end-of-game accuracy check (0: none)
  std::string engine;                       // the engine it checks (default alphabeta:db=DB)
  std::uint64_t seed = 1;                   // of its random positions
  std::uint64_t referee_nodes = 2'000'000;  // the check's referee: nodes a position
  int check_seeds = 0;                      // its positions' seeds in the pits at most (0: K)
  std::string from_db;  // --build-db takes this smaller database's levels instead of building them
};

void solve_sowing_command(const AnyGame& game, const sowing::State& s, const SolveArgs& args);
// --check-play N: is the engine's move optimal in N random positions inside --db?
void check_play_command(const AnyGame& game, const sowing::State& s, const SolveArgs& args);
// The same on a Kalah-like ruleset, refereed by the Kalah solver with `db` (--time: its limit
// a position, 0: none); positions of up to --check-seeds seeds (default the database's K).
void check_play_kalah_command(const AnyGame& game, const solve::EndgameDb& db,
                              const SolveArgs& args);

}  // namespace naqala::cli
