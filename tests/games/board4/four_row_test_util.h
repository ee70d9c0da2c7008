#pragma once
// Test helpers shared by the four-row games (bao_test, omweso_test): legal moves as sorted
// text, playing a move given as text (checked legal), the position after one, seeds in play,
// the positions after every legal move, perft.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/outcome.h"
#include "core/player.h"

namespace naqala::board4::testing {

template <class State>
std::vector<std::string> legal(const State& s) {
  typename State::MoveList moves;
  s.legal_moves(moves);
  std::vector<std::string> out;
  for (auto m : moves) out.push_back(s.format_move(m));
  std::sort(out.begin(), out.end());
  return out;
}

template <class State>
void play(State& s, const std::string& text) {
  auto m = s.parse_move(text);
  ASSERT_TRUE(m.has_value()) << text;
  typename State::MoveList moves;
  s.legal_moves(moves);
  ASSERT_TRUE(moves.contains(*m)) << text << " not legal in " << s.position();
  s.play(*m);
}

template <class State>
std::string after(const State& s, const std::string& text) {
  State t = s;
  play(t, text);
  return t.position();
}

template <class State>
int total(const State& s) {
  return s.seeds_on_side(Player::South) + s.seeds_on_side(Player::North);
}

// The position after each legal move, sorted; "annulled" for an endless sowing.
template <class State>
std::vector<std::string> engine_successors(const State& s) {
  typename State::MoveList moves;
  s.legal_moves(moves);
  std::vector<std::string> out;
  for (auto m : moves) {
    State t = s;
    t.play(m);
    out.push_back(t.outcome().reason == EndReason::InfiniteSowing ? "annulled" : t.position());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Leaves at `depth` plies; finished games are not expanded.
template <class State>
std::uint64_t engine_perft(const State& s, int depth) {
  typename State::MoveList moves;
  s.legal_moves(moves);
  if (depth == 1) return moves.size();
  std::uint64_t n = 0;
  for (auto m : moves) {
    State t = s;
    t.play(m);
    if (!t.is_over()) n += engine_perft(t, depth - 1);
  }
  return n;
}

}  // namespace naqala::board4::testing
