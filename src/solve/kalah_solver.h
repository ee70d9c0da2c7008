#pragma once
// Solving Kalah-like positions exactly: how many of the seeds on the board the player to move
// ends up with (solve/kalah.h), by null-window alpha-beta to the end of the game (MTD(f)).
// - Boards with at most K seeds are answered by the endgame database.
// - A transposition table keeps proven bounds [low, high] per board, keyed by the board's
//   number (solve/compositions.h): a perfect key, so no two boards are ever confused and the
//   result is a proof. Bounds never depend on depth, so entries from earlier null-window
//   tests stay valid; entries of larger subtrees are kept first.
// - Before searching a node, every child's known bounds (game over, database, table) are
//   checked: one that already answers the question ends the node (enhanced transposition
//   cut-off).
// - Moves are tried: the table's best move, extra turns (nearest the store first), captures
//   (largest first), then the others nearest the store first.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/zeroed_table.h"
#include "solve/compositions.h"
#include "solve/kalah.h"
#include "solve/kalah_db.h"

namespace naqala::solve {

class Solver {
 public:
  // `db` may be null (no database) and must outlive the solver; its rules must be `rules`.
  Solver(const KalahRules& rules, int total_seeds, const EndgameDb* db, std::size_t table_mb);

  struct Stats {
    std::uint64_t nodes = 0;  // positions searched (database answers are not counted)
    double seconds = 0;
  };

  // Is the value of b (seeds on it the mover ends up with) at least `target`? nullopt when
  // `seconds` (0 = no limit) run out first.
  std::optional<bool> at_least(const Board& b, int target, double seconds);

  // The exact value by MTD(f): tests "at least g" starting from `first_guess` and moving one
  // seed at a time toward the answer. [low, high] brackets the value at every step and is
  // what is known when the time runs out. `on_step` is told of each answered test and stops
  // the search by returning false.
  struct Result {
    int low = 0, high = 0;  // the value lies in [low, high]; exact when equal
    int best_move = -1;     // a pit (0-based, mover's left) reaching `low`; -1 if unknown
    bool exact() const { return low == high; }
  };
  Result solve(const Board& b, int first_guess, double seconds,
               const std::function<bool(const Result&)>& on_step = {});

  const Stats& stats() const { return stats_; }
  // Each later solve() also stops after `nodes` positions (0: no limit). Unlike a time limit
  // it stops at the same node on every machine, so what it proves does not depend on the load.
  void set_node_limit(std::uint64_t nodes) { node_limit_ = nodes; }
  // The table's pages mapped now rather than at their first probe (ZeroedTable::touch_pages).
  void touch_table() { table_.touch_pages(); }
  // A move of b that reaches at least `value` (searched when the table does not know), or -1
  // when there is none or the time ran out.
  int best_move(const Board& b, int value);

 private:
  struct Entry {
    std::uint64_t key;  // board number + 1 (0 = empty)
    std::uint8_t low, high, move, unused;
    std::uint32_t work;  // nodes spent proving it (saturating)
  };
  static_assert(sizeof(Entry) == 16);
  static constexpr int kWays = 4;  // entries per bucket: one 64-byte cache line

  struct Child {
    Board board;    // from the view of whoever moves next
    int gained;     // seeds the move put in the mover's store
    int left;       // seeds left on the board
    int low, high;  // bounds on the mover's value through this move
    int order;      // move ordering score
    std::uint8_t pit;
    bool extra;  // the mover moves again in `board`
  };

  int search(const Board& b, int n, int target);
  Entry* bucket_of(std::uint64_t key) const {
    return &table_[((key * 0x9e3779b97f4a7c15ULL) >> 20 & buckets_mask_) * kWays];
  }
  Entry* probe(std::uint64_t key);
  void store(std::uint64_t key, int low, int high, int move, std::uint64_t work);
  bool out_of_time();

  KalahRules rules_;
  const EndgameDb* db_;
  int db_seeds_;
  Compositions index_;
  ZeroedTable<Entry> table_;
  std::uint64_t buckets_mask_ = 0;
  Stats stats_;
  bool stopped_ = false;
  double deadline_ = 0;
  std::uint64_t node_limit_ = 0;
  std::chrono::steady_clock::time_point start_;
};

// The final margin (own store minus the opponent's at the end) of the player to move in a
// Kalah-like sowing state: first whether he wins (margin >= 1), then the exact margin, by
// `solver` (which must be for the state's rules) within `seconds` (0 = no limit).
struct MarginProof {
  int low = 0, high = 0;  // the margin lies in [low, high]
  std::string best_move;  // a move reaching `low` once exact, in the variant's notation
  std::uint64_t nodes = 0;
  double seconds = 0;
  bool exact() const { return low == high; }
  // Win, draw or loss is proven.
  bool decided() const { return low >= 1 || high <= -1 || (low == 0 && high == 0); }
};
// `on_step` hears of every narrowing of [low, high]; `result_only` stops once decided().
MarginProof prove_margin(const sowing::State& s, Solver& solver, double seconds,
                         bool result_only = false,
                         const std::function<void(const MarginProof&)>& on_step = {});

}  // namespace naqala::solve
