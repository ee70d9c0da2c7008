// The game analysis's endgame answer (server/perfect_play.h): won, drawn or lost with perfect
// play where a database holds the position, nothing where none does.
#include "server/perfect_play.h"

#include <gtest/gtest.h>

#include "games/registry.h"
#include "games/sowing/rules_toml.h"

namespace naqala::server {
namespace {

std::shared_ptr<const solve::SowingDb> oware_db(int seeds) {
  for (const auto& p : sowing::presets())
    if (p.name == "oware")
      return std::make_shared<const solve::SowingDb>(
          solve::SowingDb::build(*sowing::load_rules(p.toml, "preset oware", {}), seeds, {}));
  throw std::runtime_error("no oware preset");
}

TEST(PerfectPlay, SaysWonDrawnOrLostWhereADatabaseHoldsThePosition) {
  const std::vector dbs{oware_db(4)};
  const auto oware = make_game("oware");
  const auto drawn = perfect_play(*oware->from_position("0,1,0,0,0,0/0,0,0,0,1,0/22,24/S"), dbs);
  EXPECT_EQ(drawn["known"], true);
  EXPECT_EQ(drawn["result"], "drawn");
  EXPECT_EQ(drawn["to_move"], "south");
  EXPECT_EQ(drawn["exact"], true);
  EXPECT_EQ(drawn["optimal_moves"], nlohmann::json::array({"2"}));
  const auto won = perfect_play(*oware->from_position("0,0,0,1,1,0/0,1,0,0,0,0/21,24/N"), dbs);
  EXPECT_EQ(won["known"], true);
  EXPECT_EQ(won["result"], "won");
  EXPECT_EQ(won["to_move"], "north");
  EXPECT_EQ(won["margin_low"], 6);
  EXPECT_EQ(won["margin_high"], 6);
  EXPECT_EQ(won["best_move"], "2");

  // More seeds than the database holds, other rules, no database, another family: unknown.
  EXPECT_EQ(perfect_play(*oware->new_game(), dbs)["known"], false);
  const auto awale = make_game("awale");
  EXPECT_EQ(perfect_play(*awale->from_position("0,1,0,0,0,0/0,0,0,0,1,0/22,24/S"), dbs)["known"],
            false);
  EXPECT_EQ(perfect_play(*oware->from_position("0,1,0,0,0,0/0,0,0,0,1,0/22,24/S"), {})["known"],
            false);
  EXPECT_EQ(perfect_play(*make_game("kalah")->new_game(), dbs)["known"], false);
}

}  // namespace
}  // namespace naqala::server
