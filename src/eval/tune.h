#pragma once
// Tuning the sowing evaluation from self-play: games between noisy alpha-beta players from
// random openings; every position's features are paired with the final point margin from its
// mover's view, and the weights are the ridge least-squares fit of that margin (so an
// evaluation reads as "the margin this position ends with"). Deterministic for a seed.
#include <array>
#include <cstdint>
#include <functional>

#include "eval/sowing_eval.h"

namespace naqala::eval {

struct TuneOptions {
  int games = 400;
  int depth = 6;             // self-play search depth
  double temperature = 0.5;  // softmax noise of the self-play moves, in seeds
  int random_plies = 4;      // random opening plies
  std::uint64_t seed = 1;
  double ridge = 1.0;  // L2 penalty on the weights (in squared seeds)
  std::function<void(int done, int total)> progress;
};

struct TuneResult {
  SowingWeights weights;
  int games = 0;
  std::size_t positions = 0;
  double rms_before = 0;  // RMS error (seeds) of the starting weights on the data
  double rms_after = 0;   // ... and of the fitted weights
};

TuneResult tune_sowing(const sowing::Rules& rules, const SowingWeights& start,
                       const TuneOptions& options);

}  // namespace naqala::eval
