#pragma once
// Training a Kalah network (eval/kalah_net.h) on labelled positions: mean squared error of the
// final margin, Adam on minibatches, one thread, so the same data, options and seed give the
// same network. A share of the positions (chosen by the seed) is held out and measured, not
// trained on.
#include <cstdint>
#include <functional>
#include <vector>

#include "eval/kalah_net.h"
#include "eval/pit_table_fit.h"

namespace naqala::eval {

struct KalahNetTrainOptions {
  int hidden = 32;
  int epochs = 60;
  int batch = 256;
  double learning_rate = 0.002;  // Adam's step, decayed linearly to a tenth over the epochs
  double held_out = 0.1;         // the share of positions measured, not trained on
  std::uint64_t seed = 1;        // the initial weights, the held-out positions and the order
  std::function<void(int epoch, double train_rms, double held_out_rms)> progress;
};

struct KalahNetFit {
  KalahNet net;
  std::size_t train = 0, held_out = 0;  // positions
  double rms_before = 0;  // RMS error (seeds) on the held-out labels of `before` (the evaluation
                          // the positions are measured against, e.g. the shipped table)
  double rms_after = 0;   // ... and of the network
  double rms_train = 0;   // the network on the positions it was trained on
};

// Every position's label is its final margin from the mover's view; positions with more than
// `max_seeds` in the pits are left out. `before` gives the compared evaluation's value (seeds)
// of a position.
KalahNetFit train_kalah_net(const std::vector<LabelledPosition>& data, int max_seeds,
                            const std::function<double(const sowing::State&)>& before,
                            const KalahNetTrainOptions& o);

// The network's inputs of a sowing state (the mover's row and the opponent's), and the part the
// store difference leaves to it, in seeds.
int kalah_net_active(const KalahNet& net, const sowing::State& s, int* out);

}  // namespace naqala::eval
