#include "core/outcome.h"

#include <array>
#include <utility>

namespace naqala {

namespace {
constexpr std::array<std::pair<EndReason, std::string_view>, 14> kReasonNames{{
    {EndReason::None, "none"},
    {EndReason::RowEmpty, "row_empty"},
    {EndReason::Threshold, "threshold"},
    {EndReason::NoMove, "no_move"},
    {EndReason::CannotFeed, "cannot_feed"},
    {EndReason::Cycle, "cycle"},
    {EndReason::InfiniteSowing, "infinite_sowing"},
    {EndReason::GrandSlam, "grand_slam"},
    {EndReason::AllCaptured, "all_captured"},
    {EndReason::BorneOff, "borne_off"},
    {EndReason::Resignation, "resignation"},
    {EndReason::Timeout, "timeout"},
    {EndReason::Agreement, "agreement"},
    {EndReason::Other, "other"},
}};
}  // namespace

std::string_view to_string(EndReason r) {
  for (auto& [reason, text] : kReasonNames)
    if (reason == r) return text;
  return "other";
}

std::optional<EndReason> end_reason_from_string(std::string_view s) {
  for (auto& [reason, text] : kReasonNames)
    if (text == s) return reason;
  return std::nullopt;
}

std::string Outcome::result_tag() const {
  if (!winner) return "1/2-1/2";
  return *winner == Player::South ? "1-0" : "0-1";
}

}  // namespace naqala
