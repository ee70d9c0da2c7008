#pragma once
// Evaluation of Bao positions (bao, bao-kujifunza; RULES.md sections 8, 9). A small linear sum
// from the view of the player to move, in search units (search::kPoint = one seed):
// - material: seeds on own side (pits and hand) minus the opponent's, the game's own score;
// - front row: own front-row seeds minus the opponent's. A player whose front row is empty has
//   lost, and only front-row seeds capture or take part in captures;
// - mobility: own pits holding 2+ seeds minus the opponent's (in the mtaji stage only those
//   can start a move; a player without a move has lost);
// - house: an own functional nyumba (Kiswahili) minus the opponent's; it is the big store of
//   the namua stage and gives the house choices.
// Weights are set by hand and checked by play (docs/engines.md: a deeper level beats level 1).
#include <algorithm>

#include "games/bao/bao.h"
#include "search/values.h"

namespace naqala::eval {

struct BaoEval {
  static constexpr int kMaterial = search::kPoint;
  static constexpr int kFrontRow = search::kPoint / 5;
  static constexpr int kMobility = search::kPoint / 4;
  static constexpr int kHouse = 2 * search::kPoint;

  int operator()(const bao::State& s) const {
    const Player me = s.to_move(), you = opponent(me);
    return std::clamp(side(s, me) - side(s, you), -search::kWin / 4, search::kWin / 4);
  }

  // One player's share of the evaluation.
  static int side(const bao::State& s, Player p) {
    int front = 0, mobile = 0;
    for (int r = 0; r < board4::kPits; ++r) {
      const int c = s.pit(p, r);
      if (board4::is_front(r)) front += c;
      if (c >= 2) ++mobile;
    }
    return kMaterial * s.seeds_on_side(p) + kFrontRow * front + kMobility * mobile +
           (s.house(p) ? kHouse : 0);
  }
};

}  // namespace naqala::eval
