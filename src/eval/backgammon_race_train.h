#pragma once
// Supervised training of the race network from one-sided race distributions
// (docs/games/backgammon.md, "Race training"). Once there is no contact the two sides' races
// are independent: each side's chances are fixed by the distribution of the number of rolls
// it needs to bear off (and to bear off its first checker, and to clear the opponent's home
// board, for gammons and backgammons). A side's distribution is sampled by playing its race
// alone many times; once every checker is home the exact one-sided bear-off database takes
// over. Two sides' distributions give the five probabilities of any race between them, for
// either side on roll, which TD(lambda) self-play learnt with a bias for the side on roll.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/rng.h"
#include "eval/backgammon_net.h"

namespace naqala::bgrace {

using backgammon::Side;
using bgnet::Probs;

constexpr int kRolls = 64;

// P(the event happens exactly at the side's n-th roll from now), n = 0 .. kRolls - 1 (0: it
// has already happened).
struct Distribution {
  std::array<float, kRolls> off{};        // the last checker borne off
  std::array<float, kRolls> first_off{};  // the first checker borne off
  std::array<float, kRolls> cleared{};    // no checker left on its points 19-24 (or the bar)
};

// A side's race alone: exact (the bear-off database) when every checker is home, otherwise
// sampled over `trials` dice sequences, each roll played to minimise an estimate of the rolls
// still needed. Needs no checker on the bar and none beyond its 23-point.
Distribution sample(const Side& side, int trials, Rng& rng);

// The five probabilities for the side with distribution `me` on roll against `opp` (a side
// with a checker off has its first_off at 0: no gammon against it).
Probs race_probs(const Distribution& me, const Distribution& opp);

struct Config {
  std::uint64_t seed = 1;
  int games = 3000;         // self-play games (the net at 0 ply) whose races give the sides
  int random_sides = 2000;  // and sides drawn at random (outfield races self-play seldom plays)
  int trials = 400;         // sampled races per side
  std::uint64_t steps = 2000000;  // training pairs
  float rate = 0.003f;
  int threads = 1;
  std::string cache;  // sides and their distributions, appended as they are sampled (resume)
};

struct Progress {
  std::string stage;
  std::uint64_t done = 0, total = 0;
  double seconds = 0;
};

// The race sides of self-play games and random ones, in a fixed order for the seed.
std::vector<Side> collect_sides(const bgnet::Net& net, const Config& config);

// Samples every side's distribution (reusing those already in config.cache), then trains the
// race network of `net` on `config.steps` pairs of sides with close pip counts and no
// contact, each side on roll in turn.
void train(bgnet::Net& net, const Config& config,
           const std::function<void(const Progress&)>& report);

}  // namespace naqala::bgrace
