// Contact weights of the hand-written player, fitted to the network's chances.
#include "eval/backgammon_contact_fit.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/linear_solve.h"
#include "core/rng.h"
#include "eval/backgammon_evaluator.h"

namespace naqala::bgheuristic {

using namespace backgammon;

double log_loss(const ContactFeatures& weights, const std::vector<ContactFeatures>& features,
                const std::vector<double>& labels) {
  double sum = 0;
  for (std::size_t k = 0; k < features.size(); ++k) {
    const double p = std::clamp(contact_win_chance(weights, features[k]), 1e-12, 1 - 1e-12);
    sum -= labels[k] * std::log(p) + (1 - labels[k]) * std::log(1 - p);
  }
  return features.empty() ? 0 : sum / features.size();
}

ContactFeatures fit_logistic(const std::vector<ContactFeatures>& features,
                             const std::vector<double>& labels, double ridge) {
  constexpr std::size_t n = std::tuple_size_v<ContactFeatures>;
  ContactFeatures w{};
  for (int iteration = 0; iteration < 50; ++iteration) {
    // Newton step: (X' S X + ridge I) delta = X' (y - p) - ridge w, S = diag(p (1 - p)).
    DenseMatrix hessian(n, std::vector<double>(n));
    std::vector<double> gradient(n);
    for (std::size_t k = 0; k < features.size(); ++k) {
      const ContactFeatures& f = features[k];
      const double p = contact_win_chance(w, f), s = p * (1 - p);
      for (std::size_t i = 0; i < n; ++i) {
        gradient[i] += (labels[k] - p) * f[i];
        for (std::size_t j = 0; j <= i; ++j) hessian[i][j] += s * f[i] * f[j];
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) hessian[j][i] = hessian[i][j];
      hessian[i][i] += ridge;
      gradient[i] -= ridge * w[i];
    }
    const std::vector<double> step = solve_linear(hessian, gradient);
    double largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
      w[i] += step[i];
      largest = std::max(largest, std::abs(step[i]));
    }
    if (largest < 1e-9) break;
  }
  return w;
}

ContactFit fit_contact_weights(const bgnet::Net& net, const ContactFitOptions& o) {
  Rng rng(o.seed);
  auto moves = std::make_unique<MoveList>();
  std::vector<Board> after;
  std::vector<bgnet::Probs> probs;
  std::vector<ContactFeatures> features;
  std::vector<double> labels;
  ContactFit fit;
  for (int g = 0; g < o.games; ++g) {
    Board b = start_board();  // b[0] is the side on roll, South
    int d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
    while (d0 == d1) d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
    for (int ply = 0;; ++ply) {
      if (ply > 0) d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
      generate_moves(b, Player::South, d0, d1, *moves);
      after.clear();
      probs.clear();
      std::size_t best = 0;
      for (const Move& m : *moves) {
        Board a = b;
        apply_steps(a, Player::South, m);
        after.push_back(a);
        probs.push_back(bgeval::after_move(net, a[0], a[1]));
        if (probs.back().equity() > probs[best].equity()) best = after.size() - 1;
      }
      if (after.empty()) {  // no legal play: the roll is lost
        after.push_back(b);
        probs.push_back(bgeval::after_move(net, b[0], b[1]));
      }
      std::size_t played = best;
      if (after.size() > 1 && rng.uniform() < o.random_move)
        played = rng.below(static_cast<std::uint32_t>(after.size()));
      // The play made and, on average, samples - 1 of the others.
      const double share = after.size() > 1 ? (o.samples - 1.0) / (after.size() - 1.0) : 0;
      for (std::size_t i = 0; i < after.size(); ++i) {
        if (i != played && rng.uniform() >= share) continue;
        const Board& a = after[i];
        if (checkers_off(a[0]) == kCheckers || !bgnet::in_contact(a[0], a[1])) continue;
        features.push_back(contact_features(a, Player::South));
        labels.push_back(probs[i][bgnet::Probs::Win]);
      }
      const Board& next = after[played];
      if (checkers_off(next[0]) == kCheckers) break;
      b = {next[1], next[0]};
    }
    ++fit.games;
    if (o.progress) o.progress(fit.games, o.games);
  }
  fit.positions = features.size();
  fit.weights = fit_logistic(features, labels, o.ridge);
  fit.loss_before = log_loss(kContactWeights, features, labels);
  fit.loss_after = log_loss(fit.weights, features, labels);
  return fit;
}

}  // namespace naqala::bgheuristic
