#include "play/clocks.h"

#include "games/registry.h"
#include "play/match_rules.h"

namespace naqala::play {

namespace {

std::string minutes_text(std::int64_t ms) {
  const auto minutes = ms / 60000;
  if (minutes * 60000 == ms) return std::to_string(minutes) + " min";
  return std::to_string(ms / 1000) + " s";
}

std::string describe(const ClockSetting& c) {
  std::string s = c.preset + " (" + minutes_text(c.initial_ms);
  if (c.increment_ms) s += " + " + std::to_string(c.increment_ms / 1000) + " s a move";
  if (c.cap_ms) {
    const auto hours = c.cap_ms / 3600000;
    s += ", game capped at " + (hours * 3600000 == c.cap_ms
                                    ? std::to_string(hours) + " hour" + (hours == 1 ? "" : "s")
                                    : minutes_text(c.cap_ms));
  }
  return s + ")";
}

}  // namespace

const std::vector<ClockSetting>& clock_presets() {
  static const std::vector<ClockSetting> presets = [] {
    std::vector<ClockSetting> out;
    for (const auto& v : list_variants()) {
      const MatchRules r = match_rules(v);
      if (!r.clock_ms) continue;
      out.push_back({v.name, r.clock_ms, r.increment_ms, r.game_cap_ms, v.title});
    }
    return out;
  }();
  return presets;
}

std::optional<ClockSetting> find_clock_preset(const std::string& name) {
  for (const auto& c : clock_presets())
    if (c.preset == name) return c;
  return std::nullopt;
}

std::string clock_preset_list() {
  std::string s = "none";
  for (const auto& c : clock_presets()) s += ", " + describe(c);
  return s;
}

ClockSetting custom_clock(double minutes, double increment_seconds) {
  return {"custom", static_cast<std::int64_t>(minutes * 60000),
          static_cast<std::int64_t>(increment_seconds * 1000), 0, ""};
}

nlohmann::json to_json(const ClockSetting& c) {
  return {{"initial_ms", c.initial_ms},
          {"increment_ms", c.increment_ms},
          {"cap_ms", c.cap_ms},
          {"preset", c.preset}};
}

nlohmann::json clock_presets_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : clock_presets()) {
    nlohmann::json j = to_json(c);
    j["name"] = c.preset;
    j["title"] = c.title;
    j["label"] = describe(c);
    out.push_back(j);
  }
  return out;
}

}  // namespace naqala::play
