#pragma once
// Shared by the libFuzzer targets (tests/fuzz/README.md): the variants a fuzz input picks from,
// and the check that stops a run on a broken invariant (libFuzzer then saves the input).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace naqala::fuzz {

// One preset or option set of every family and board shape.
inline const std::vector<std::string>& variants() {
  static const std::vector<std::string> list = {
      "kalah",
      "kalah:seeds=6",
      "oware",
      "awale",
      "ayoayo",
      "ayoayo-fours",
      "namnam",
      "kenyan-bao",
      "congklak",
      "pallanguzhi",
      "toguz",
      "mangala",
      "madjnuni",
      "el-akil",
      "gabata",
      "backgammon",
      "backgammon:match=5",
      "bao",
      "omweso",
      "omweso-s0",
  };
  return list;
}

inline const std::string& pick_variant(std::uint8_t byte) {
  return variants()[byte % variants().size()];
}

[[noreturn]] inline void broken(const std::string& what) {
  std::fprintf(stderr, "invariant broken: %s\n", what.c_str());
  std::abort();
}

inline void check(bool ok, const std::string& what) {
  if (!ok) broken(what);
}

}  // namespace naqala::fuzz
