#pragma once
// The 0-ply backgammon evaluation: a finished game is its result, a bear-off is read from the
// databases, anything else goes to the network of its class.
#include <string>

#include "eval/backgammon_bearoff.h"
#include "eval/backgammon_net.h"

namespace naqala::bgeval {

using backgammon::Board;
using backgammon::Side;
using bgnet::Net;
using bgnet::Probs;

// The result once `winner` has borne off his last checker, from the winner's view.
Probs finished(const Side& winner, const Side& loser);

// `me` on roll, the game not over.
inline Probs on_roll(const Net& net, const Side& me, const Side& opp) {
  if (auto exact = bearoff::evaluate(me, opp)) return *exact;
  return net.evaluate(me, opp);
}

// The position `mover` has just made (the opponent to roll), from the mover's view.
Probs after_move(const Net& net, const Side& mover, const Side& opp);

// The board after the side on roll (b[0]) plays dice d0, d1 at 0 ply: the move whose position
// is worth most to him by `after_move` (b itself when no move is legal). `moves` is scratch.
Board best_move(const Net& net, const Board& b, int d0, int d1, backgammon::MoveList& moves);

// The weights shipped with naqala (data/backgammon/net.bin, or the file named by the
// environment variable NAQALA_BGNET), loaded once. Throws naqala::Error when missing or
// damaged.
const Net& shipped_net();
std::string shipped_net_path();

}  // namespace naqala::bgeval
