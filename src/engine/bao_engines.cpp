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
// up to 2 plies left, 3 seeds a ply: at 100,000 nodes a move +224 =0 -176 (Elo +42 +- 34)
// against the search without it, at 0.1 s +102 =0 -98 (+7 +- 48; docs/engines.md).
search::AlphaBetaOptions bao_search() {
  search::AlphaBetaOptions o;
  o.lmr_from_depth = 3;
  o.futility_depth = 2;
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
