// Backgammon speed: move generation and random games (the yardstick is OpenSpiel's
// backgammon, about 1,000 random games/s on one core of this machine), and the bot.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "core/rng.h"
#include "eval/backgammon_heuristic.h"
#include "games/backgammon/backgammon.h"

using namespace naqala;
using namespace naqala::backgammon;

namespace {

void roll(State& s, Rng& rng) {
  s.apply_chance(throw_dice(s, rng));
}

// Positions with dice from random games without the cube.
std::vector<State> sample_positions(int n) {
  Rng rng(3);
  Rules r;
  r.cube = false;
  std::vector<State> out;
  auto moves = std::make_unique<MoveList>();
  while (static_cast<int>(out.size()) < n) {
    State s(r);
    while (!s.is_over() && static_cast<int>(out.size()) < n) {
      if (s.is_chance_node()) {
        roll(s, rng);
        out.push_back(s);
        continue;
      }
      s.legal_moves(*moves);
      s.play((*moves)[rng.below(static_cast<std::uint32_t>(moves->size()))]);
    }
  }
  return out;
}

void BM_BackgammonMoveGeneration(benchmark::State& st) {
  const auto positions = sample_positions(4096);
  auto moves = std::make_unique<MoveList>();
  std::size_t i = 0, total = 0;
  for (auto _ : st) {
    positions[i].legal_moves(*moves);
    total += moves->size();
    benchmark::DoNotOptimize(moves->size());
    i = (i + 1) & 4095;
  }
  st.counters["generations/s"] =
      benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["moves/generation"] =
      static_cast<double>(total) / static_cast<double>(st.iterations());
}
BENCHMARK(BM_BackgammonMoveGeneration);

void random_games(benchmark::State& st, bool cube) {
  Rng rng(7);
  Rules r;
  r.cube = cube;
  auto moves = std::make_unique<MoveList>();
  std::uint64_t plies = 0;
  for (auto _ : st) {
    State s(r);
    while (!s.is_over()) {
      if (s.is_chance_node()) {
        roll(s, rng);
        continue;
      }
      s.legal_moves(*moves);
      s.play((*moves)[rng.below(static_cast<std::uint32_t>(moves->size()))]);
      ++plies;
    }
    benchmark::DoNotOptimize(s);
  }
  st.counters["games/s"] =
      benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["plies/s"] =
      benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
}

void BM_BackgammonRandomGameNoCube(benchmark::State& st) {
  random_games(st, false);
}
BENCHMARK(BM_BackgammonRandomGameNoCube);

void BM_BackgammonRandomGameWithCube(benchmark::State& st) {
  random_games(st, true);
}
BENCHMARK(BM_BackgammonRandomGameWithCube);

void BM_BackgammonBotMove(benchmark::State& st) {
  const auto positions = sample_positions(512);
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(bgheuristic::choose_move(positions[i]).move);
    i = (i + 1) & 511;
  }
}
BENCHMARK(BM_BackgammonBotMove);

}  // namespace
