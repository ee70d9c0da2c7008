#pragma once
// Backgammon n-ply expectiminimax over the neural evaluation, as the field counts plies:
// 0-ply scores the position a move makes with the evaluation; n-ply averages over the
// opponent's 21 rolls his best reply (chosen at 0-ply) scored at n-1 plies. The root keeps
// only the best moves of each ply for the next (move filters: a count and an equity margin).
// A search stops deepening when its evaluation budget or wall-time guard runs out and
// answers from the deepest ply it finished. The candidates are shared between threads.
#include <cstdint>
#include <optional>
#include <vector>

#include "eval/backgammon_cube.h"
#include "eval/backgammon_evaluator.h"

namespace naqala::bgsearch {

using backgammon::Board;
using backgammon::Move;
using bgnet::Net;
using bgnet::Probs;

struct Filter {
  int keep = 8;          // at most this many moves go on to the next ply
  float margin = 0.16f;  // ... and only those within this equity of the best
};

struct Config {
  int plies = 0;                                        // 0, 1 or 2 (3 allowed, slow)
  std::vector<Filter> filters{{8, 0.16f}, {2, 0.04f}};  // filter after ply 0, 1, ...
  std::uint64_t max_evaluations = 0;                    // 0: no limit
  double seconds = 0;                                   // wall-time guard; 0: none
  int threads = 1;
  float noise = 0;  // Gaussian noise (equity) added to root scores
  std::uint64_t seed = 1;
  // Money play with the cube: the root's moves are ranked by cubeful equity (per unit of the
  // current cube, eval/backgammon_cube.h: the opponent's cube action after the move counts)
  // from the cube as the mover sees it; without it, by cubeless equity.
  struct Cube {
    bgcube::Access access = bgcube::Access::Centred;
    bool jacoby = false;
  };
  std::optional<Cube> cube;
};

struct Candidate {
  Move move;
  Board after;       // after[0] = the mover
  Probs probs;       // the mover's cubeless probabilities, at `plies`
  float equity = 0;  // cubeless, or cubeful with Config::cube
  int plies = 0;     // how deep this move was searched
};

struct Result {
  std::vector<Candidate> moves;  // every legal move, best first (the deepest ply first)
  int plies = 0;                 // deepest ply completed
  std::uint64_t evaluations = 0;
  double seconds = 0;
};

// The cube the mover's checker play counts with in `s`: money play with the cube ranks moves
// by cubeful equity; matches (whose cube is in match-winning chances) and cubeless games by
// cubeless equity.
std::optional<Config::Cube> cube_of(const backgammon::State& s);

// Ranks the moves of the mover (board[0]) for dice d0, d1. No legal move: an empty list.
Result rank_moves(const Net& net, const Board& board, int d0, int d1, const Config& config);

// The cubeless probabilities of `me` on roll before the roll (cube decisions, analysis):
// 0-ply is the evaluation; n plies average the 21 rolls over the best move at n-1 plies
// (chosen at 0-ply).
Probs evaluate_on_roll(const Net& net, const Board& board, int plies);

}  // namespace naqala::bgsearch
