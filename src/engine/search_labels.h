#pragma once
// Search labels for training an evaluation on what a deeper search finds (distillation; Bao's
// network, eval/bao_net.h): positions drawn from self-play records (engine/selfplay_records.h),
// each valued by an engine's search, and optionally the positions one move after it (what a
// search's leaves look like). The file grows a root position at a time, so a stopped run
// resumes, and a run writes the same file for the same records and options however often it
// was stopped: the roots are drawn by the seed, every root gets a fresh engine (and table),
// and the engine's spec should limit its search by nodes, never by time.
//
// File format, one line each (text):
//   value POSITION VALUE   the engine's value of the position, in points, the mover's view (a
//                          proven result as its margin)
//   root                   the end of one root's lines (lines after the last are dropped)
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/selfplay_records.h"
#include "games/any_game.h"

namespace naqala::engine {

struct SearchLabelOptions {
  std::string engine = "alphabeta:nodes=300000";  // the search that values a position
  int roots = 1000;                               // the file holds this many roots when done
  bool children = false;                          // also value each position one move after a root
  std::uint64_t seed = 1;                         // draws the roots from the records
  std::function<void(int done, int total)> progress;
};

struct SearchLabel {
  std::string position;
  double value = 0;  // points, the mover's view
};

// Values the roots the file at `path` lacks (creating it, or dropping a cut-off last root) and
// returns how many roots it now holds (fewer than o.roots when the records run out). Positions
// of games that are over are not roots.
int extend_search_labels(const AnyGame& game, const std::vector<SelfPlayPosition>& records,
                         const std::string& path, const SearchLabelOptions& o);

// Every label of the file's complete roots; throws naqala::Error naming the line that is not in
// the format.
std::vector<SearchLabel> read_search_labels(const std::string& path, int* roots = nullptr);

}  // namespace naqala::engine
