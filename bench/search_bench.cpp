// Search speed on the sowing presets: alpha-beta nodes/s to a fixed depth from the start (one
// thread, the yardstick of the issue), and MCTS simulations/s with random playouts (one thread,
// and two by root parallelism; batches of 4 playouts side by side, and 1 for comparison).
// Run: build/release/bench/naqala_search_bench (or `naqala bench search VARIANT`).
#include <benchmark/benchmark.h>

#include "eval/sowing_eval.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"
#include "search/alphabeta.h"
#include "search/mcts.h"

namespace {

using naqala::sowing::State;

std::shared_ptr<const naqala::sowing::Rules> preset(const char* name) {
  for (const auto& p : naqala::sowing::presets())
    if (p.name == name) return naqala::sowing::load_rules(p.toml, name, {});
  return nullptr;
}

void alphabeta(benchmark::State& st, const char* name, int depth) {
  const auto rules = preset(name);
  naqala::search::AlphaBetaOptions options;
  options.hash_mb = 64;
  naqala::search::AlphaBeta<State, naqala::eval::SowingEval> search(
      naqala::eval::SowingEval(*rules), options);
  std::uint64_t nodes = 0;
  for (auto _ : st) {
    search.clear();
    nodes += search.search(State::initial(*rules), {0, depth, 0}).nodes;
  }
  st.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

void mcts(benchmark::State& st, const char* name, int threads, int batch) {
  const auto rules = preset(name);
  naqala::search::MctsOptions options;
  options.reuse_tree = false;
  options.threads = threads;
  options.batch = batch;
  naqala::search::Mcts<State> search(options);
  std::uint64_t sims = 0;
  for (auto _ : st) sims += search.search(State::initial(*rules), 20000, 0).simulations;
  st.counters["simulations/s"] =
      benchmark::Counter(static_cast<double>(sims), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(alphabeta, oware_depth14, "oware", 14)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(alphabeta, kalah_depth16, "kalah", 16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(mcts, oware, "oware", 1, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(mcts, kalah, "kalah", 1, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(mcts, oware_batch1, "oware", 1, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(mcts, kalah_batch1, "kalah", 1, 1)->Unit(benchmark::kMillisecond);
// Root parallelism: the rate is per wall second, so on an idle machine twice the above.
BENCHMARK_CAPTURE(mcts, oware_2_threads, "oware", 2, 4)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(mcts, kalah_2_threads, "kalah", 2, 4)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
