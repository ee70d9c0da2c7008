#pragma once
// Self-play records for fitting an evaluation: an engine plays itself from seeded random
// openings, and every position it searched is written with the engine's value and the game's
// final margin. The file grows a game at a time, so a long run that is stopped resumes where
// it stopped (what `naqala tune oware --pit-table` trains on; docs/engines.md).
//
// File format, one line each (text, so it can be read and cut with ordinary tools):
//   pos POSITION S|N VALUE  a position the engine searched (AnyState::position()), the
//                           player to move, and the engine's value, in points, his view
//   game MARGIN          the end of a game: South's final store minus North's
// Lines after the last `game` line belong to a game cut short and are dropped.
#include <cstdint>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/text_file.h"
#include "games/any_game.h"

namespace naqala::engine {

struct SelfPlayOptions {
  std::string engine = "alphabeta:nodes=20000";  // the spec that plays both sides
  int games = 1000;                              // the file holds this many when done
  int opening_plies = 6;                         // random plies before the engine plays
  std::uint64_t seed = 1;                        // game g opens with the generator seed + g
  int max_plies = 600;  // a game still running then is scored by its stores
  std::function<void(int done, int total)> progress;
};

struct SelfPlayPosition {
  std::string position;
  Player mover = Player::South;
  double value = 0;   // the engine's, the mover's view, points (a proven result as its margin)
  double margin = 0;  // the final margin from the mover's view
};

// Opens a file that grows a block of lines at a time (each block ended by a line that
// `ends_block` accepts) for appending, after dropping the lines of a block cut short (a
// killed run's); `blocks` is set to the complete blocks it holds. `what` names the file's
// contents in the error when it cannot be written. Self-play records and exact labels
// (kalah_labels.h) resume through it.
std::ofstream resume_blocks(const std::string& path, bool (*ends_block)(const std::string& line),
                            int& blocks, const std::string& what);

// An engine's value (points) as the records keep it: a proven result, +-(1000 + margin), as
// its margin.
double record_value(double value);

// The distinct positions of `records` that `keep` accepts, in an order drawn by `seed` (the
// roots that labels are drawn from: engine/kalah_labels.h, engine/search_labels.h).
std::vector<std::string> shuffled_positions(const std::vector<SelfPlayPosition>& records,
                                            const std::function<bool(const std::string&)>& keep,
                                            std::uint64_t seed);

// Whether a label file's line ends a root's block (resume_blocks' `ends_block` for label files).
inline bool ends_label_root(const std::string& line) {
  return line == "root";
}

// The labels of a label file's complete roots (each root's lines ended by a line `root`; lines
// after the last are dropped): `parse(kind, words, label)` reads a line that is not `root` (its
// first word `kind`, the rest in `words`), false when it is not in the format, and the error
// then names the file, the line and `expected`. `what` names the contents when the file cannot
// be read. Exact labels (kalah_labels.h) and search labels (search_labels.h) read through it.
template <class Label, class Parse>
std::vector<Label> read_root_blocks(const std::string& path, const std::string& what,
                                    const std::string& expected, Parse parse, int* roots) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read " + what + " " + path);
  std::vector<Label> out, pending;
  std::string line;
  int complete = 0;
  for (int number = 1; read_bounded_line(in, line, path); ++number) {
    std::istringstream words(line);
    std::string kind, rest;
    words >> kind;
    if (kind == "root") {
      if (!(words >> rest)) {
        for (auto& p : pending) out.push_back(std::move(p));
        pending.clear();
        ++complete;
        continue;
      }
    } else {
      Label l;
      if (parse(kind, words, l) && !(words >> rest)) {
        pending.push_back(std::move(l));
        continue;
      }
    }
    throw Error(path + ":" + std::to_string(number) + ": " + expected);
  }
  if (roots) *roots = complete;
  return out;
}

// Plays the games the file at `path` lacks (creating it, or dropping a cut-off last game) and
// returns how many games it now holds.
int extend_self_play(const AnyGame& game, const std::string& path, const SelfPlayOptions& o);

// Every position of the file's complete games; throws naqala::Error naming the line that is
// not in the format.
std::vector<SelfPlayPosition> read_self_play(const std::string& path, int* games = nullptr);

}  // namespace naqala::engine
