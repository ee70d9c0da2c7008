// Backgammon's engines: checker plays by expectiminimax over eval::BackgammonEval (Star1
// pruning at the chance nodes), cube actions by the bot's cube rules (games/backgammon/bot.h).
#include <memory>

#include "engine/engine_family.h"
#include "eval/backgammon_eval.h"
#include "games/backgammon/bot.h"

namespace naqala::engine {

namespace {

// Levels 1-6 are 1-ply with less and less noise, then 2-ply (depth 3: the move, the opponent's
// cube turn, his roll and best reply) and, at level 10, deeper as time allows.
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
    if (s.phase() != backgammon::Phase::Moving)
      return s.format_move(backgammon::choose_move(s).move);
    return AlphaBetaEngine::choose_move(state);
  }
  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    const auto& s = typed_state<backgammon::State>(state, name());
    if (s.phase() != backgammon::Phase::Moving)
      return s.format_move(backgammon::choose_move(s).move);
    return AlphaBetaEngine::choose_move_on_clock(state, clock);
  }
  Analysis think(const AnyState& state, const SearchRequest& request) override {
    const auto& s = typed_state<backgammon::State>(state, name());
    if (s.phase() != backgammon::Phase::Moving) {
      Analysis a;
      a.best_move = s.format_move(backgammon::choose_move(s).move);
      a.pv = {a.best_move};
      return a;
    }
    return AlphaBetaEngine::think(state, request);
  }
};

std::unique_ptr<Engine> make(const AnyGame&, const EngineSpec& spec) {
  if (spec.kind == "mcts")
    bad_spec(spec,
             "the backgammon engines are level:N and alphabeta (MCTS is not offered for "
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
  return {"backgammon", make, levels};
}

}  // namespace naqala::engine
