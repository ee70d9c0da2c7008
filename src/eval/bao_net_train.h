#pragma once
// Training Bao's network (eval/bao_net.h) on search labels: the target of a position is its
// label (a deeper search's value, seeds, the mover's view) minus the evaluation the network
// corrects, so that evaluation plus the network learns the deeper value. Trained by
// eval/sparse_net_train.h (one thread: the same data, options and seed give the same network).
#include <utility>
#include <vector>

#include "eval/bao_eval.h"
#include "eval/bao_net.h"
#include "eval/sparse_net_train.h"

namespace naqala::eval {

// rms_before: the RMS error (seeds) of `base` alone on the held-out labels.
struct BaoNetFit : SparseNetFit {
  BaoNet net;
};

// `base` is the evaluation the network will correct (its own network, if any, is not read).
BaoNetFit train_bao_net(const std::vector<std::pair<bao::State, double>>& data, const BaoEval& base,
                        int counts, const SparseNetTrainOptions& o);

}  // namespace naqala::eval
