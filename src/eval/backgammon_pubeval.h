#pragma once
// Pubeval: Gerry Tesauro's public-domain linear move evaluator (1993), the field's usual
// baseline opponent. Written for naqala from its published description and weight vectors
// (docs/games/backgammon.md, "Pubeval"): one weight vector for contact, one for races, over 122
// inputs of the position after the move.
#include "games/backgammon/backgammon.h"

namespace naqala::pubeval {

using backgammon::Side;

// The score of the position `mover` has just made (higher is better for him). `race` says
// whether the position before the move was a race, as Tesauro's routine expects.
float score(const Side& mover, const Side& opp, bool race);

// The index of pubeval's choice among the moves of `mover` (board[0] = mover) for the dice;
// -1 when there is no legal move.
int choose(const backgammon::Board& board, const backgammon::MoveList& moves);

}  // namespace naqala::pubeval
