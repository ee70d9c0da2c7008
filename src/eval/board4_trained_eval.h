#pragma once
// The trained evaluations of the four-row presets (Bao, Omweso): feature weights and a pit table
// of 16 pits a side (pit_table.h's file), fitted by `naqala tune bao|omweso --records ... --out`
// (eval/board4_table_fit.h). A preset plays data/PRESET/eval.txt when it is there;
// NAQALA_<PRESET>_EVAL names another file, or `none` for the linear weights alone.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eval/pit_table.h"

namespace naqala::eval {

struct Board4Trained {
  std::vector<int> weights;  // every feature's, in the evaluation's order
  std::shared_ptr<const PitTable> table;
};

// The file's weights and table for an evaluation of `features` features; throws naqala::Error
// when the file does not fit (another count of weights, a table not of 16 pits).
Board4Trained board4_trained(const TrainedSowingEval& e, std::size_t features);

// What `preset` plays, or nothing (no file, or NAQALA_<PRESET>_EVAL=none).
std::optional<Board4Trained> board4_trained_eval(const std::string& preset, std::size_t features);

// Whether the preset's table also plays the variant `spec` (canonical: "name" or
// "name:key=value,..." of the non-default options): the preset as it is, or a choice of options
// all in `shared`, those that leave the board, the start and what the features read as they
// were when the table was learned (Bao's namua_takasa: which front pit one rare takasa starts
// from). Any other option (another start, other captures) is another game: linear weights.
bool preset_table_serves(std::string_view spec, std::string_view preset,
                         std::span<const std::string_view> shared);

}  // namespace naqala::eval
