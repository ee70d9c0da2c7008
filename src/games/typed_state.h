#pragma once
// TypedState<S>: the AnyState of any TextGameState. It also keeps the history of hashes
// for games that end when a position repeats (CycleEndingState).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "games/any_game.h"
#include "games/game.h"

namespace naqala {

template <TextGameState S>
class TypedState : public AnyState {
 public:
  // `owner` keeps alive whatever the state points into (a ruleset, tables).
  TypedState(S state, std::shared_ptr<const void> owner)
      : state_(state), owner_(std::move(owner)) {
    remember();
  }

  const S& typed() const { return state_; }
  S& typed() { return state_; }

  std::unique_ptr<AnyState> clone() const override { return std::make_unique<TypedState>(*this); }
  Player to_move() const override { return state_.to_move(); }
  bool is_over() const override { return state_.is_over(); }
  Outcome outcome() const override { return state_.outcome(); }
  std::uint64_t hash() const override { return state_.hash(); }

  std::vector<std::string> legal_moves() const override {
    std::vector<std::string> out;
    if (state_.is_over()) return out;
    typename S::MoveList moves;
    state_.legal_moves(moves);
    for (auto m : moves) out.push_back(std::string(state_.format_move(m)));
    return out;
  }

  void play(std::string_view text) override {
    if (state_.is_over()) throw IllegalMoveError("the game is over; no move can be played");
    auto move = state_.parse_move(text);
    if (!move)
      throw ParseError("'" + std::string(text) + "' is not a move of this game; legal moves: " +
                       join_moves(legal_moves()));
    typename S::MoveList moves;
    state_.legal_moves(moves);
    if (!moves.contains(*move))
      throw IllegalMoveError("move '" + std::string(text) + "' is not legal here; legal moves: " +
                             join_moves(legal_moves()));
    play_typed(*move);
  }

  // Plays a move known to be legal, keeping the repetition history.
  void play_typed(typename S::Move move) {
    state_.play(move);
    remember();
  }

  std::string position() const override { return std::string(state_.position()); }
  std::string render() const override { return std::string(state_.render()); }
  nlohmann::json board_json() const override {
    if constexpr (requires { state_.board_json(); }) {
      return state_.board_json();
    } else {
      return nlohmann::json{{"position", position()}};
    }
  }

 private:
  void remember() {
    if constexpr (CycleEndingState<S>) {
      if (!state_.ends_on_cycle() || state_.is_over()) return;
      const auto h = state_.hash();
      if (std::find(history_.begin(), history_.end(), h) != history_.end()) {
        state_.end_by_cycle();
        return;
      }
      history_.push_back(h);
    }
  }

  S state_;
  std::shared_ptr<const void> owner_;
  std::vector<std::uint64_t> history_;
};

}  // namespace naqala
