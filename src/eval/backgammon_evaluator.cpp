// The 0-ply backgammon evaluation and the shipped weights.
#include "eval/backgammon_evaluator.h"

#include <cstdlib>

#include "core/data_dir.h"

namespace naqala::bgeval {

using backgammon::kBar;
using backgammon::kCheckers;

Probs finished(const Side& winner, const Side& loser) {
  (void)winner;
  int loser_on_board = 0;
  bool deep = false;
  for (int i = 0; i <= kBar; ++i) {
    loser_on_board += loser[i];
    if (i >= 18 && loser[i]) deep = true;  // on the bar or in the winner's home board
  }
  const bool gammon = loser_on_board == kCheckers;
  return {{1.0f, gammon ? 1.0f : 0.0f, gammon && deep ? 1.0f : 0.0f, 0, 0}};
}

Probs after_move(const Net& net, const Side& mover, const Side& opp) {
  if (backgammon::checkers_off(mover) == kCheckers) return finished(mover, opp);
  return on_roll(net, opp, mover).inverted();
}

Board best_move(const Net& net, const Board& b, int d0, int d1, backgammon::MoveList& moves) {
  backgammon::generate_moves(b, Player::South, d0, d1, moves);
  Board best_board = b;
  float best = -10;
  for (const auto& m : moves) {
    Board after = b;
    backgammon::apply_steps(after, Player::South, m);
    const float eq = after_move(net, after[0], after[1]).equity();
    if (eq > best) best = eq, best_board = after;
  }
  return best_board;
}

std::string shipped_net_path() {
  if (const char* env = std::getenv("NAQALA_BGNET"); env && *env) return env;
  return data_dir() + "/backgammon/net.bin";
}

const Net& shipped_net() {
  static const Net net = Net::load(shipped_net_path());
  return net;
}

}  // namespace naqala::bgeval
