#include "server/fields.h"

#include <cstdio>

#include "core/error.h"
#include "games/registry.h"
#include "play/clocks.h"

namespace naqala::server {

using json = nlohmann::json;

ApiError storage_refused(const std::exception& e) {
  return ApiError(kStorageRefused, std::string("the server could not store this (") + e.what() +
                                       "): it was not done, and nothing stored before is lost; "
                                       "try again in a moment");
}

std::string text_field(const json& body, const char* key, bool required) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) {
    if (required) throw ApiError(400, std::string("missing field \"") + key + "\"");
    return {};
  }
  if (!it->is_string()) throw ApiError(400, std::string("field \"") + key + "\" must be a string");
  return it->get<std::string>();
}

std::string fmt_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

double number_field(const json& body, const char* key, double fallback, double lo, double hi) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return fallback;
  if (!it->is_number() || !(it->get<double>() >= lo && it->get<double>() <= hi))
    throw ApiError(400, std::string("field \"") + key + "\" must be a number from " +
                            fmt_number(lo) + " to " + fmt_number(hi));
  return it->get<double>();
}

bool bool_field(const json& body, const char* key, bool fallback) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return fallback;
  if (!it->is_boolean())
    throw ApiError(400, std::string("field \"") + key + "\" must be true or false");
  return it->get<bool>();
}

int whole_field(const json& body, const char* key, int fallback, int lo, int hi) {
  const double v = number_field(body, key, fallback, lo, hi);
  if (v != static_cast<int>(v))
    throw ApiError(400, std::string("field \"") + key + "\" must be a whole number from " +
                            std::to_string(lo) + " to " + std::to_string(hi));
  return static_cast<int>(v);
}

std::unique_ptr<AnyGame> preset_game(const std::string& spec) {
  if (spec.find('/') != std::string::npos || spec.find(".toml") != std::string::npos)
    throw ApiError(400, "the server plays presets only, not variant files");
  try {
    return make_game(spec);
  } catch (const UnknownVariantError& e) {
    throw ApiError(400, "unknown variant '" + e.name + "'; the server plays the presets " +
                            e.known + " (GET /api/variants lists them with their options)");
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
}

std::string display_name_field(const json& body) {
  std::string name = text_field(body, "name");
  const auto b = name.find_first_not_of(" \t");
  name = b == std::string::npos ? "" : name.substr(b, name.find_last_not_of(" \t") - b + 1);
  if (name.empty() || name.size() > 40)
    throw ApiError(400, "a display name has 1 to 40 characters");
  for (unsigned char ch : name)
    if (ch < 0x20) throw ApiError(400, "a display name cannot contain control characters");
  return name;
}

json clock_field(const json& body) {
  auto it = body.find("clock");
  if (it == body.end() || it->is_null()) return nullptr;
  if (!it->is_object())
    throw ApiError(400,
                   "field \"clock\" must be an object: {\"preset\": \"oware\"|\"toguz\"|\"none\"} "
                   "or {\"minutes\": M, \"increment\": S}");
  if (it->contains("preset")) {
    // The presets are the rules' own tournament clocks (src/play/clocks.h).
    const std::string preset = text_field(*it, "preset");
    if (const auto found = play::find_clock_preset(preset)) return play::to_json(*found);
    if (preset == "none") return nullptr;
    throw ApiError(
        400, "clock preset '" + preset + "' is unknown; presets: " + play::clock_preset_list());
  }
  const double minutes = number_field(*it, "minutes", 10, 0.01, 180);
  const double increment = number_field(*it, "increment", 0, 0, 60);
  return play::to_json(play::custom_clock(minutes, increment));
}

}  // namespace naqala::server
