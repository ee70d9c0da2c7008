#pragma once
// Engine matches: two engines play both sides of each opening; the result is scored with an
// Elo difference and its 95% error margin. What `naqala arena` runs.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.h"
#include "engine/engine.h"

namespace naqala::engine {

// How one engine game is played (arena, tournaments): seconds per move for every engine, or a
// game clock (base + increment per move, seconds) whose fall loses the game; 0 = each engine's
// own limits.
struct EngineGameOptions {
  double movetime = 0;  // seconds per move; 0 = each engine's own limits
  double clock_base = 0, clock_increment = 0;
  double time_margin = 0.2;  // seconds a clock may go below zero before the flag falls
  int max_plies = 2000;      // a game still running then is adjudicated by its score
};

struct ArenaOptions {
  std::string variant;
  std::array<std::string, 2> engines;  // specs, as make_engine takes them
  int games = 100;                     // rounded up to an even number: each opening twice
  int threads = 1;                     // games played at once, each with its own engines
  int opening_plies = 4;               // random plies from the start that make an opening
  // A game with a setup (Omweso's layout): -1, the openings lay it out as the engines do and
  // their plies are moves of play; K >= 0, the openings are the first K plies of the setup at
  // random (AnyState::uniform_setup_move) and the engines make the rest, so the match measures
  // their layouts too (then opening_plies must be 0 unless K completes the setup).
  int setup_plies = -1;
  std::uint64_t seed = 1;
  EngineGameOptions game;  // time control and the ply cap of every game
  // Builds the engines (make_engine when unset; the CLI adds outside programs, `cmd:`).
  std::function<std::unique_ptr<Engine>(const AnyGame&, const std::string& spec)> make_engine;
  std::function<void(int done, int total)> progress;
};

struct ArenaGame {
  std::string opening;             // position text
  int first_engine_side = 0;       // 0: engines[0] played South
  double first_engine_points = 0;  // 1, 0.5 or 0
  int plies = 0;
  std::string result;   // "1-0", "0-1", "1/2-1/2" (South's view)
  std::string end;      // the end reason, or how an engine lost it: "crash", "hang",
                        // "illegal move", "time forfeit"
  std::string failure;  // what the failing engine did, with the position; empty otherwise
};

struct ArenaResult {
  int games = 0;
  int wins = 0, draws = 0, losses = 0;  // for engines[0]
  double score = 0;                     // engines[0]'s points per game
  double elo = 0;                       // engines[0] minus engines[1]
  double elo_margin = 0;                // half-width of the 95% interval
  std::array<double, 2> seconds_per_move{};
  std::array<std::uint64_t, 2> moves{};
  int south_wins = 0, north_wins = 0;
  std::vector<ArenaGame> results;
};

ArenaResult run_arena(const ArenaOptions& options);

// Plays `plies` random moves on `s`: ordinary moves (no cube action), dice rolled in between,
// and a setup phase (Omweso's layout) made first, not counted: by AnyState::opening_setup_move
// when `setup_plies` is -1, else its first `setup_plies` plies by uniform_setup_move
// (ArenaOptions). A setup left for the engines with `plies` > 0 to play is an Error naming both
// numbers.
void play_random_opening(AnyState& s, int plies, Rng& rng, int setup_plies = -1);

// `count` distinct openings of `plies` random plies from the start (repeats only when the game
// has too few), as position texts; `setup_plies` as play_random_opening's.
std::vector<std::string> make_openings(const AnyGame& game, int count, int plies,
                                       std::uint64_t seed, int setup_plies = -1);

struct EngineGame {
  double south_points = 0;  // 1, 0.5 or 0
  int plies = 0;
  std::string result;   // "1-0", "0-1", "1/2-1/2"
  std::string end;      // the end reason, "adjudicated", or how an engine lost it
  std::string failure;  // what the failing engine did, with the position; empty otherwise
  // Every ply in order: 'S' or 'N' for a move, '*' for a chance event (dice), and its text.
  std::vector<std::pair<char, std::string>> moves;
  std::array<double, 2> seconds{};           // thinking time by side
  std::array<std::uint64_t, 2> decisions{};  // moves chosen by side
};

// `by_side[0]` plays South, `by_side[1]` North; `names` (by side) go into failure messages.
// An engine that crashes, hangs, plays an illegal move or loses on time loses the game.
EngineGame play_engine_game(const AnyGame& game, const std::string& start_position,
                            const std::array<Engine*, 2>& by_side,
                            const std::array<std::string, 2>& names,
                            const EngineGameOptions& options, Rng& dice);

// Elo difference of a score fraction, and the 95% margin from the per-game results. A clean
// sweep (every game won, or every game lost) gets a finite estimate, from half a point more
// in one game more, and its margin reaches to the one-sided 95% bound (the engine is at least
// elo - margin better, or that much worse).
void elo_from_results(int wins, int draws, int losses, double& elo, double& margin);

}  // namespace naqala::engine
