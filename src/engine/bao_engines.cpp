// Bao's engines (bao, bao-kujifunza): alpha-beta over eval::BaoEval, and MCTS.
#include "engine/board4_search.h"
#include "engine/engine_family.h"
#include "eval/bao_eval.h"
#include "games/bao/bao.h"

namespace naqala::engine {

namespace {

// Depth, noise in seeds, time cap: the sowing games' ladder (docs/engines.md measures level 5
// against 1 and 8 against 5 on Bao); a table of its own goes here when it is retuned.
constexpr const LevelTable& kBaoLevels = kBoardLevels;

// Late move reductions from depth 3, as in the two-row games: at 20,000 nodes a move they
// scored +113 =0 -87 (Elo +45 +- 49) against the search without them. Reverse futility with
// up to 4 plies left, 3 seeds a ply: 2 plies scored +42 +- 34 at 100,000 nodes a move against
// the search without it, and 4 plies against 2 +45 +- 49 at 100,000 nodes and +220 =0 -180
// (Elo +35 +- 34, 400 games) at 0.1 s a move (docs/engines.md, "Reverse futility").
search::AlphaBetaOptions bao_search() {
  search::AlphaBetaOptions o;
  o.lmr_from_depth = 3;
  o.futility_depth = 4;
  o.futility_margin = 3 * search::kPoint;
  return o;
}

std::unique_ptr<Engine> make(const AnyGame& game, const EngineSpec& spec) {
  return make_board4_search<bao::State, eval::BaoEval>(game, spec, kBaoLevels, bao_search());
}

const LevelTable& levels(const AnyGame&) {
  return kBaoLevels;
}

}  // namespace

EngineFamily bao_engines() {
  return {"bao", make, levels};
}

}  // namespace naqala::engine
