#pragma once
// Helpers for the tests that run gnubg itself (CTest label `gnubg`).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace naqala::backgammon::testing {

// gnubg from $GNUBG, /usr/games or PATH; empty if none.
inline std::string find_gnubg() {
  if (const char* env = std::getenv("GNUBG"); env && *env) return env;
  for (const char* p : {"/usr/games/gnubg", "/usr/bin/gnubg", "/usr/local/bin/gnubg"})
    if (std::filesystem::exists(p)) return p;
  return {};
}

inline std::filesystem::path temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace naqala::backgammon::testing
