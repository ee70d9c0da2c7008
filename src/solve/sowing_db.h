#pragma once
// Endgame databases for the two-row sowing family (Oware, Awale, Kalah, Bantumi and users'
// TOML variants of that shape), built by the retrograde engine of solve/retro.h.
//
// For every board with at most K seeds in the pits (numbered by solve/compositions.h) the file
// keeps the bounds [low, high] of the best difference of the seeds still to be won for the
// player to move, played to the end of the game: a stop at a majority (Oware's 25) changes no
// win, draw or loss, so boards need no store counts. `low` is what the mover can force and
// `high` what the opponent can hold him to, whatever the cycle rule and whatever positions
// were seen since the last capture; where they meet (every board of an acyclic ruleset) the
// value is exact and the same under every cycle rule. Where they do not, the value depends on
// the cycle rule or the history, and naqala plays by a stated convention (cycle_convention()).
//
// The file: a 4096-byte header (magic, version, K, width, the rules' fingerprint, a checksum
// of the values), then the values: one signed byte per board when every board is exact, two
// (low, high) otherwise. It is memory-mapped when loaded. A build writes each finished level
// to a level file beside the database, so an interrupted `--build-db` resumes.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "games/sowing/rules.h"
#include "solve/compositions.h"
#include "solve/kalah.h"
#include "solve/retro.h"

namespace naqala::solve {

// The part of a ruleset a database depends on.
struct DbRules {
  std::shared_ptr<const sowing::Rules> played_out;  // threshold and tie rules off
  std::string fingerprint;                          // every rule field that changes a value
  std::optional<KalahRules> kalah;                  // Kalah's own sowing kernel applies
};
// Throws VariantError naming what the databases cannot hold (they take two-row fast-path
// rulesets of 1 to 8 pits a row, without a tuz, of at most 127 seeds).
DbRules db_rules(const sowing::Rules& rules);

class SowingDb {
 public:
  struct Bounds {
    int low = 0, high = 0;
    bool exact() const { return low == high; }
  };
  // MPI: this process is rank `rank` of `ranks`; it computes its slice of every level
  // (boards [count * rank / ranks, count * (rank + 1) / ranks) of a level of `count`) and
  // keeps only that slice (and, while a level is built by the worklist, the bounds of the
  // boards of other slices its boards reach in the level). `share` gives every process the
  // whole level being built (the passes: an all-gather of the slices of `values`, two bytes a
  // board), `sum` adds a count over all processes, and `alltoall` sends `to[r]` to process r
  // and returns what each process sent this one (the values of lower levels asked of their
  // owners, the worklist's boards that moved sent to the processes that read them, and the
  // files' bytes streamed to rank 0, which alone writes files).
  struct Parallel {
    int rank = 0, ranks = 1;
    std::function<void(std::uint16_t* values, std::uint64_t count)> share;
    std::function<std::uint64_t(std::uint64_t)> sum;
    std::function<std::vector<std::vector<std::uint8_t>>(
        const std::vector<std::vector<std::uint8_t>>& to)>
        alltoall;
  };
  struct BuildOptions {
    int threads = 1;
    std::string level_dir;  // where finished levels are kept (resume); empty: none
    retro::ProgressFn progress;
    Parallel parallel;
    bool passes = false;  // cyclic levels by passes, not the worklist (the same bytes)
    // Asked (from any thread) through the build (retro.h's Schedule::stop); once true it must
    // stay true (a deadline). The level under way is dropped; the levels done are in
    // level_dir. Then build throws BuildStopped, or with keep_stopped returns the database of
    // the levels done (the first boards of the numbering), if there is one.
    std::function<bool()> stop;
    bool keep_stopped = false;
    // A smaller database of the same rules whose levels the build takes instead of computing
    // them again (`--from-db`): a board's value does not depend on how many levels are built.
    const SowingDb* start_from = nullptr;
  };
  struct BuildStopped : Error {
    BuildStopped(int complete, int max_seeds, const std::string& level_dir);
    int complete;  // the last level done (-1: none)
  };

  // One process (options.parallel.ranks == 1) builds the whole database in memory.
  static SowingDb build(const sowing::Rules& rules, int max_seeds, const BuildOptions& options);
  // Every process of a build under MPI calls this: each keeps its slice of every level (and
  // of the level being built the bounds of its ghosts, and the values of lower levels its
  // slice reads),
  // and rank 0 writes the database to `path`, streamed from every process's slices: the bytes
  // of build() then save(). Not stoppable (options.stop must be empty).
  struct Written {
    std::uint64_t boards = 0;
    int width = 2;
    double write_seconds = 0;  // gathering and writing the file
  };
  static Written build_sliced(const sowing::Rules& rules, int max_seeds,
                              const BuildOptions& options, const std::string& path);
  // Throws naqala::Error when the file is missing, not a database, damaged (checksum) or
  // truncated.
  static SowingDb load(const std::string& path);
  void save(const std::string& path) const;

  int max_seeds() const { return index_.max_seeds(); }
  int pits() const { return index_.pits(); }
  std::uint64_t size() const { return index_.offset(max_seeds() + 1); }
  int width() const { return width_; }  // bytes a board
  const std::string& fingerprint() const { return fingerprint_; }
  const Compositions& index() const { return index_; }
  // Throws naqala::Error when the database was not built for these rules.
  void check_rules(const sowing::Rules& rules) const;

  Bounds bounds(const Board& b, int n) const { return bounds_at(index_.key(b, n)); }
  Bounds bounds_at(std::uint64_t key) const {
    if (width_ == 1) {
      const int v = static_cast<std::int8_t>(values_[key]);
      return {v, v};
    }
    return {static_cast<std::int8_t>(values_[2 * key]),
            static_cast<std::int8_t>(values_[2 * key + 1])};
  }
  // Boards of level n whose value is exact (the same under every cycle rule).
  std::uint64_t exact_count(int n) const;

 private:
  SowingDb(int pits, int max_seeds) : index_(pits, max_seeds) {}
  // Keeps the build's values of this database's boards (one byte each when all are exact).
  SowingDb take_values(const std::shared_ptr<std::uint16_t>& values);

  Compositions index_;
  int width_ = 2;
  std::string fingerprint_;
  std::shared_ptr<const std::uint8_t> storage_;  // owns the values (heap or mapping)
  const std::uint8_t* values_ = nullptr;
};

// The value naqala plays by where the bounds differ: what the ruleset's cycle rule gives if
// the game ended at this board (Oware's owner rule: the mover's row minus the opponent's; a
// draw: 0), clamped into [low, high].
int cycle_convention(const sowing::Rules& rules, const Board& b, SowingDb::Bounds bounds);

// A name for the database file of these rules and K, e.g. "oware-24seeds.db".
std::string default_db_name(const sowing::Rules& rules, int max_seeds);

}  // namespace naqala::solve
