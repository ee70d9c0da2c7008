#pragma once
// When a timed Kalah engine tries to prove its root by the solver beyond its database
// (engine/sowing_engines.cpp): the proof takes half of the move's time, and far above the
// database it nearly never succeeds in that time, so every try there is half a move lost to
// the search. The pace decides from the seeds in the pits, the database's size, the proof's
// time and how the game's earlier tries went; it reads no clock.
// - A first ceiling: the database's seeds + 16 at 0.05 s (the share of a 0.1 s move), 2 more
//   seeds for every doubling of the time (+22.6 at 0.5 s: 34 with the 12-seed database, above
//   the 30 seeds of docs/solving.md's 1,000-position check at 1 s a move). Measured at 0.05 s
//   (docs/engines.md, "Playing from a Kalah database"): with the 24-seed database the proofs
//   of a game succeed to 38 seeds, half of them at 39-40, a quarter at 41-42, none above;
//   with the 12-seed one to 25, 5 of 8 at 27, none above 27.
// - A try that fails at n seeds waits for n - 2 (the first failure since the last proof),
//   then n - 4 after each further failure: the proof's work grows about geometrically with
//   the seeds, so right after a failure a position with one seed less rarely fits either.
// - A proof resets the wait: the positions after a proven one are usually proven from the
//   solver's table at once.
#include <algorithm>
#include <cmath>

namespace naqala::engine {

class KalahProofPace {
 public:
  // The largest seed count tried first in a game with a database of `db_seeds` and
  // `seconds` for the proof.
  static int ceiling(int db_seeds, double seconds) {
    if (seconds <= 0) return db_seeds;
    const double extra = 16 + 2 * std::log2(seconds / 0.05);
    return db_seeds + std::max(0, static_cast<int>(std::floor(extra)));
  }
  void new_game() {
    try_at_ = kUnset;
    failures_ = 0;
  }
  // Try a proof of a position with `seeds` in the pits (above the database)?
  bool should_try(int seeds, int db_seeds, double seconds) const {
    if (seconds <= 0) return false;
    return seeds <= std::min(try_at_, ceiling(db_seeds, seconds));
  }
  void failed(int seeds) {
    ++failures_;
    try_at_ = seeds - (failures_ == 1 ? 2 : 4);
  }
  void proven() {
    failures_ = 0;
    try_at_ = kUnset;
  }

 private:
  static constexpr int kUnset = 1 << 30;
  int try_at_ = kUnset;  // the largest seed count the next try may have
  int failures_ = 0;     // tries failed since the last proof
};

}  // namespace naqala::engine
