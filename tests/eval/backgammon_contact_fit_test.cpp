// The contact-weight fit of the hand-written player: the regression and the data it is fed.
#include "eval/backgammon_contact_fit.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/rng.h"
#include "eval/backgammon_evaluator.h"

using namespace naqala;
using namespace naqala::bgheuristic;

TEST(ContactFit, TheRegressionRecoversTheWeightsThatMadeTheLabels) {
  const ContactFeatures truth = {-0.3, 0.1, 1.5, 0.05, -0.4, -0.5, -0.3, 0.03, -0.05, 0.3};
  Rng rng(5);
  std::vector<ContactFeatures> features;
  std::vector<double> labels;
  for (int k = 0; k < 20000; ++k) {
    ContactFeatures f;
    f[0] = 1;
    for (std::size_t i = 1; i < f.size(); ++i) f[i] = 4 * rng.uniform() - 2;
    double z = 0;
    for (std::size_t i = 0; i < f.size(); ++i) z += truth[i] * f[i];
    features.push_back(f);
    labels.push_back(1 / (1 + std::exp(-z)));  // exact chances: the fit must find `truth`
  }
  const ContactFeatures w = fit_logistic(features, labels, 1e-6);
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], truth[i], 1e-4) << i;
  EXPECT_LT(log_loss(w, features, labels), log_loss(ContactFeatures{}, features, labels));
}

TEST(ContactFit, SelfPlayDataIsTheSameForASeedAndTheFitBeatsNoWeights) {
  ContactFitOptions o;
  o.games = 20;
  o.seed = 3;
  const auto& net = bgeval::shipped_net();
  const ContactFit a = fit_contact_weights(net, o), b = fit_contact_weights(net, o);
  EXPECT_EQ(a.games, 20);
  EXPECT_GT(a.positions, 1000u);  // about 160 contact positions a game
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.weights, b.weights);
  // Made points and checkers off help the mover; checkers on the bar hurt.
  EXPECT_GT(a.weights[2], 0);
  EXPECT_GT(a.weights[9], 0);
  EXPECT_LT(a.weights[5], 0);
  o.seed = 4;
  EXPECT_NE(fit_contact_weights(net, o).weights, a.weights);
}
