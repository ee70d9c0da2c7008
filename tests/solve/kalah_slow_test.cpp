// Longer proofs from the start (label `slow`). The margins are this solver's; the first
// player's win is what the literature also reports for these boards.
#include <gtest/gtest.h>

#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"
#include "solve/kalah_db.h"
#include "solve/kalah_solver.h"

namespace naqala::solve {
namespace {

TEST(SolverSlow, ProvesKalah5x4FromTheStart) {
  const auto rules = sowing::load_rules(
      "name = \"kalah_5x4\"\n[board]\npits = 5\nseeds = 4\n[sowing]\nstores = \"own\"\n"
      "[capture]\nkind = \"opposite\"\n[turn]\nextra_turn = true\n[end]\nrow_empty = "
      "\"immediate\"\nremaining = \"owner\"\n",
      "test", {});
  const KalahRules kr = kalah_rules(*rules);
  const auto db = EndgameDb::build(kr, 14, 2);
  Solver solver(kr, rules->total_seeds, &db, 256);
  const auto p = prove_margin(sowing::State::initial(*rules), solver, 0);
  ASSERT_TRUE(p.exact());
  EXPECT_EQ(p.low, 10);
  EXPECT_FALSE(p.best_move.empty());
}

}  // namespace
}  // namespace naqala::solve
