// The four-row games in uniformly random play from the start: plies/s and, since a Bao or
// Omweso move is long (relay sowings), sowing steps/s (seeds dropped). Each iteration is one
// game; run: build/release/bench/naqala_bench --benchmark_filter='Bao|Omweso'.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "core/rng.h"
#include "games/bao/bao.h"
#include "games/omweso/omweso.h"

namespace {

using naqala::Rng;

template <class State>
void random_games(benchmark::State& bench, const State& start) {
  Rng rng(0x5eed);
  typename State::MoveList moves;
  std::uint64_t plies = 0, steps = 0, games = 0;
  for (auto _ : bench) {
    State s = start;
    while (!s.is_over()) {
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      steps += s.last_steps();
      ++plies;
    }
    ++games;
    benchmark::DoNotOptimize(s);
  }
  bench.counters["plies/s"] =
      benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
  bench.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  bench.counters["plies/game"] =
      static_cast<double>(plies) / static_cast<double>(games ? games : 1);
}

void BaoRandomGame(benchmark::State& bench) {
  static const auto rules = naqala::bao::make_rules("bao", {});
  random_games(bench, naqala::bao::State::initial(rules));
}

void BaoKujifunzaRandomGame(benchmark::State& bench) {
  static const auto rules = naqala::bao::make_rules("bao-kujifunza", {});
  random_games(bench, naqala::bao::State::initial(rules));
}

naqala::omweso::Rules omweso_rules(naqala::omweso::Version v) {
  return naqala::omweso::make_rules(v, {});
}

// The worst relay found in a million random rings: 62 seeds whose endless relay has a period
// of about 10^8 laps even on the turned ring. The move ends after board4::kMaxRelayLaps laps
// (S4:255's two minutes); before that rule it took seconds.
void OmwesoLongestRelay(benchmark::State& bench) {
  static const auto rules = omweso_rules(naqala::omweso::Version::Standard);
  const auto start = naqala::omweso::State::from_position(
      rules, "3,8,5,4,7,3,4,3/2,3,2,5,2,4,5,2/0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0/S");
  const auto move = *start.parse_move("e2>");
  std::uint64_t steps = 0;
  for (auto _ : bench) {
    auto s = start;
    s.play(move);
    steps += s.last_steps();
    benchmark::DoNotOptimize(s);
  }
  bench.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}

void OmwesoRandomGame(benchmark::State& bench) {
  static const auto rules = omweso_rules(naqala::omweso::Version::Standard);
  random_games(bench, naqala::omweso::State::initial(rules));
}

void OmwesoS0RandomGame(benchmark::State& bench) {
  static const auto rules = omweso_rules(naqala::omweso::Version::S0);
  random_games(bench, naqala::omweso::State::initial(rules));
}

}  // namespace

BENCHMARK(BaoRandomGame)->MinTime(1.0);
BENCHMARK(BaoKujifunzaRandomGame)->MinTime(1.0);
BENCHMARK(OmwesoRandomGame)->MinTime(1.0);
BENCHMARK(OmwesoS0RandomGame)->MinTime(1.0);
BENCHMARK(OmwesoLongestRelay)->Unit(benchmark::kMillisecond);
