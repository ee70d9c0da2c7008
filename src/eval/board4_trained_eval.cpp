#include "eval/board4_trained_eval.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/data_dir.h"
#include "core/error.h"
#include "games/board4/board.h"

namespace naqala::eval {

Board4Trained board4_trained(const TrainedSowingEval& e, std::size_t features) {
  if (e.weights.size() != features)
    throw Error("the evaluation file has " + std::to_string(e.weights.size()) +
                " weights; this evaluation has " + std::to_string(features));
  if (e.table.pits != board4::kPits)
    throw Error("the evaluation file's table is for " + std::to_string(e.table.pits) +
                " pits a side; a four-row board has " + std::to_string(board4::kPits));
  if (!e.table.late.empty() || !e.table.pair.empty())
    throw Error(
        "the evaluation file has a 'late' or 'pairs' table; Bao's and Omweso's "
        "evaluations read the pit table alone");
  return {e.weights, std::make_shared<const PitTable>(e.table)};
}

std::optional<Board4Trained> board4_trained_eval(const std::string& preset, std::size_t features) {
  const char* env = std::getenv(eval_variable(preset).c_str());
  const std::string chosen = env ? env : "";
  if (chosen == "none") return {};
  if (!chosen.empty()) return board4_trained(*read_trained_eval_once(chosen), features);
  const std::string path = data_dir() + "/" + preset + "/eval.txt";
  if (!std::filesystem::exists(path)) return {};
  return board4_trained(*read_trained_eval_once(path), features);
}

bool preset_table_serves(std::string_view spec, std::string_view preset,
                         std::span<const std::string_view> shared) {
  if (spec == preset) return true;
  if (spec.size() <= preset.size() || spec.substr(0, preset.size()) != preset ||
      spec[preset.size()] != ':')
    return false;
  std::string_view rest = spec.substr(preset.size() + 1);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::string_view key = item.substr(0, item.find('='));
    if (std::find(shared.begin(), shared.end(), key) == shared.end()) return false;
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return true;
}

}  // namespace naqala::eval
