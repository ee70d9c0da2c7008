#pragma once
// The hand-written backgammon player: an evaluation (race formula when the armies have
// passed, weighted positional features in contact), a 1-ply chooser for checker plays (the
// move whose result evaluates best), and cube actions by the cube rules of
// eval/backgammon_cube.h fed with this evaluation's chances with the roller on roll (an
// expectation over the 21 rolls). The neural engine (eval/backgammon_net.h) is the strong
// one; this one plays every decision the rules can ask for without a network.
#include <array>

#include "core/rng.h"
#include "eval/backgammon_cube.h"
#include "games/backgammon/backgammon.h"

namespace naqala::bgheuristic {

using backgammon::Board;
using backgammon::Move;
using backgammon::State;
using bgcube::Estimate;

// Contact features from `p`'s side (each "mine minus the opponent's"), with the opponent to
// roll: bias, pip lead / 10, made points (weighted by place), prime, exposed blots, checkers
// on the bar, anchors in the opponent's home board, stacked checkers, checkers back,
// checkers off.
using ContactFeatures = std::array<double, 10>;
ContactFeatures contact_features(const Board& board, Player p);

// Their weights for the log-odds that `p` wins, fitted to our network's chances by
// `naqala tune backgammon --games 10000 --seed 1` (eval/backgammon_contact_fit.h) with the
// network shipped then (1.68M self-play games).
inline constexpr ContactFeatures kContactWeights = {-0.2318, 0.0669,  1.7910, 0.0275,  -0.4108,
                                                    -0.4662, -0.3372, 0.0343, -0.0439, 0.2802};
// The chance that `p` wins by the logistic model: sigmoid of the weighted features.
double contact_win_chance(const ContactFeatures& weights, const ContactFeatures& features);

// The position seen from `p` with `p`'s opponent to roll next (what a checker play leaves).
Estimate evaluate_after_move(const Board& board, Player p);
// The position seen from `p` with `p` to roll (averaged over the 21 rolls, best play each).
Estimate evaluate_on_roll(const Board& board, Player p);

struct BotChoice {
  Move move;
  double equity = 0;  // the chooser's estimate for the player to move, cubeless
};

// The bot's decision for the player to move; the state must be a decision node (not a
// chance node, not over). `rng`, when given, breaks ties between equal moves at random.
BotChoice choose_move(const State& s, Rng* rng = nullptr);

}  // namespace naqala::bgheuristic
