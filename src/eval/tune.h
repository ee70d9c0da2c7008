#pragma once
// Tuning a linear evaluation from self-play (sowing, Bao, Omweso): games between noisy
// alpha-beta players from random openings; every position's features are paired with the
// final margin from its mover's view (0 for a draw or an annulled game), and the weights are
// the ridge least-squares fit of that margin, so an evaluation reads as "the margin this
// position ends with". Deterministic for a seed. What `naqala tune` runs.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/rng.h"
#include "eval/sowing_eval.h"
#include "search/alphabeta.h"

namespace naqala::eval {

struct TuneOptions {
  int games = 400;
  int depth = 6;             // self-play search depth
  double temperature = 0.5;  // softmax noise of the self-play moves, in points
  int random_plies = 4;      // random opening plies
  std::uint64_t seed = 1;
  double ridge = 1.0;    // L2 penalty on the weights (in squared points)
  int max_plies = 1000;  // a game still running then is scored as it stands
  std::function<void(int done, int total)> progress;
};

struct TuneResult {
  std::vector<int> weights;  // hundredths of a point per unit, in the evaluation's order
  int games = 0;
  std::size_t positions = 0;
  double rms_before = 0;  // RMS error (points) of the starting weights on the data
  double rms_after = 0;   // ... and of the fitted weights
};

// The ridge least-squares fit of `margins` by `features` (one row per position); weights and
// RMS errors in points. `start` (points) is scored on the same data for rms_before.
TuneResult fit_weights(const std::vector<std::vector<int>>& features,
                       const std::vector<double>& margins, const std::vector<double>& start,
                       double ridge);

// Self-play of `eval` (an evaluation with `features(state, std::array<int, N>&)` and weights
// `start`, hundredths of a point) from `initial`. `opening`, when given, makes the state's
// moves that are not searched (a setup phase) and returns true when it did.
template <class S, class Eval, std::size_t N>
TuneResult tune_self_play(const S& initial, const Eval& eval, const std::array<int, N>& start,
                          const TuneOptions& o,
                          const std::function<bool(S&, Rng&)>& opening = nullptr) {
  search::AlphaBetaOptions options;
  options.hash_mb = 16;
  options.score_all_moves = true;
  search::AlphaBeta<S, Eval> search(eval, options);
  Rng rng(o.seed);
  std::vector<std::vector<int>> features;
  std::vector<double> margins;
  TuneResult result;
  for (int g = 0; g < o.games; ++g) {
    S s = initial;
    std::vector<Player> movers;
    for (int ply = 0, random = 0; ply < o.max_plies && !s.is_over(); ++ply) {
      if (opening && opening(s, rng)) continue;
      typename S::MoveList moves;
      s.legal_moves(moves);
      if (random++ < o.random_plies) {
        s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
        continue;
      }
      std::array<int, N> f;
      eval.features(s, f);
      features.emplace_back(f.begin(), f.end());
      movers.push_back(s.to_move());
      const auto r = search.search(s, {0, o.depth, 0});
      // Softmax choice by the Gumbel trick, as the noisy levels play.
      double best = -1e300;
      auto pick = r.best;
      for (const auto& mv : r.scores) {
        const double key = std::clamp(search::to_points(mv.value), -60.0, 60.0) / o.temperature -
                           std::log(-std::log(std::max(rng.uniform(), 1e-300)));
        if (key > best) best = key, pick = mv.move;
      }
      s.play(pick);
    }
    // A game cut at the ply cap is scored by its scores so far; a draw or an annulled game
    // by 0.
    const Outcome out = s.outcome();
    const bool no_result = s.is_over() && !out.winner;
    for (std::size_t i = 0; i < movers.size(); ++i) {
      const int m = index(movers[i]), y = 1 - m;
      margins.push_back(no_result ? 0.0 : out.scores[m] - out.scores[y]);
    }
    ++result.games;
    if (o.progress) o.progress(g + 1, o.games);
  }
  std::vector<double> start_points(N);
  for (std::size_t i = 0; i < N; ++i) start_points[i] = start[i] / double(search::kPoint);
  TuneResult fit = fit_weights(features, margins, start_points, o.ridge);
  fit.games = result.games;
  return fit;
}

// The sowing evaluation of `rules`, from `start`.
TuneResult tune_sowing(const sowing::Rules& rules, const SowingWeights& start,
                       const TuneOptions& options);

}  // namespace naqala::eval
