#pragma once
// An opt-in record of a move as it is sown, lap by lap, for the browser's animation (the
// server installs one around the moves it plays; docs/server.md, `path`). Engines never
// install one: the sowing code pays one test of a pointer per lap or seed while it is null.
#include <nlohmann/json.hpp>
#include <string>

namespace naqala {

struct SowTrace {
  // Each lap: {"board": the board_json as the lap starts (lifted seeds already in the hand,
  // captures already taken), "pits": the holes that get one seed each, in order}. A store is
  // named "store:S" / "store:N".
  nlohmann::json laps = nlohmann::json::array();

  void lap(nlohmann::json board) {
    laps.push_back({{"board", std::move(board)}, {"pits", nlohmann::json::array()}});
  }
  void seed(std::string hole) {
    if (!laps.empty()) laps.back()["pits"].push_back(std::move(hole));
  }
};

// The trace the sowing on this thread writes to, or null (always, on the engines' threads).
inline thread_local SowTrace* sow_trace = nullptr;

// Installs a trace (or, with null, none: the probes that sow a copy to find the legal moves)
// for one scope.
class SowTraceScope {
 public:
  explicit SowTraceScope(SowTrace* t) : saved_(sow_trace) { sow_trace = t; }
  ~SowTraceScope() { sow_trace = saved_; }
  SowTraceScope(const SowTraceScope&) = delete;
  SowTraceScope& operator=(const SowTraceScope&) = delete;

 private:
  SowTrace* saved_;
};

}  // namespace naqala
