#pragma once
// Reading the fields of a JSON request: each wrong field becomes an ApiError (400) saying what
// is allowed. Shared by games and tournaments.
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "games/any_game.h"

namespace naqala::server {

// A request the client got wrong: becomes an HTTP status or an error frame.
class ApiError : public std::runtime_error {
 public:
  ApiError(int status, const std::string& message) : std::runtime_error(message), status(status) {}
  int status;
};

// A write the database refused (a full disk, a read-only file, an I/O error): the request was
// not carried out, and the client hears why with status 503 (docs/server.md, "Load and faults").
constexpr int kStorageRefused = 503;
ApiError storage_refused(const std::exception& e);

// A string field; "" when absent and not required.
std::string text_field(const nlohmann::json& body, const char* key, bool required = true);
// A number from lo to hi; `fallback` when absent.
double number_field(const nlohmann::json& body, const char* key, double fallback, double lo,
                    double hi);
// true or false; `fallback` when absent.
bool bool_field(const nlohmann::json& body, const char* key, bool fallback);
// A whole number from lo to hi; `fallback` when absent.
int whole_field(const nlohmann::json& body, const char* key, int fallback, int lo, int hi);
// "%g" of a number.
std::string fmt_number(double v);

// The game of a preset variant spec (`oware`, `kalah:seeds=6`); variant files are refused.
std::unique_ptr<AnyGame> preset_game(const std::string& spec);

// The "name" of a player: trimmed, 1 to 40 characters, no control characters.
std::string display_name_field(const nlohmann::json& body);

// A request's "clock" (docs/server.md): absent or null (no clock), {"preset": NAME} (the rules'
// presets, or "none") or {"minutes": M, "increment": S}. Null or the clock as games store it.
nlohmann::json clock_field(const nlohmann::json& body);

}  // namespace naqala::server
