#pragma once
// The engine API: what `naqala play`, `analyze`, `arena`, the server and Python use to get
// a computer's move or an analysis. Every engine works on type-erased states; inside, the
// typed searches (search/alphabeta.h, search/mcts.h) run on the game's own state type.
//
// Values are in points (seeds for sowing games) from the view of the player to move; a
// proven result reads as +-(1000 + margin), e.g. 1010 = "wins by 10".
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "games/any_game.h"

namespace naqala::engine {

struct MoveScore {
  std::string move;
  double value;       // mover's view
  bool exact = true;  // false: an upper bound (the move is not among the lines asked for)
};

struct Analysis {
  std::string best_move;
  double value = 0;  // mover's view, in points; +-(1000 + margin) when proven
  std::vector<std::string> pv;
  // Every legal move scored, best first: the best `Limits::multipv` exactly, the others by an
  // upper bound that shows they are worse.
  std::vector<MoveScore> scores;
  int depth = 0;            // alpha-beta: completed depth; MCTS: deepest tree line
  std::uint64_t nodes = 0;  // alpha-beta: positions visited; MCTS: simulations
  double seconds = 0;
  bool proven = false;     // the value is exact (every line searched to the end)
  bool from_book = false;  // the opening book's move and values (engine/book.h), no search
};

struct Limits {
  double seconds = 0;
  int depth = 0;
  std::uint64_t nodes = 0;  // 0 = unset
  int multipv = 1;          // how many best moves get exact values (alpha-beta)
};

// A game clock for choose_move_on_clock: the mover's remaining time and increment, seconds.
struct Clock {
  double remaining = 0;
  double increment = 0;
  int moves_to_go = 0;  // moves to the next time control; 0 = the rest of the game
};

// The game so far: where it started (a position text) and every move since, in naqala's
// notation (backgammon's rolls among them, as "3-1").
struct GameHistory {
  std::string start;
  std::vector<std::string> moves;
};

// A search the caller controls: the engine protocol's `go` (src/protocol/).
struct SearchRequest {
  // The game that led to the state, for engines that want it (an outside program is sent it
  // as `position text START moves ...`); null: the state alone.
  const GameHistory* history = nullptr;
  Limits limits;          // set ones replace the spec's limits
  bool on_clock = false;  // budget the time from `clock` (limits.seconds, when set, caps it)
  Clock clock;
  bool infinite = false;  // search until stop()
  // Hears each completed iteration (depth, value, nodes, pv) while the search runs.
  std::function<void(const Analysis&)> progress;
};

// An engine that failed as a player: an outside program that crashed, hung, broke the
// protocol or answered an illegal move. The arena scores the game as its loss and goes on.
class EngineFailure : public Error {
 public:
  EngineFailure(std::string kind, const std::string& what) : Error(what), kind_(std::move(kind)) {}
  const std::string& kind() const { return kind_; }  // "crash", "hang", "illegal move", ...

 private:
  std::string kind_;
};

// The game so far: every entry point passes the state a game reached by playing its moves
// (AnyGame::new_game() or from_position(), then AnyState::play for each move), and the state
// carries the history a search needs (the positions a repetition could come back to, for games
// that end on a cycle). A state made by from_position() alone starts a history there.
class Engine {
 public:
  virtual ~Engine() = default;
  // The engine's move under the limits of its spec. Throws IllegalMoveError when the game is
  // over or a chance event (dice) is due, and Error when the state is of another game.
  virtual std::string choose_move(const AnyState& state) = 0;
  // Every legal move scored. Unset limits fall back to the spec's limits.
  virtual Analysis analyze(const AnyState& state, const Limits& limits) = 0;
  virtual std::string name() const = 0;
  // The move under a game clock: the engine budgets its own time from the clock.
  virtual std::string choose_move_on_clock(const AnyState& state, const Clock& clock) {
    (void)clock;
    return choose_move(state);
  }
  // The engine's move (with its spec's noise) under `request`, and what the search found.
  // stop(), from another thread, ends it early with the best move found so far.
  virtual Analysis think(const AnyState& state, const SearchRequest& request) {
    Analysis a;
    a.best_move =
        request.on_clock ? choose_move_on_clock(state, request.clock) : choose_move(state);
    a.pv = {a.best_move};
    return a;
  }
  virtual void stop() {}
  // A new game starts (the arena, between games): engines that keep state may reset it.
  virtual void new_game() {}
};

// spec: "level:N" (N = 1..10),
// "alphabeta[:time=S,depth=D,nodes=N,threads=T,hash=MB,lmr=D,futility=D,futility_margin=M,
//   noise=X,seed=N,weights=W/W/...]",
// "mcts[:sims=N,time=S,threads=T,c=X,seed=N]", "random[:seed=N]".
// Throws naqala::VariantError naming what was wrong and what is allowed.
std::unique_ptr<Engine> make_engine(const AnyGame& game, std::string_view spec);

// The specs of levels 1..10 for this game, as make_engine builds them (for docs and arena).
std::string level_spec(const AnyGame& game, int level);

// The engine a preset plays with by default (the measured winner for its family).
std::string default_engine_kind(const AnyGame& game);

}  // namespace naqala::engine

namespace naqala::engine {

// Speed figures for `naqala bench search` and bench/: alpha-beta from `state` to `depth`
// (or for `seconds`), one line per completed iteration; MCTS simulations for `seconds`.
struct IterationTime {
  int depth;
  std::uint64_t nodes;  // cumulative
  double seconds;       // cumulative
  double value;
  std::string best_move;
};
// CPU seconds (process time: every thread's) are of the search alone, not of building its
// table or tree, so short runs compare with long ones.
struct SearchBench {
  std::vector<IterationTime> iterations;
  std::uint64_t nodes = 0;
  double seconds = 0;
  double cpu_seconds = 0;
};
SearchBench bench_alphabeta(const AnyState& state, int depth, double seconds, int threads);

struct MctsBench {
  std::uint64_t simulations = 0;
  double seconds = 0;
  double cpu_seconds = 0;
  int depth = 0;
};
MctsBench bench_mcts(const AnyState& state, double seconds, int threads, bool eval_leaf);

// Proves the final margin of the player to move (sowing games without cycles, e.g. Kalah):
// first whether he wins (margin >= 1), then the exact margin by binary search, within
// `seconds` (0 = no limit). [low, high] always brackets the true margin.
struct Proof {
  bool decided = false;  // whether the result (win, draw or loss) is proven
  bool exact = false;    // whether the margin is proven (low == high)
  int low = 0, high = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
};
Proof prove(const AnyState& state, double seconds);

}  // namespace naqala::engine
