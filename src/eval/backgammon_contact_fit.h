#pragma once
// Fitting the hand-written player's contact weights (eval/backgammon_heuristic.h) to our own
// neural evaluation: positions come from games the network plays against itself (seeded
// dice, a share of random moves so poor plays are seen too); each contact position a checker
// play can leave is labelled with the network's chance that its mover wins, and the weights
// are the logistic regression of those chances on the contact features. Deterministic for a
// seed on a given machine. What `naqala tune backgammon` runs.
#include <cstdint>
#include <functional>
#include <vector>

#include "eval/backgammon_heuristic.h"
#include "eval/backgammon_net.h"

namespace naqala::bgheuristic {

struct ContactFitOptions {
  int games = 2000;
  std::uint64_t seed = 1;
  double random_move = 0.1;  // share of plies played at random instead of by the network
  int samples = 4;           // positions labelled per decision, on average (one is the play made)
  double ridge = 1.0;        // L2 penalty on the weights, against the summed log-loss
  std::function<void(int done, int total)> progress;
};

struct ContactFit {
  ContactFeatures weights{};
  int games = 0;
  std::size_t positions = 0;
  double loss_before = 0;  // mean log-loss (nats) of the shipped weights on the labels
  double loss_after = 0;   // ... and of the fitted ones
};

// The ridge-penalised logistic regression of `labels` (chances in [0, 1]) on `features`, by
// Newton's method from zero weights.
ContactFeatures fit_logistic(const std::vector<ContactFeatures>& features,
                             const std::vector<double>& labels, double ridge);

// Mean log-loss of `weights` on (features, labels).
double log_loss(const ContactFeatures& weights, const std::vector<ContactFeatures>& features,
                const std::vector<double>& labels);

ContactFit fit_contact_weights(const bgnet::Net& net, const ContactFitOptions& options);

}  // namespace naqala::bgheuristic
