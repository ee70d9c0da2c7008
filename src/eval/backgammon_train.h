#pragma once
// TD(lambda) self-play training of the backgammon networks (docs/games/backgammon.md, "Training").
// Each game is played cubeless by the net at 0 ply (the bear-off databases where they
// apply); afterwards every position is moved towards its lambda-return (the forward view of
// TD(lambda), computed from the values the net gave during the game). Game g's dice come
// from the seed and g alone, so a run resumed from a checkpoint plays the same games as one
// that never stopped.
#include <cstdint>
#include <functional>
#include <string>

#include "eval/backgammon_net.h"

namespace naqala::bgtrain {

struct Config {
  std::uint64_t games = 100000;  // total games (a resumed run counts the ones done)
  std::uint64_t seed = 1;
  float rate = 0.01f;
  float lambda = 0.7f;
  std::uint64_t checkpoint_every = 5000;
  double seconds = 0;  // stop after this much wall time (0: no limit), at a game's end
  std::string out;     // checkpoint and final weights
  // The value of each position of a game (its side on roll, before the roll) that the
  // lambda-returns are built from; empty: the net's 0-ply evaluation. A deeper search (the
  // CLI's --target-plies 1) gives targets corrected by our own look-ahead.
  std::function<bgnet::Probs(const bgnet::Net&, const backgammon::Board&)> value;
};

struct Progress {
  std::uint64_t games = 0;
  double seconds = 0;
  double plies_per_game = 0;
};

// Trains `net` (whose meta.games says where to start) and writes checkpoints to config.out.
// `report` is called after every checkpoint.
void train(bgnet::Net& net, const Config& config,
           const std::function<void(const Progress&)>& report);

// One self-play game; returns its number of plies. Exposed for the tests. `value` as in
// Config (empty: 0-ply).
int play_training_game(bgnet::Net& net, std::uint64_t seed, std::uint64_t game, float rate,
                       float lambda, const decltype(Config::value)& value = {});

}  // namespace naqala::bgtrain
