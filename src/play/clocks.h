#pragma once
// Game clocks: the presets the rules declare (one per variant whose rules give a tournament
// clock, named after it: "oware" is 20 minutes each, "toguz" 60 minutes each and a game of
// two hours at most), and a clock of one's own. A fallen flag loses (docs/tournaments.md).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace naqala::play {

struct ClockSetting {
  std::string preset;  // a preset's name, or "custom"
  std::int64_t initial_ms = 0, increment_ms = 0;
  std::int64_t cap_ms = 0;  // game length cap, 0 = none
  std::string title;        // the variant whose rules name it ("" for a custom clock)
};

// Every preset, in the order of the variant list.
const std::vector<ClockSetting>& clock_presets();
// nullopt when no preset has that name.
std::optional<ClockSetting> find_clock_preset(const std::string& name);
// "none, oware (20 min), toguz (60 min, game capped at 2 hours)": what a request may name.
std::string clock_preset_list();
ClockSetting custom_clock(double minutes, double increment_seconds);

// {"initial_ms", "increment_ms", "cap_ms", "preset"}: as games store and show it.
nlohmann::json to_json(const ClockSetting& clock);
// The presets for GET /api/clocks: each with its name, title and times.
nlohmann::json clock_presets_json();

}  // namespace naqala::play
