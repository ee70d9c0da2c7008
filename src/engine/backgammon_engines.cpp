// Backgammon's engines. level:N and net:... are the neural engine (backgammon_net_engine.h:
// n-ply search over the networks); alphabeta:... is the older hand-written player, checker
// plays by expectiminimax over eval::BackgammonEval (Star1 pruning at the chance nodes), cube
// actions by the cube rules (eval/backgammon_cube.h) fed with the hand-written evaluation.
#include <cstdio>
#include <memory>

#include "engine/backgammon_net_engine.h"
#include "engine/engine_family.h"
#include "eval/backgammon_eval.h"
#include "eval/backgammon_heuristic.h"

namespace naqala::engine {

namespace {

// The alpha-beta levels of the older player, kept for `alphabeta:` only (level:N is the neural
// engine's): 1-ply with less and less noise, then 2-ply (depth 3) and deeper.
constexpr LevelTable kBackgammonLevels = {{
    {1, 0.30, 5, 1},
    {1, 0.15, 5, 1},
    {1, 0.08, 5, 1},
    {1, 0.04, 5, 1},
    {1, 0.02, 5, 1},
    {1, 0, 5, 1},
    {3, 0.01, 5, 1},
    {3, 0, 5, 1},
    {3, 0, 10, 2},
    {0, 0, 5, 2},
}};

class BackgammonEngine : public AlphaBetaEngine<backgammon::State, eval::BackgammonEval> {
 public:
  BackgammonEngine(std::string name, AlphaBetaConfig config)
      : AlphaBetaEngine(std::move(name), eval::BackgammonEval{}, config) {}
  std::string choose_move(const AnyState& state) override {
    const auto& s = typed_state<backgammon::State>(state, name());
    if (s.phase() != backgammon::Phase::Moving || s.resignation_offered())
      return s.format_move(bgheuristic::choose_move(s).move);
    return AlphaBetaEngine::choose_move(state);
  }
  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    const auto& s = typed_state<backgammon::State>(state, name());
    if (s.phase() != backgammon::Phase::Moving || s.resignation_offered())
      return s.format_move(bgheuristic::choose_move(s).move);
    return AlphaBetaEngine::choose_move_on_clock(state, clock);
  }
  Analysis think(const AnyState& state, const SearchRequest& request) override {
    const auto& s = typed_state<backgammon::State>(state, name());
    if (s.phase() != backgammon::Phase::Moving || s.resignation_offered()) {
      Analysis a;
      a.best_move = s.format_move(bgheuristic::choose_move(s).move);
      a.pv = {a.best_move};
      return a;
    }
    return AlphaBetaEngine::think(state, request);
  }
};

// The neural engine's `net:` spec: plies=0..3, noise=X, keep=K0/K1 (move filters),
// evals=N (evaluation budget), time=S (guard), threads=T, cube=P (plies of cube decisions),
// seed=S.
NetEngineConfig net_config(const EngineSpec& spec) {
  check_keys(spec, {"plies", "noise", "keep", "evals", "time", "threads", "cube", "seed"});
  NetEngineConfig c = backgammon_level(6);
  c.search.plies = static_cast<int>(whole(spec, "plies", 0, 0, 3));
  c.search.noise = static_cast<float>(number(spec, "noise", 0, 0, 10));
  if (auto it = spec.options.find("keep"); it != spec.options.end()) {
    int k0 = 0, k1 = 0;
    char slash = 0;
    if (std::sscanf(it->second.c_str(), "%d%c%d", &k0, &slash, &k1) != 3 || slash != '/' ||
        k0 < 1 || k1 < 1 || k0 > 64 || k1 > 64)
      bad_spec(spec, "keep=" + it->second + " must be two counts 1..64 as K0/K1 (e.g. keep=8/2)");
    c.search.filters = {{k0, 0.16f}, {k1, 0.04f}};
  }
  c.search.max_evaluations = whole(spec, "evals", 0, 0, ~0ULL);
  c.search.seconds = number(spec, "time", 30, 0, 86400);
  c.search.threads = static_cast<int>(whole(spec, "threads", 1, 1, 64));
  c.cube_plies = static_cast<int>(whole(spec, "cube", 0, 0, 2));
  c.search.seed = whole(spec, "seed", 1, 0, ~0ULL);
  return c;
}

std::unique_ptr<Engine> make(const AnyGame&, const EngineSpec& spec) {
  if (spec.kind == "level") {
    check_keys(spec, {"level", "seed"});
    NetEngineConfig c = backgammon_level(static_cast<int>(whole(spec, "level", 5, 1, 10)));
    c.search.seed = seed_option(spec);
    return make_backgammon_net_engine(spec.text, c);
  }
  if (spec.kind == "net") return make_backgammon_net_engine(spec.text, net_config(spec));
  if (spec.kind == "mcts")
    bad_spec(spec,
             "the backgammon engines are level:N, net and alphabeta (MCTS is not offered for "
             "backgammon)");
  AlphaBetaConfig base;
  base.options.hash_mb = 16;
  base.options.eval_ordering_depth = 99;  // ordering by a look costs a full evaluation per move
  return std::make_unique<BackgammonEngine>(
      spec.text, search_config(spec, base, kBackgammonLevels, {0, 3, 0}, false));
}

const LevelTable& levels(const AnyGame&) {
  return kBackgammonLevels;
}

}  // namespace

EngineFamily backgammon_engines() {
  return {"backgammon", make, levels, backgammon_level_text, {"net"}};
}

}  // namespace naqala::engine
