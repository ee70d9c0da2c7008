#pragma once
// JSON as text for output: text that is not valid UTF-8 (a request's %FF, a Latin-1 name in a
// .mat file) is written with U+FFFD in place of each bad byte rather than aborting the program.
#include <nlohmann/json.hpp>
#include <string>

namespace naqala {

inline std::string json_text(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace naqala
