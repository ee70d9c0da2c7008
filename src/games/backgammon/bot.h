#pragma once
// A simple but real backgammon player: a hand-written evaluation (race formula when the
// armies have passed, weighted positional features in contact), a 1-ply chooser for checker
// plays (the move whose result evaluates best), and cube decisions from the position's
// winning chances with the roller on roll (an expectation over the 21 rolls) with the
// usual money thresholds and the match-play cases (dead cube, post-Crawford, drop that
// loses the match). The strong neural engine is a later issue; this one plays every
// decision the rules can ask for.
#include <array>
#include <optional>

#include "core/rng.h"
#include "games/backgammon/backgammon.h"

namespace naqala::backgammon {

struct Estimate {
  double win = 0.5;     // probability that `p` wins the game
  double gammon = 0.0;  // probability that `p` wins a gammon or better
  double gammon_loss = 0.0;
  double equity() const { return 2 * win - 1 + gammon - gammon_loss; }
};

// Contact features from `p`'s side (each "mine minus the opponent's"), with the opponent to
// roll: bias, pip lead / 10, made points (weighted by place), prime, exposed blots, checkers
// on the bar, anchors in the opponent's home board, stacked checkers, checkers back,
// checkers off.
using ContactFeatures = std::array<double, 10>;
ContactFeatures contact_features(const Board& board, Player p);

// The position seen from `p` with `p`'s opponent to roll next (what a checker play leaves).
Estimate evaluate_after_move(const Board& board, Player p);
// The position seen from `p` with `p` to roll (averaged over the 21 rolls, best play each).
Estimate evaluate_on_roll(const Board& board, Player p);

// The equity of taking a double, for the taker, in units of the doubled cube he then owns
// (money play): his cubeless equity and the equity of a fully live cube (Janowski), mixed by
// the cube's efficiency (0.68 in contact, 0.85 in a race). `doubler` is the doubler's
// estimate on roll. Taking is right when it is at least -0.5 (dropping costs the old cube).
double equity_after_take(const Estimate& doubler, bool race);

// The cube action of the player to decide (before the roll: double or roll; after a double:
// take or drop) from `on_roll`, the estimate for the player on roll (the doubler) with him to
// roll, by the rules above (money thresholds with Janowski's take point, match cases).
Move cube_action(const State& s, const Estimate& on_roll);

struct BotChoice {
  Move move;
  double equity = 0;  // the chooser's estimate for the player to move, cubeless
};

// The bot's decision for the player to move; the state must be a decision node (not a
// chance node, not over). `rng`, when given, breaks ties between equal moves at random.
BotChoice choose_move(const State& s, Rng* rng = nullptr);

}  // namespace naqala::backgammon
