#pragma once
// A two-row sowing position with its rows, stores and mover swapped: the same position seen
// from the other side, which every evaluation from the mover's view must value alike.
#include <string>

namespace naqala::eval {

inline std::string mirrored(const std::string& position) {
  const auto first = position.find('/'), second = position.find('/', first + 1);
  const auto comma = position.find(',', second), third = position.find('/', second + 1);
  return position.substr(first + 1, second - first - 1) + "/" + position.substr(0, first) + "/" +
         position.substr(comma + 1, third - comma - 1) + "," +
         position.substr(second + 1, comma - second - 1) + "/" +
         (position.substr(third + 1) == "S" ? "N" : "S");
}

}  // namespace naqala::eval
