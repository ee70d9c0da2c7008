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
// - prime: `s`'s longest run of made points, over 6;
// - containment: 1 minus the least share of the 36 rolls with which a checker of `s` on any of
//   its 13- to 24-points gets past every point `other` has made within the 12 pips in front
//   of it (points further on count as open): how well `other` can hold a checker of `s` that
//   is or will be sent back, whether or not one is there now;
// - contact: the pips `s`'s checkers behind `other`'s rearmost checker must travel to get past
//   it (a checker on `other`'s bar is behind them all), over 100: the timing left to `s`
//   before the contact breaks;
// - pip loss: the pips `s` expects to lose to `other`'s next roll: over the 36 rolls, the
//   mean of the largest loss (25 minus the blot's point) among the blots that roll can hit
//   (as for shots), over 24.
// The inputs are grouped in the order they were added (shots, escapes, prime for `me`, then
// for the opponent; then containment, contact, pip loss for each), so a weight file of an
// earlier build keeps its rows (bgnet::Net::load).
#include <array>
#include <cstdint>

#include "games/backgammon/backgammon.h"

namespace naqala::bgfeatures {

using backgammon::Side;

constexpr int kFeatures = 6;
enum : int { Shots, Escapes, Prime, Containment, Contact, PipLoss };
// The features of each generation: a weight file made before a generation lacks its inputs.
constexpr int kGenerations = 2;
constexpr int kGenerationEnd[kGenerations] = {3, 6};

std::array<float, kFeatures> side_features(const Side& s, const Side& other);
// Both sides' at once, in the networks' input order: each generation's features for `me`,
// then for `opp`.
std::array<float, 2 * kFeatures> both_sides(const Side& me, const Side& opp);

// Rolls (of 36) with which a checker at `from` (bit index, moving to lower bits) lands on a
// bit of `target`, stepping only over points not in `blocked`: the count behind shots and
// escapes, exposed for tests. `from` may hold several checkers' bits (any of them will do).
int rolls_reaching(std::uint32_t from, std::uint32_t target, std::uint32_t blocked);

// Rolls (of 36) with which a checker gets past the last made point of `window` (bit j = the
// point 12 - j pips in front), with every point beyond the window open: containment's count.
int escaping_rolls(std::uint32_t window);

}  // namespace naqala::bgfeatures
