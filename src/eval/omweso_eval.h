#pragma once
// Evaluation of Omweso positions (omweso, omweso-s0; RULES.md section 12). A small linear sum
// from the view of the player to move, in search units (search::kPoint = one seed):
// - material: seeds on own side minus the opponent's (captures move seeds across; the side
//   left without a move or without seeds loses);
// - mobility: own pits holding 2+ seeds minus the opponent's (standard Omweso sows only from
//   those; a player without such a pit has lost);
// - front row: own inner-row seeds minus the opponent's; a sowing that ends in an occupied own
//   inner pit is what captures, and inner seeds are what the opponent can take.
// During setup every layout has the same material; the engine places setup seeds by its setup
// policy (engine.cpp), not by this evaluation.
#include <algorithm>

#include "games/omweso/omweso.h"
#include "search/values.h"

namespace naqala::eval {

struct OmwesoEval {
  static constexpr int kMaterial = search::kPoint;
  static constexpr int kMobility = search::kPoint / 3;
  static constexpr int kFrontRow = search::kPoint / 10;

  int operator()(const omweso::State& s) const {
    const Player me = s.to_move(), you = opponent(me);
    return std::clamp(side(s, me) - side(s, you), -search::kWin / 4, search::kWin / 4);
  }

  static int side(const omweso::State& s, Player p) {
    int total = 0, front = 0, mobile = 0;
    for (int r = 0; r < board4::kPits; ++r) {
      const int c = s.pit(p, r);
      total += c;
      if (board4::is_front(r)) front += c;
      if (c >= 2) ++mobile;
    }
    return kMaterial * total + kMobility * mobile + kFrontRow * front;
  }
};

}  // namespace naqala::eval
