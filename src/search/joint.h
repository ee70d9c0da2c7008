#pragma once
// Joint moves: nodes where both players choose at once, each without seeing the other's
// choice (Congklak's first move, docs/games/congklak.md). A state marks such a node with
// joint_pending() and encodes the joint move as kJoint | south_label | north_label << 6
// (games/sowing/state.h); the searches read the two halves from it. (An extra sowing inside
// Congklak's lock-step is one player's choice alone: an ordinary node.)
#include <concepts>

#include "core/player.h"
#include "games/game.h"

namespace naqala::search {

template <class S>
concept JointMoveState = GameState<S> && requires(const S s) {
  { s.joint_pending() } -> std::convertible_to<bool>;
  { S::kJoint } -> std::convertible_to<typename S::Move>;
};

inline constexpr int kJointLabels = 64;  // a half is 6 bits

template <class S>
bool is_joint_node(const S& s) {
  if constexpr (JointMoveState<S>) {
    return s.joint_pending();
  } else {
    (void)s;
    return false;
  }
}

// One player's half of a joint move: the label of the pit he chose.
template <class Move>
int joint_half(Move m, Player p) {
  return p == Player::South ? m & 0x3f : (m >> 6) & 0x3f;
}

template <class S>
typename S::Move joint_move(int south_label, int north_label) {
  return static_cast<typename S::Move>(S::kJoint | south_label | north_label << 6);
}

}  // namespace naqala::search
