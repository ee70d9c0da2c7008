#pragma once
// Actions as OpenSpiel numbers them: every decision of a game is a whole number below
// num_distinct_actions(), the same number for the same decision in every state, and chance
// outcomes (backgammon's rolls) are numbers below max_chance_outcomes(). Each family has its
// codec (game_actions.cpp); the observation tensors live beside them (docs/python.md).
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/any_game.h"

namespace naqala::python {

class GameActions {
 public:
  virtual ~GameActions() = default;
  virtual int num_distinct_actions() const = 0;
  virtual int max_chance_outcomes() const { return 0; }

  // The legal actions of a decision node, ascending; empty at chance nodes and game ends.
  virtual std::vector<int> legal_actions(const AnyState& state) const = 0;
  // Plays an action (a decision, or at a chance node an outcome). Throws IllegalMoveError
  // with the CLI's message when it is not legal here.
  virtual void apply(AnyState& state, int action) const = 0;
  virtual std::string action_to_string(const AnyState& state, int action) const = 0;
  // The action of a move (or, at a chance node, a roll) written as the CLI reads it.
  virtual int string_to_action(const AnyState& state, std::string_view text) const = 0;
  virtual std::vector<std::pair<int, double>> chance_outcomes(const AnyState& state) const {
    (void)state;
    return {};
  }

  // The observation tensor: its shape and its values for a state (docs/python.md).
  virtual std::vector<int> observation_shape() const = 0;
  virtual void observe(const AnyState& state, float* out) const = 0;
  int observation_size() const {
    int n = 1;
    for (int d : observation_shape()) n *= d;
    return n;
  }
};

// The codec of a game's family; throws Error for a game it does not know.
std::shared_ptr<const GameActions> make_game_actions(const AnyGame& game);

}  // namespace naqala::python
