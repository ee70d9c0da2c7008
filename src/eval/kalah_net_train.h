#pragma once
// Training a Kalah network (eval/kalah_net.h) on labelled positions: mean squared error of the
// final margin, by eval/sparse_net_train.h (Adam on minibatches, one thread, so the same data,
// options and seed give the same network). A share of the positions (chosen by the seed) is
// held out and measured, not trained on.
#include <cstdint>
#include <functional>
#include <vector>

#include "eval/kalah_net.h"
#include "eval/pit_table_fit.h"
#include "eval/sparse_net_train.h"

namespace naqala::eval {

using KalahNetTrainOptions = SparseNetTrainOptions;

// rms_before: the RMS error (seeds) on the held-out labels of `before` (the evaluation the
// positions are measured against, e.g. the shipped table); train and held_out count positions.
struct KalahNetFit : SparseNetFit {
  KalahNet net;
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
