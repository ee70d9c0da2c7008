#pragma once
// Money-play cube decisions from cubeless probabilities: Janowski's interpolation between
// the dead cube (cubeless equity) and a fully live cube, weighted by a cube efficiency
// (docs/games/backgammon.md, "Cube decisions"). Equities are per unit of the current cube, for
// the player on roll, before his roll.
#include <string>

#include "eval/backgammon_net.h"

namespace naqala::bgcube {

enum class Access { Centred, Mine, Theirs };

// Cube efficiency: how live the cube is (0.68 in contact, 0.85 in a race).
float efficiency(bool race);

// Cubeful equity of the player on roll with the cube where `access` says.
float cubeful(const bgnet::Probs& p, Access access, float x);

struct Decision {
  float no_double = 0;    // keep the cube (he may still own or share it)
  float double_take = 0;  // twice the equity with the opponent owning a cube of 2
  float double_pass = 1;
  bool should_double = false;
  bool should_take = false;  // the opponent's right answer to a double
  std::string verdict;  // "No double, take", "Double, take", "Double, pass", "Too good, pass", ...
};

// The decision of the player on roll whose cube is `access` (Centred or Mine).
Decision money_decision(const bgnet::Probs& p, Access access, bool race);

}  // namespace naqala::bgcube
