#pragma once
// Fitting a pit table (pit_table.h) and the features a table cannot express (the captures
// on offer now, the cycle feature) to labelled positions, by ridge least squares. The store
// difference keeps weight 1: the fit learns what the rest of the board will add to it, so an
// evaluation still reads as "the margin this position ends with". Every feature that is a sum
// over pits (row seeds, mobility, exposed seeds, kroo) is part of the table.
#include <vector>

#include "eval/sowing_eval.h"

namespace naqala::eval {

struct LabelledPosition {
  sowing::State state;
  double label;  // the final margin expected from the mover's view, points
};

struct PitTableFit {
  TrainedSowingEval eval;
  std::size_t positions = 0;
  double rms_before = 0;  // RMS error (points) of `before` on the labels
  double rms_after = 0;   // ... and of the fitted evaluation
};

// The parts of the evaluation fitted beside the pit table (pit_table.h): a `late` table the
// evaluation blends into as the seeds go to the stores, and a pair table of the counts of each
// pit and the pit opposite (rulesets that capture the pit opposite).
struct PitTableShape {
  bool late = false;
  bool pairs = false;
};

// `ridge`: the L2 penalty (squared points) on every table entry and weight; `smooth`: the
// penalty on the difference of neighbouring counts of a pit, so rare counts follow their
// neighbours.
PitTableFit fit_pit_table(const sowing::Rules& rules, const std::vector<LabelledPosition>& data,
                          const SowingWeights& before, double ridge, double smooth,
                          PitTableShape shape = {});

}  // namespace naqala::eval
