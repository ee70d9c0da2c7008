#include "eval/tune.h"

#include <cmath>
#include <vector>

#include "core/rng.h"
#include "search/alphabeta.h"

namespace naqala::eval {

namespace {

using sowing::State;

struct Sample {
  std::array<int, kSowingFeatures> f;
  double margin;  // final margin in seeds, mover's view
};

// Solves (A + ridge I) x = b by Gaussian elimination with partial pivoting.
std::array<double, kSowingFeatures> solve(
    std::array<std::array<double, kSowingFeatures>, kSowingFeatures> a,
    std::array<double, kSowingFeatures> b) {
  constexpr int n = kSowingFeatures;
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int r = col + 1; r < n; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    if (std::abs(a[col][col]) < 1e-12) continue;
    for (int r = 0; r < n; ++r) {
      if (r == col) continue;
      const double k = a[r][col] / a[col][col];
      for (int c = col; c < n; ++c) a[r][c] -= k * a[col][c];
      b[r] -= k * b[col];
    }
  }
  std::array<double, n> x{};
  for (int i = 0; i < n; ++i) x[i] = std::abs(a[i][i]) < 1e-12 ? 0 : b[i] / a[i][i];
  return x;
}

double rms(const std::vector<Sample>& data, const std::array<double, kSowingFeatures>& w_seeds) {
  double sum = 0;
  for (const auto& s : data) {
    double v = 0;
    for (int i = 0; i < kSowingFeatures; ++i) v += w_seeds[i] * s.f[i];
    sum += (v - s.margin) * (v - s.margin);
  }
  return data.empty() ? 0 : std::sqrt(sum / data.size());
}

}  // namespace

TuneResult tune_sowing(const sowing::Rules& rules, const SowingWeights& start,
                       const TuneOptions& o) {
  const SowingEval eval(rules, start);
  search::AlphaBetaOptions options;
  options.hash_mb = 16;
  options.score_all_moves = true;
  search::AlphaBeta<State, SowingEval> search(eval, options);
  Rng rng(o.seed);
  std::vector<Sample> data;
  TuneResult result;
  for (int g = 0; g < o.games; ++g) {
    State s = State::initial(rules);
    std::vector<std::pair<std::array<int, kSowingFeatures>, Player>> seen;
    for (int ply = 0; ply < 1000 && !s.is_over(); ++ply) {
      State::MoveList moves;
      s.legal_moves(moves);
      if (ply < o.random_plies) {
        s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
        continue;
      }
      std::array<int, kSowingFeatures> f;
      eval.features(s, f);
      seen.emplace_back(f, s.to_move());
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
    // A game cut at the ply cap is scored by the stores (an Oware cycle ends before that).
    const Outcome out = s.outcome();
    for (const auto& [f, mover] : seen)
      data.push_back(
          {f, static_cast<double>(out.scores[index(mover)] - out.scores[index(opponent(mover))])});
    ++result.games;
    if (o.progress) o.progress(g + 1, o.games);
  }
  // Normal equations of the ridge least-squares fit, in seeds.
  std::array<std::array<double, kSowingFeatures>, kSowingFeatures> a{};
  std::array<double, kSowingFeatures> b{};
  for (const auto& s : data)
    for (int i = 0; i < kSowingFeatures; ++i) {
      b[i] += s.f[i] * s.margin;
      for (int j = 0; j < kSowingFeatures; ++j) a[i][j] += static_cast<double>(s.f[i]) * s.f[j];
    }
  for (int i = 0; i < kSowingFeatures; ++i) a[i][i] += o.ridge;
  const auto w = solve(a, b);
  std::array<double, kSowingFeatures> before{};
  for (int i = 0; i < kSowingFeatures; ++i)
    before[i] = start.w[i] / static_cast<double>(search::kPoint);
  result.positions = data.size();
  result.rms_before = rms(data, before);
  result.rms_after = rms(data, w);
  for (int i = 0; i < kSowingFeatures; ++i)
    result.weights.w[i] = static_cast<int>(std::lround(w[i] * search::kPoint));
  return result;
}

}  // namespace naqala::eval
