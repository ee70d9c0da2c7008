#pragma once
// The game concept every naqala game state models (DESIGN.md "Game interface").
//
// A state is a small value: copying it is the undo. Moves are small integers, move lists are
// fixed-capacity, and nothing allocates while playing. One ply is one decision of one player
// (a sowing, a complete Bao move, a backgammon move of all dice, a cube action, a setup layout);
// a Kalah extra turn is a new ply by the same player.
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/outcome.h"
#include "core/player.h"

namespace naqala {

template <class S>
concept GameState = std::copyable<S> &&
    requires(const S cs, S s, typename S::Move m, typename S::MoveList& moves) {
  typename S::Move;
  typename S::MoveList;
  { cs.to_move() } -> std::same_as<Player>;
  { cs.legal_moves(moves) } -> std::same_as<void>;
  { s.play(m) } -> std::same_as<void>;
  { cs.is_over() } -> std::same_as<bool>;
  { cs.outcome() } -> std::same_as<Outcome>;
  { cs.hash() } -> std::same_as<std::uint64_t>;
};

// States that can also be written and read as text: what the CLI, server, records and
// Python need. Parsing returns nullopt for text that is not a move of this game at all;
// legality is checked separately against legal_moves().
template <class S>
concept TextGameState = GameState<S> &&
    requires(const S cs, typename S::Move m, std::string_view t) {
  { cs.format_move(m) } -> std::convertible_to<std::string>;
  { cs.parse_move(t) } -> std::same_as<std::optional<typename S::Move>>;
  { cs.position() } -> std::convertible_to<std::string>;
  { cs.render() } -> std::convertible_to<std::string>;
};

// Games with chance (backgammon dice): at a chance node nobody decides; the outcomes and
// their probabilities are listed and one is applied.
template <class S>
concept ChanceGameState = GameState<S> &&
    requires(const S cs, S s, typename S::ChanceList& list, typename S::Chance c) {
  typename S::Chance;
  typename S::ChanceList;  // of S::ChanceOutcome {Chance chance; double probability;}
  { cs.is_chance_node() } -> std::same_as<bool>;
  { cs.chance_outcomes(list) } -> std::same_as<void>;
  { s.apply_chance(c) } -> std::same_as<void>;
};

// Games that end by repetition (Oware's endless cycle): the driver keeps the history of
// hashes and calls end_by_cycle() when a position repeats.
template <class S>
concept CycleEndingState = GameState<S> && requires(const S cs, S s) {
  { cs.ends_on_cycle() } -> std::same_as<bool>;
  { s.end_by_cycle() } -> std::same_as<void>;
};

}  // namespace naqala
