#pragma once
// Training a network of eval/sparse_net.h on samples (each its active inputs and a target):
// mean squared error, Adam on minibatches, one thread, so the same samples, options and seed
// give the same network. A share of the samples (chosen by the seed) is held out and measured,
// not trained on. Kalah's trainer (eval/kalah_net_train.h) and Bao's (eval/bao_net.h) feed it.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "eval/sparse_net.h"

namespace naqala::eval {

inline constexpr int kNetMaxActive = 40;  // active inputs of one sample, at most

struct NetSample {
  std::array<int, kNetMaxActive> active{};
  int n = 0;
  float target = 0;
};

struct SparseNetTrainOptions {
  int hidden = 32;
  int epochs = 60;
  int batch = 256;
  double learning_rate = 0.002;  // Adam's step, decayed linearly to a tenth over the epochs
  double held_out = 0.1;         // the share of samples measured, not trained on
  std::uint64_t seed = 1;        // the initial weights, the held-out samples and the order
  std::function<void(int epoch, double train_rms, double held_out_rms)> progress;
};

struct SparseNetFit {
  std::size_t train = 0, held_out = 0;  // samples
  double rms_before = 0;  // RMS error on the held-out samples of the compared evaluation
  double rms_after = 0;   // ... and of the network
  double rms_train = 0;   // the network on the samples it was trained on
};

// Sets `net`'s layers (`hidden` units, `inputs` rows) to the fit of `samples`; `before_error(i)`
// gives the compared evaluation's error on sample i (asked of the held-out ones only).
SparseNetFit train_sparse_net(SparseNet& net, int inputs, const std::vector<NetSample>& samples,
                              const std::function<double(std::size_t i)>& before_error,
                              const SparseNetTrainOptions& o);

}  // namespace naqala::eval
