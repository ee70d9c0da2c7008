#pragma once
// The module's Game and State: a game's rules with its action codec, and a state of it with
// the actions applied (OpenSpiel's shape). Shared by module.cpp and solver.cpp.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "game_actions.h"
#include "games/any_game.h"
#include "games/registry.h"

namespace naqala::python {

namespace py = pybind11;

// OpenSpiel's player ids for the nodes where nobody decides.
constexpr int kChancePlayer = -1;
constexpr int kTerminalPlayer = -4;

struct Game {
  std::shared_ptr<const AnyGame> game;
  std::shared_ptr<const GameActions> actions;
};

inline Game load_game(const std::string& spec) {
  std::shared_ptr<const AnyGame> game = make_game(spec);
  return {game, make_game_actions(*game)};
}

struct State {
  Game game;
  std::unique_ptr<AnyState> state;
  std::vector<int> history;  // every action since the state was made, chance outcomes too

  State(Game g, std::unique_ptr<AnyState> s) : game(std::move(g)), state(std::move(s)) {}
  State(const State& o) : game(o.game), state(o.state->clone()), history(o.history) {}

  int current_player() const {
    if (state->is_over()) return kTerminalPlayer;
    if (state->is_chance_node()) return kChancePlayer;
    return index(state->to_move());
  }
  void apply_action(int action) {
    game.actions->apply(*state, action);
    history.push_back(action);
  }
  std::vector<double> returns() const {
    if (!state->is_over()) return {0.0, 0.0};
    const double south = 2 * state->outcome().south_points() - 1;
    return {south, -south};
  }
  py::array_t<float> observation_tensor() const {
    const auto shape = game.actions->observation_shape();
    py::array_t<float> out(std::vector<py::ssize_t>(shape.begin(), shape.end()));
    game.actions->observe(*state, out.mutable_data());
    return out;
  }
  py::array_t<std::uint8_t> legal_actions_mask() const {
    py::array_t<std::uint8_t> out(game.actions->num_distinct_actions());
    std::fill(out.mutable_data(), out.mutable_data() + out.size(), 0);
    for (int a : game.actions->legal_actions(*state)) out.mutable_data()[a] = 1;
    return out;
  }
};

}  // namespace naqala::python
