#pragma once
// Exact labels for fitting a Kalah evaluation: positions sampled from self-play records
// (engine/selfplay_records.h) with a given number of seeds on the board, each with the final
// margin the Kalah solver proves for it over an endgame database (solve/kalah_solver.h), and
// the positions one move after it (what a search's leaves look like: good moves and bad).
// The file grows a root position at a time, so a stopped run resumes, and a run writes the
// same file for the same records and options however often it was stopped: the roots are
// drawn by the seed, every root gets a fresh solver table, and a proof is cut off after a
// number of nodes, never a time.
//
// File format, one line each (text):
//   exact POSITION MARGIN       a proven final margin, the mover's view (store minus store)
//   open POSITION LOW HIGH      a proof cut off by the node limit: the margin lies in [LOW, HIGH]
//   root                        the end of one root's lines (lines after the last are dropped)
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/selfplay_records.h"
#include "games/sowing/state.h"
#include "solve/kalah_db.h"

namespace naqala::engine {

struct ExactLabelOptions {
  int roots = 10000;                     // the file holds this many roots when done
  int min_seeds = 26, max_seeds = 42;    // seeds in the pits of a root
  bool children = true;                  // also label each position one move after a root
  std::uint64_t seed = 1;                // draws the roots from the records
  std::uint64_t node_limit = 4'000'000;  // per proof (the solver's nodes)
  std::size_t table_mb = 32;             // each root's solver table
  std::function<void(int done, int total)> progress;
};

struct ExactLabel {
  std::string position;
  int low = 0, high = 0;  // the final margin from the mover's view lies in [low, high]
  bool exact() const { return low == high; }
};

// The roots: the distinct positions of `records` with min..max seeds in the pits, in an order
// drawn by `seed` (all of them; the file takes the first `roots`).
std::vector<std::string> exact_label_roots(const sowing::Rules& rules,
                                           const std::vector<SelfPlayPosition>& records,
                                           const ExactLabelOptions& o);

// Labels the roots the file at `path` lacks (creating it, or dropping a cut-off last root)
// and returns how many roots it now holds (fewer than o.roots when the records run out).
// `db` may be null (the solver searches to the game's end alone).
int extend_exact_labels(const sowing::Rules& rules, const std::vector<SelfPlayPosition>& records,
                        const solve::EndgameDb* db, const std::string& path,
                        const ExactLabelOptions& o);

// Every label of the file's complete roots; throws naqala::Error naming the line that is not
// in the format.
std::vector<ExactLabel> read_exact_labels(const std::string& path, int* roots = nullptr);

}  // namespace naqala::engine
