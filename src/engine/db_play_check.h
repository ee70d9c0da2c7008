#pragma once
// End-of-game accuracy: in random positions inside an endgame database (solve/sowing_db.h),
// is an engine's move optimal? The referee is solve/sowing_solve.h (the database with a search
// on top, for the game as naqala plays it from the position: the stop at a store count and the
// cycle rule included). Kalah-like rulesets have their own: positions of up to any number of
// seeds in the pits, refereed by the Kalah solver (solve/kalah_solver.h) on top of a Kalah
// database. `naqala solve VARIANT --check-play N` runs either (docs/solving.md).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "games/any_game.h"
#include "solve/kalah_db.h"
#include "solve/sowing_db.h"

namespace naqala::engine {

struct PlayCheckOptions {
  int positions = 1000;    // positions to check (settled, two legal moves or more)
  int max_seeds = 0;       // seeds in the pits at most (0: the database's K; Kalah: any)
  std::uint64_t seed = 1;  // of the random positions
  // The referee's search per position: a node budget (the same answer on any machine; not
  // for Kalah, whose solver searches to the end) and a time limit (0: none).
  std::uint64_t referee_nodes = 2'000'000;
  double referee_seconds = 0;
};

// One position where the engine's move was not proven optimal.
struct PlayMiss {
  std::string position, move;
  int value = 0;                    // the best final margin for the player to move
  int move_low = 0, move_high = 0;  // the engine's move: its final margin lies in [low, high]
  std::vector<std::string> optimal_moves;
  bool proven_worse() const { return move_high < value; }
  bool keeps_result() const;  // proven to keep the won/drawn/lost result
};

struct PlayCheck {
  int checked = 0;      // positions whose best value and an optimal move the referee proved
  int optimal = 0;      // the engine's move reaches that value
  int result_kept = 0;  // the engine's move keeps the result (won, drawn, lost) at least
  int forced = 0;       // positions drawn with one legal move (not counted as checked)
  int unsettled = 0;    // positions drawn whose value the referee did not settle in time
  std::vector<PlayMiss> misses;  // the engine's move not proven optimal (worse or unknown)
  double seconds = 0;
};

using PlayCheckProgress = std::function<void(const PlayCheck&)>;

// `engine` plays `game` (a two-row sowing ruleset the database was built for). `on_position`
// (may be empty) hears after each position checked.
PlayCheck check_play(const AnyGame& game, Engine& engine, const solve::SowingDb& db,
                     const PlayCheckOptions& options, const PlayCheckProgress& on_position = {});

// The same on a Kalah-like ruleset: positions of 1 to `options.max_seeds` seeds in the pits
// (both rows holding some), each move of each position solved exactly by the Kalah solver with
// `db` (built for the game's Kalah rules).
PlayCheck check_play_kalah(const AnyGame& game, Engine& engine, const solve::EndgameDb& db,
                           const PlayCheckOptions& options,
                           const PlayCheckProgress& on_position = {});

}  // namespace naqala::engine
