#include "play/match_scoring.h"

#include <algorithm>

namespace naqala::play {

bool valid_best_of(int n) {
  return n >= 1 && n <= 9 && n % 2 == 1;
}

void score_game(MatchScore& m, std::optional<int> winner) {
  if (!winner) {
    const double share = m.draw == MatchDraw::BothWin ? 1.0 : 0.5;
    m.points_a += share;
    m.points_b += share;
  } else if (*winner == 0) {
    m.points_a += 1;
  } else {
    m.points_b += 1;
  }
  ++m.games;
  const double target = m.best_of / 2 + 1;
  m.over = (std::max(m.points_a, m.points_b) >= target && m.points_a != m.points_b) ||
           m.games >= m.best_of;
}

std::optional<int> match_winner(const MatchScore& m) {
  if (m.points_a == m.points_b) return std::nullopt;
  return m.points_a > m.points_b ? 0 : 1;
}

}  // namespace naqala::play
