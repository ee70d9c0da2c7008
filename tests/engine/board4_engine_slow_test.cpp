// Bao and Omweso engines at every level 1..10 to the end of a game (label: slow).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/error.h"
#include "engine/engine.h"
#include "games/registry.h"

namespace naqala::engine {
namespace {

constexpr const char* kVariants[] = {"bao", "bao-kujifunza", "omweso", "omweso-s0"};

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Plays one game between two engines, checking every move; returns the outcome.
Outcome play_out(const AnyGame& game, Engine& south, Engine& north, int max_plies, int* plies) {
  auto state = game.new_game();
  int n = 0;
  for (; n < max_plies && !state->is_over(); ++n) {
    Engine& e = state->to_move() == Player::South ? south : north;
    const std::string move = e.choose_move(*state);
    EXPECT_TRUE(contains(state->legal_moves(), move))
        << game.info().name << " " << e.name() << " ply " << n << ": " << move;
    if (!contains(state->legal_moves(), move)) break;
    state->play(move);
  }
  if (plies) *plies = n;
  EXPECT_TRUE(state->is_over()) << game.info().name << " " << south.name() << " vs " << north.name()
                                << " not over after " << n << " plies";
  if (state->is_over()) {
    EXPECT_THROW(south.choose_move(*state), IllegalMoveError);
  }
  return state->outcome();
}

// Every level 1..10 to the end of a game against level 1 (levels 5-10 think up to 2 s a move:
// minutes in all, so the test is labelled slow).
TEST(Board4EngineSlow, EveryLevelPlaysToTheEnd) {
  for (const char* v : kVariants) {
    auto game = make_game(v);
    for (int level = 1; level <= 10; ++level) {
      auto a =
          make_engine(*game, "level:" + std::to_string(level) + ",seed=" + std::to_string(level));
      auto b = make_engine(*game, "level:1,seed=99");
      int plies = 0;
      const auto start = std::chrono::steady_clock::now();
      const Outcome o =
          level % 2 ? play_out(*game, *a, *b, 2000, &plies) : play_out(*game, *b, *a, 2000, &plies);
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%s level %d: %s after %d plies (%s), %.1f s\n", v, level, o.result_tag().c_str(),
                  plies, std::string(to_string(o.reason)).c_str(), s);
    }
  }
}

}  // namespace
}  // namespace naqala::engine
