#pragma once
// Backgammon evaluation for the expectiminimax search: the hand-written player's cubeless
// equity (eval/backgammon_heuristic.h) on the search's scale, 1000 = one point (a single game). The
// search plays checkers cubeless; a finished game is worth its multiplier (1 single,
// 2 gammon, 3 backgammon; a drop 1), so the cube does not distort checker play.
#include <memory>

#include "eval/backgammon_heuristic.h"

namespace naqala::eval {

class BackgammonEval {
 public:
  static constexpr int kUnit = 1000;  // search units per point

  // Value for the player to move at any node that is not over.
  int operator()(const backgammon::State& s) const {
    using backgammon::Phase;
    const Player p = s.to_move();
    switch (s.phase()) {
      case Phase::Moving: {
        // The dice are known: the best 1-ply play.
        thread_local auto moves = std::make_unique<backgammon::MoveList>();
        s.legal_moves(*moves);
        double best = -3;
        for (const auto& m : *moves) {
          backgammon::Board b = s.board();
          if (m.kind == backgammon::Move::Kind::Checkers) backgammon::apply_steps(b, p, m);
          best = std::max(best, bgheuristic::evaluate_after_move(b, p).equity());
        }
        return static_cast<int>(best * kUnit);
      }
      case Phase::Doubled:
        // The taker, with the doubler on roll.
        return static_cast<int>(bgheuristic::evaluate_after_move(s.board(), p).equity() * kUnit);
      default:
        // The player on roll (before or at the roll).
        return static_cast<int>(-bgheuristic::evaluate_after_move(s.board(), opponent(p)).equity() *
                                kUnit);
    }
  }

  // A finished game (or match) for `view`.
  int terminal(const backgammon::State& s, Player view) const {
    const Outcome o = s.outcome();
    if (!o.winner) return 0;
    const int points = s.rules().is_money() ? std::max(1, s.last_result().multiplier) : 3;
    return (*o.winner == view ? 1 : -1) * points * kUnit;
  }

  // Every value lies within these bounds (what Star1 prunes with).
  static constexpr int lowest() { return -3 * kUnit; }
  static constexpr int highest() { return 3 * kUnit; }
};

}  // namespace naqala::eval
