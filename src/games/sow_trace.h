#pragma once
// An opt-in record of a move as it is sown, lap by lap, for the browser's animation (the
// server installs one around the moves it plays; docs/server.md, `path`). Engines never
// install one: the sowing code pays one test of a pointer per lap or seed while it is null.
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace naqala {

class SowTrace {
 public:
  SowTrace();
  ~SowTrace();
  SowTrace(SowTrace&&) noexcept;
  SowTrace& operator=(SowTrace&&) noexcept;

  // A new lap: `board` is the board_json as the lap starts (lifted seeds already in the
  // hand, captures already taken).
  void lap(nlohmann::json board);
  // One seed into `hole`, a pit's name or "store:S" / "store:N", in the current lap.
  void seed(std::string hole);
  // Each lap: {"board": ..., "pits": the holes that got one seed each, in order}.
  nlohmann::json& laps();

 private:
  // Behind a pointer so that the sowing headers, included everywhere, need not parse json.hpp.
  std::unique_ptr<nlohmann::json> laps_;
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
