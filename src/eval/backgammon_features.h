#pragma once
// Hand-made inputs of the backgammon networks, beside the raw board encoding: the
// relations between checkers that a small network learns slowly from points alone
// (docs/games/backgammon.md, "The neural evaluation"). Each is computed for one side `s`
// against the other side `other`, both from their own view (index 24 = bar), and scaled to
// [0, 1]:
// - shots: the share of the 36 rolls with which `other`, rolling, hits at least one blot of
//   `s` (a checker moving by one die, or by both dice through an open point; doubles up to
//   four steps; checkers on `other`'s bar shoot only from the bar);
// - escapes: the share of the 36 rolls with which `s`'s rearmost checker gets past every
//   point `other` has made within the 12 pips in front of it (1 when nothing blocks it);
// - prime: `s`'s longest run of made points, over 6.
#include <array>
#include <cstdint>

#include "games/backgammon/backgammon.h"

namespace naqala::bgfeatures {

using backgammon::Side;

constexpr int kFeatures = 3;
enum : int { Shots, Escapes, Prime };

std::array<float, kFeatures> side_features(const Side& s, const Side& other);
// Both sides' at once, `me`'s first: the network's hand-made inputs.
std::array<float, 2 * kFeatures> both_sides(const Side& me, const Side& opp);

// Rolls (of 36) with which a checker at `from` (bit index, moving to lower bits) lands on a
// bit of `target`, stepping only over points not in `blocked`: the count behind shots and
// escapes, exposed for tests. `from` may hold several checkers' bits (any of them will do).
int rolls_reaching(std::uint32_t from, std::uint32_t target, std::uint32_t blocked);

}  // namespace naqala::bgfeatures
