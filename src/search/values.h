#pragma once
// The value scale every naqala search uses, and the limits a search runs under.
//
// Values are integers from the view of the player to move, in hundredths of a point (for
// sowing games a point is a seed, so 100 = one seed of store difference). A finished game
// is worth kWin plus the final point margin for a win, minus kWin plus the margin for a
// loss, and 0 for a draw; evaluations stay far inside +-kWin / 2.
#include <algorithm>
#include <cstdint>

#include "core/outcome.h"
#include "core/player.h"

namespace naqala::search {

inline constexpr int kPoint = 100;
inline constexpr int kWin = 1'000'000;
inline constexpr int kInfinity = 2'000'000;
inline constexpr int kMaxPly = 128;

inline bool is_decisive(int value) {
  return value >= kWin / 2 || value <= -kWin / 2;
}

inline int terminal_value(const Outcome& o, Player view) {
  if (!o.winner) return 0;
  const int margin = o.scores[index(view)] - o.scores[index(opponent(view))];
  return (*o.winner == view ? kWin : -kWin) + kPoint * margin;
}

// Points (seeds) as a double, the scale the engine API reports: a decisive value becomes
// +-(1000 + margin) so that it reads as "won, by this much".
inline double to_points(int value) {
  if (value >= kWin / 2) return 1000.0 + static_cast<double>(value - kWin) / kPoint;
  if (value <= -kWin / 2) return -1000.0 + static_cast<double>(value + kWin) / kPoint;
  return static_cast<double>(value) / kPoint;
}

struct Limits {
  double seconds = 0;       // 0 = no time limit
  int depth = 0;            // 0 = no depth limit (up to kMaxPly)
  std::uint64_t nodes = 0;  // 0 = no node limit
};

// The time to spend on one move under a game clock. `moves_left`: the mover's moves likely
// left in the game (0: unknown, 25 assumed). What is left above a reserve (5% of the clock, at
// most a second: the cost of moving and of a loaded machine) is shared over those moves, plus
// most of the increment; at least 2 ms, and never more than a third of the remaining time, so
// the flag cannot fall while the game goes on.
inline double time_for_move(double remaining, double increment, int moves_left = 0) {
  if (remaining <= 0) return 0.001;  // flag already fallen: move at once
  const int horizon = moves_left > 0 ? std::clamp(moves_left, 1, 80) : 25;
  const double usable = remaining - std::min(0.05 * remaining, 1.0);
  const double share = usable / horizon + 0.8 * increment;
  return std::min(std::max(0.002, share), remaining / 3);
}

}  // namespace naqala::search
