// The sowing family's search tools: `naqala bench search` and bench/ (alpha-beta and MCTS
// speed) and `naqala solve` (the margin prover). Other families have none yet.
#include <algorithm>
#include <chrono>
#include <ctime>

#include "core/error.h"
#include "engine/engine.h"
#include "eval/sowing_eval.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "search/alphabeta.h"
#include "search/mcts.h"
#include "search/prove.h"

namespace naqala::engine {

namespace {

const sowing::State& sowing_state(const AnyState& state) {
  const auto* t = dynamic_cast<const TypedState<sowing::State>*>(&state);
  if (!t) throw VariantError("search benchmarks know the sowing family only so far");
  if (state.is_over()) throw Error("the game is over; there is nothing to search");
  return t->typed();
}

// Process CPU time (every thread's), for the benchmarks' per-CPU-second rates.
double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

}  // namespace

SearchBench bench_alphabeta(const AnyState& state, int depth, double seconds, int threads) {
  const sowing::State& s = sowing_state(state);
  search::AlphaBetaOptions options;
  options.threads = threads;
  options.hash_mb = 64;
  search::AlphaBeta<sowing::State, eval::SowingEval> ab(eval::SowingEval(s.rules()), options);
  SearchBench out;
  const double cpu_start = cpu_seconds();
  const auto r = ab.search(s, {seconds, depth, 0}, [&](const auto& it) {
    out.iterations.push_back(
        {it.depth, it.nodes, it.seconds, search::to_points(it.value), s.format_move(it.best)});
  });
  out.cpu_seconds = cpu_seconds() - cpu_start;
  out.nodes = r.nodes;
  out.seconds = r.seconds;
  return out;
}

MctsBench bench_mcts(const AnyState& state, double seconds, int threads, bool eval_leaf) {
  const sowing::State& s = sowing_state(state);
  search::MctsOptions options;
  options.threads = threads;
  options.eval_leaf = eval_leaf;
  options.reuse_tree = false;
  eval::SowingEval eval(s.rules());
  search::Mcts<sowing::State> mcts(options, [eval](const sowing::State& x) { return eval(x); });
  const double cpu_start = cpu_seconds();
  const auto r = mcts.search(s, 0, seconds);
  return {r.simulations, r.seconds, cpu_seconds() - cpu_start, r.depth};
}

Proof prove(const AnyState& state, double seconds) {
  const sowing::State& s = sowing_state(state);
  if (s.ends_on_cycle())
    throw VariantError("the prover does not follow repetitions; " + s.rules().name +
                       " ends on cycles, so it cannot be proved this way");
  search::Prover<sowing::State, eval::SowingMarginBounds, eval::SowingEval> prover(
      {}, eval::SowingEval(s.rules()), 1024);
  const Player me = s.to_move();
  Proof p;
  p.low = eval::SowingMarginBounds{}.lower(s, me);
  p.high = eval::SowingMarginBounds{}.upper(s, me);
  const auto start = std::chrono::steady_clock::now();
  auto left = [&] {
    if (seconds <= 0) return 0.0;
    return std::max(
        1e-3,
        seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  // Win (margin >= 1)? Else draw or better (margin >= 0)?
  search::Prover<sowing::State, eval::SowingMarginBounds, eval::SowingEval>::Stats st;
  if (auto win = prover.at_least(s, me, 1, left(), &st)) {
    p.nodes += st.nodes;
    if (*win) {
      p.low = std::max(p.low, 1);
      p.decided = true;
    } else {
      p.high = std::min(p.high, 0);
      auto draw = prover.at_least(s, me, 0, left(), &st);
      p.nodes += st.nodes;
      if (draw) {
        p.decided = true;
        if (*draw)
          p.low = std::max(p.low, 0);
        else
          p.high = -1;
      }
    }
  } else {
    p.nodes += st.nodes;
  }
  // Then the margin, by halving [low, high].
  while (p.decided && p.low < p.high && (seconds <= 0 || left() > 1e-3)) {
    const int mid = p.low + (p.high - p.low + 1) / 2;
    auto answer = prover.at_least(s, me, mid, left(), &st);
    p.nodes += st.nodes;
    if (!answer) break;
    if (*answer)
      p.low = mid;
    else
      p.high = mid - 1;
  }
  p.exact = p.low == p.high;
  p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return p;
}

}  // namespace naqala::engine
