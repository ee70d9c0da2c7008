#include "play/glicko2.h"

#include <cmath>
#include <numbers>

namespace naqala::play {

namespace {

constexpr double kScale = 173.7178;  // 400 / ln 10: Glicko-2's internal scale
constexpr double kEpsilon = 1e-6;    // the volatility search's tolerance

// How much an opponent's uncertainty dampens what one game against him says.
double dampen(double phi) {
  return 1 / std::sqrt(1 + 3 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

}  // namespace

Glicko2Rating glicko2_update(const Glicko2Rating& p, const std::vector<Glicko2Game>& games,
                             double tau) {
  const double mu = (p.rating - 1500) / kScale;
  const double phi = p.deviation / kScale;
  const double sigma = p.volatility;
  if (games.empty()) {
    const double grown = std::sqrt(phi * phi + sigma * sigma) * kScale;
    return {p.rating, std::min(grown, 350.0), sigma};
  }
  // The estimated variance of the rating from the games alone (v), and the improvement the
  // results suggest (delta).
  double inverse_v = 0, sum = 0;
  for (const auto& g : games) {
    const double mu_j = (g.opponent.rating - 1500) / kScale;
    const double g_j = dampen(g.opponent.deviation / kScale);
    const double expected = 1 / (1 + std::exp(-g_j * (mu - mu_j)));
    inverse_v += g_j * g_j * expected * (1 - expected);
    sum += g_j * (g.score - expected);
  }
  const double v = 1 / inverse_v;
  const double delta = v * sum;

  // The new volatility: the root of f (Glickman's step 5), bracketed and found by the
  // Illinois variant of regula falsi.
  const double a = std::log(sigma * sigma);
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
  };
  double lo = a, hi;
  if (delta * delta > phi * phi + v) {
    hi = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    hi = a - k * tau;
  }
  double f_lo = f(lo), f_hi = f(hi);
  while (std::abs(hi - lo) > kEpsilon) {
    const double c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
    const double f_c = f(c);
    if (f_c * f_hi <= 0) {
      lo = hi;
      f_lo = f_hi;
    } else {
      f_lo /= 2;
    }
    hi = c;
    f_hi = f_c;
  }
  const double new_sigma = std::exp(lo / 2);

  const double phi_star = std::sqrt(phi * phi + new_sigma * new_sigma);
  const double new_phi = 1 / std::sqrt(1 / (phi_star * phi_star) + 1 / v);
  const double new_mu = mu + new_phi * new_phi * sum;
  return {1500 + kScale * new_mu, kScale * new_phi, new_sigma};
}

}  // namespace naqala::play
