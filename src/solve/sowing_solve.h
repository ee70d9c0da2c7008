#pragma once
// Solving a position of a two-row sowing game (Oware, Awale, Bantumi, TOML variants) for the
// game as naqala plays it from there: the position is the start of the game (nothing seen
// before it), the ruleset's stop at a store count and its cycle rule apply.
//
// A search on top of the endgame database (solve/sowing_db.h) over the real sowing engine:
// iterative deepening of null-window proofs ("is the final margin at least t?", t chosen by
// bisection of the proven bracket), each answering yes, no, or "not within this depth".
// A position that repeats on the search path ends the game by the cycle rule there. A board
// of the database's size answers for its subtree where nothing before it can come back (the
// root, or reached by a capture): its bounds [low, high] give the margin exactly when no
// store can reach the stop any more, else only the result (a stop at a majority changes no
// win, draw or loss). Positions cut by the depth get the widest honest bounds (stores +- the
// seeds left), so every value the search returns is a proven bound, whatever the depth.
// Where a value depends on repetitions that neither the database nor the search settles, the
// answer is an interval, never a guess.
//
// The transposition table keeps those proven bounds, so they hold at any depth and in later
// solves. A value depends on the position and on the positions since the last capture that
// would end the game if they came back: the key is the whole position (pits, the mover's
// store, the mover) and a 64-bit hash of that set (the cycle rule compares 64-bit position
// hashes too), so two positions reached along different paths share an entry only when the
// same positions can repeat below them.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "games/sowing/state.h"
#include "solve/sowing_db.h"

namespace naqala::solve {

struct SowingProof {
  int low = 0, high = 0;  // the final margin of the player to move lies in [low, high]
  std::string best_move;  // the move with the best proven lower bound (empty: none)
  // Every move proven optimal. The search goes on while the value is exact but no move is
  // proven (the root's own database entry can settle the value first); only a time limit can
  // leave an exact value with this empty.
  std::vector<std::string> optimal_moves;
  std::uint64_t nodes = 0;
  double seconds = 0;
  int depth = 0;  // plies of the last completed iteration
  bool exact() const { return low == high; }
  bool decided() const { return low >= 1 || high <= -1 || (low == 0 && high == 0); }
};

// The prover with its table, allocated once (`table_mb` MiB) and kept between solves: an
// engine keeps one for the game. It serves one ruleset, the first it is given.
class SowingProver {
 public:
  explicit SowingProver(std::size_t table_mb = 32);
  ~SowingProver();
  SowingProver(const SowingProver&) = delete;
  SowingProver& operator=(const SowingProver&) = delete;

  // As solve_sowing below. `every_optimal`: test every move against the value once it is
  // exact (false: the first move proven optimal is enough, as for an engine's move).
  SowingProof solve(const sowing::State& s, const SowingDb* db, double seconds,
                    std::span<const std::uint64_t> before = {}, std::uint64_t max_nodes = 0,
                    bool every_optimal = true);
  // The table's pages mapped now rather than at their first probe (ZeroedTable::touch_pages).
  void touch_table();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `db` may be null (then the search alone); it must have been built for the state's rules.
// `seconds` bounds the time (0: until the bounds stop narrowing). `before`: positions played
// before s since the last capture (they end the game if they repeat); then the database is not
// asked about s itself, whose value may depend on them. `max_nodes` (0: none) bounds the work
// like `seconds`, but gives the same answer on any machine. A prover with a table sized for
// the budget is made for the call.
SowingProof solve_sowing(const sowing::State& s, const SowingDb* db, double seconds,
                         std::span<const std::uint64_t> before = {}, std::uint64_t max_nodes = 0);

}  // namespace naqala::solve
