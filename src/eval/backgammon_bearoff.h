#pragma once
// Bear-off databases, computed by naqala itself (docs/games/backgammon.md, "Bear-off databases").
//
// One-sided: every position of up to 15 checkers on the six home points (54,264), with the
// distribution of the number of rolls needed to bear them all off (playing to minimise the
// expected count) and the distribution of rolls needed to bear off the first checker
// (playing to save the gammon). Two-sided: every pair of positions of up to 6 checkers on
// the six home points (924 x 924), with the exact cubeless winning chance of the side on
// roll. Both are built on first use (a second or two) and kept, with an FNV-1a checksum, in
// the cache directory ($NAQALA_CACHE_DIR, $XDG_CACHE_HOME/naqala or ~/.cache/naqala); a
// damaged file is rebuilt.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "eval/backgammon_net.h"

namespace naqala::bearoff {

using backgammon::Side;

constexpr int kOneSidedPositions = 54264;  // C(21, 6)
constexpr int kTwoSidedCheckers = 6;
constexpr int kTwoSidedPositions = 924;  // C(12, 6)
constexpr int kMaxRolls = 32;

// Whether every checker of the side is on its six home points or off.
bool in_home(const Side& s);
// Index of a home position (checkers on points 1..6) among those with at most `checkers`
// checkers: 0 is the empty board.
int rank(const Side& s, int checkers = 15);

struct OneSided {
  // Per position: probability that bearing off takes exactly n rolls (n < kMaxRolls).
  std::vector<std::array<float, kMaxRolls>> off;
  // Per position: probability that the first checker comes off at roll n (0 if one is off).
  std::vector<std::array<float, kMaxRolls>> first_off;
  float expected_rolls(int index) const;
};

struct TwoSided {
  std::vector<float> win;  // [on roll][opponent]: winning chance of the side on roll
  float at(int me, int opp) const { return win[me * kTwoSidedPositions + opp]; }
};

const OneSided& one_sided();
const TwoSided& two_sided();
// FNV-1a of both tables' bytes (fixes their content in the tests).
std::uint64_t checksum();

// The five probabilities for `me` on roll when both sides are bearing off (no contact, all
// checkers home): exact from the two-sided table when both have at most 6 checkers left,
// otherwise from the one-sided distributions (treating the two sides' rolls as independent,
// which is exact for the win and a close estimate for gammons). nullopt when not a bear-off.
std::optional<bgnet::Probs> evaluate(const Side& me, const Side& opp);

}  // namespace naqala::bearoff
