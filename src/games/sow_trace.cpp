#include "games/sow_trace.h"

#include <nlohmann/json.hpp>

namespace naqala {

SowTrace::SowTrace() : laps_(std::make_unique<nlohmann::json>(nlohmann::json::array())) {}
SowTrace::~SowTrace() = default;
SowTrace::SowTrace(SowTrace&&) noexcept = default;
SowTrace& SowTrace::operator=(SowTrace&&) noexcept = default;

void SowTrace::lap(nlohmann::json board) {
  laps_->push_back({{"board", std::move(board)}, {"pits", nlohmann::json::array()}});
}

void SowTrace::seed(std::string hole) {
  if (!laps_->empty()) laps_->back()["pits"].push_back(std::move(hole));
}

nlohmann::json& SowTrace::laps() { return *laps_; }

}  // namespace naqala
