#pragma once
// Resignations in backgammon (docs/games/backgammon.md, "Resignations"): when the engine on
// roll offers to resign a single game, a gammon or a backgammon, and whether it accepts the
// opponent's offer. Both compare what the resignation scores with the value of playing on, on
// the scale the cube decisions use: cubeful money equity per unit of the cube (Janowski), or
// in a match the match-winning chance (naqala's match equity table), from the five
// probabilities of the evaluation (exact in the bear-off).
#include <optional>
#include <string>

#include "eval/backgammon_net.h"
#include "games/any_game.h"
#include "games/backgammon/backgammon.h"

namespace naqala::bgresign {

// The value of the game to the player on roll in `s` if he plays on: before his roll (or with
// an offer of his pending) from his chances on roll at `plies`; after his roll, his best move
// at 0 ply. Money: points per unit of the cube; a match: his match-winning chance.
double play_on_value(const backgammon::State& s, const bgnet::Net& net, int plies = 0);
// What resigning `multiplier` (1-3) leaves the player on roll, on the same scale.
double resigned_value(const backgammon::State& s, int multiplier);
// A value of the player on roll as his opponent sees it (minus it, or one minus it).
double for_opponent(const backgammon::State& s, double value);

// The resignation the player on roll should offer: the lowest level whose score is within a
// small margin of his value (he gives up almost nothing and an opponent who judges as he does
// accepts it). nullopt while he has something to play for, or a pending or declined offer
// leaves no level to offer.
std::optional<int> offer(const backgammon::State& s, const bgnet::Net& net, int plies = 0);
// The answer to the pending offer: accept when it scores at least what playing on is worth
// to the answerer.
bool accepts(const backgammon::State& s, const bgnet::Net& net, int plies = 0);

}  // namespace naqala::bgresign

namespace naqala::engine {

// The resignation a computer player on roll offers in a backgammon game ("resign single",
// "resign gammon" or "resign backgammon"), judged with the shipped network at 0 ply; nullopt in
// other games, when nobody may offer now, or when the position is not hopeless.
std::optional<std::string> resignation_offer(const AnyState& state);

}  // namespace naqala::engine
