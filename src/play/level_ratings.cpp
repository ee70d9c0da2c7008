#include "play/level_ratings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "core/data_dir.h"
#include "core/error.h"
#include "core/text_file.h"
#include "play/atomic_write.h"

namespace naqala::play {

using nlohmann::json;

int level_of(const std::string& spec) {
  constexpr std::string_view prefix = "level:";
  if (!spec.starts_with(prefix)) return 0;
  int n = 0;
  const char* first = spec.data() + prefix.size();
  const char* last = spec.data() + spec.size();
  const auto [end, ec] = std::from_chars(first, last, n);
  return ec == std::errc() && end == last && n >= 1 && n <= 10 ? n : 0;
}

void check_level_entrants(const std::vector<std::string>& engines) {
  for (const auto& e : engines)
    if (!level_of(e))
      throw Error(
          "--level-ratings measures the computer levels: every entrant must be level:N "
          "(1-10, no options); got '" +
          e + "'");
}

json level_ratings_entry(const std::string& variant, const std::vector<std::string>& engines,
                         const Standings& standings, int games, const std::string& command,
                         std::uint64_t seed) {
  check_level_entrants(engines);
  json levels = json::array();
  std::vector<const StandingRow*> rows;
  for (const auto& r : standings.rows) rows.push_back(&r);
  std::sort(rows.begin(), rows.end(), [&](const StandingRow* a, const StandingRow* b) {
    return level_of(engines[a->player]) < level_of(engines[b->player]);
  });
  // The Elo margin is a 95% half-width; Glicko's deviation is one standard error.
  for (const StandingRow* r : rows)
    levels.push_back({{"level", level_of(engines[r->player])},
                      {"rating", std::lround(1500 + r->elo)},
                      {"deviation", std::lround(r->elo_margin / 1.96)},
                      {"games", r->games}});
  return {{"variant", variant},
          {"command", command},
          {"seed", seed},
          {"games", games},
          {"levels", levels}};
}

json read_level_ratings(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return json::object();
  json j;
  try {
    j = json::parse(read_text_file(path, "level ratings file"));
  } catch (const json::exception& e) {
    throw Error("the level ratings file '" + path + "' is not valid JSON: " + e.what());
  }
  if (!j.is_object())
    throw Error("the level ratings file '" + path +
                "' must be a JSON object keyed by variant (docs/tournaments.md)");
  return j;
}

void save_level_ratings(const std::string& path, const json& entry) {
  json all = read_level_ratings(path);
  all[entry.at("variant").get<std::string>()] = entry;
  write_atomically(path, all.dump(1) + "\n");
}

std::string shipped_level_ratings_path() {
  if (const char* env = std::getenv("NAQALA_LEVEL_RATINGS"); env && *env) return env;
  return data_dir() + "/level-ratings.json";
}

}  // namespace naqala::play
