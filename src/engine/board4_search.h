#pragma once
// Bao and Omweso (the four-row boards): the same typed alpha-beta (and MCTS) over the family's
// own state, with the small evaluations of eval/bao_eval.h and eval/omweso_eval.h and the
// family's level table (depth, noise in seeds, time cap). Annulled games (endless sowing,
// Omweso's repeated positions and S0's impasse) end without a winner and score 0 in the
// search, as a draw.
#include <algorithm>
#include <memory>

#include "engine/engine_spec.h"
#include "eval/board4_trained_eval.h"
#include "games/any_game.h"

namespace naqala::engine {

// The evaluation the alpha-beta plays on `game` before a spec's weights=: the preset's trained
// evaluation (eval/board4_trained_eval.h) when the game is the preset as it is, or differs from
// it only by options the table serves (Eval::kTableSharedOptions), and the preset has one; under
// the same condition an evaluation with a network (Bao's) plays the one the preset names
// (Eval::played_net). Otherwise the linear weights.
template <class Eval>
Eval board4_played_eval(const AnyGame& game) {
  Eval eval;
  if (eval::preset_table_serves(game.spec(), game.info().name, Eval::kTableSharedOptions)) {
    if (const auto t = eval::board4_trained_eval(game.info().name, Eval::kFeatures)) {
      std::copy(t->weights.begin(), t->weights.end(), eval.weights.begin());
      eval.table = t->table;
    }
    if constexpr (requires { Eval::played_net(game.info().name); })
      eval.net = Eval::played_net(game.info().name);
  }
  return eval;
}

// `used`, when given, receives the alpha-beta's configuration (or the MCTS seed). The
// alpha-beta plays board4_played_eval; weights= then overrides its weights.
// `family`: the family's search options (late move reductions, reverse futility), which the
// spec's `lmr=`, `futility=` and `futility_margin=` override; the table is 64 MB.
template <class S, class Eval>
std::unique_ptr<Engine> make_board4_search(const AnyGame& game, const EngineSpec& spec,
                                           const LevelTable& levels,
                                           const search::AlphaBetaOptions& family,
                                           AlphaBetaConfig* used = nullptr) {
  if (spec.kind == "mcts") {
    const MctsConfig c = mcts_config(spec);
    if (used) used->seed = c.options.seed;
    return std::make_unique<MctsEngine<S>>(spec.text, c, [](const S& s) { return Eval{}(s); });
  }
  AlphaBetaConfig base;
  base.options = family;
  base.options.hash_mb = 64;
  const AlphaBetaConfig c = search_config(spec, base, levels, {1, 0, 0}, true);
  if (used) *used = c;
  Eval eval = board4_played_eval<Eval>(game);
  eval.weights = parse_weights(spec, eval.weights, Eval::kFeatureNames);
  return std::make_unique<AlphaBetaEngine<S, Eval>>(spec.text, eval, c);
}

}  // namespace naqala::engine
