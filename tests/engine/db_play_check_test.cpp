// The end-of-game accuracy check (engine/db_play_check.h) on a small Oware database: the
// engine with the database probe plays an optimal move in every position the referee settles,
// and the check does catch a player that does not (random moves).
#include "engine/db_play_check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "games/registry.h"
#include "games/sowing/rules_toml.h"
#include "sanitized.h"

namespace naqala::engine {
namespace {

// A database file of its own (ctest runs tests in parallel processes).
struct TempDb {
  std::string path;
  template <class Db>
  explicit TempDb(const Db& db) {
    char name[] = "/tmp/naqala_db_play_check_XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd >= 0) ::close(fd);
    path = name;
    db.save(path);
  }
  ~TempDb() { std::remove(path.c_str()); }
};

std::shared_ptr<const sowing::Rules> oware_rules() {
  for (const auto& p : sowing::presets())
    if (p.name == "oware") return sowing::load_rules(p.toml, "preset oware", {});
  throw std::runtime_error("no oware preset");
}

TEST(DbPlayCheck, TheEngineWithTheDatabasePlaysOptimallyAndRandomMovesDoNot) {
  const auto game = make_game("oware");
  const auto db = solve::SowingDb::build(*oware_rules(), 6, {});
  const TempDb file(db);
  PlayCheckOptions o;
  o.positions = naqala::testing::workload(40, 12);
  o.referee_nodes = 200'000;
  auto engine = make_engine(*game, "alphabeta:db=" + file.path + ",nodes=20000");
  const PlayCheck r = check_play(*game, *engine, db, o);
  EXPECT_EQ(r.checked, o.positions);
  EXPECT_EQ(r.optimal, r.checked);
  EXPECT_EQ(r.result_kept, r.checked);
  EXPECT_TRUE(r.misses.empty());

  auto random = make_engine(*game, "random:seed=3");
  const PlayCheck bad = check_play(*game, *random, db, o);
  EXPECT_EQ(bad.checked, o.positions);
  EXPECT_LT(bad.optimal, bad.checked);
  ASSERT_FALSE(bad.misses.empty());
  int worse = 0;
  for (const auto& m : bad.misses) worse += m.proven_worse();
  EXPECT_GT(worse, 0);
}

// The engine protocol's `go` (Engine::think) plays from the database at the root as a game move
// does: a search of one ply proves nothing here, the database search under it does.
TEST(DbPlayCheck, ThinkPlaysFromTheDatabaseAtTheRoot) {
  const auto game = make_game("oware");
  const auto db = solve::SowingDb::build(*oware_rules(), 6, {});
  const TempDb file(db);
  // South loses by 4 whatever he does; "4" and "6" lose no more (naqala solve oware).
  const auto state = game->from_position("0,0,0,1,0,1/0,1,0,0,0,1/22,22/S");
  auto engine = make_engine(*game, "alphabeta:db=" + file.path + ",depth=1");
  const Analysis a = engine->think(*state, {});
  EXPECT_TRUE(a.proven);
  EXPECT_EQ(a.value, -1004.0);
  EXPECT_TRUE(a.best_move == "4" || a.best_move == "6") << a.best_move;
  auto plain = make_engine(*game, "alphabeta:depth=1");
  EXPECT_FALSE(plain->think(*state, {}).proven);
}

// The root's database search may spend what a node-limited search may: this position needs about
// 380,000 nodes of it (naqala solve oware --db ...), more than the 200,000 a depth- or
// lightly node-limited engine gets.
TEST(DbPlayCheck, TheRootProofGetsTheSearchsNodeBudget) {
  const auto game = make_game("oware");
  const auto db = solve::SowingDb::build(*oware_rules(), 6, {});
  const TempDb file(db);
  // North wins by 8 at best, with "3" alone.
  const auto state = game->from_position("0,1,0,1,0,0/2,0,1,0,0,0/20,23/N");
  auto engine = make_engine(*game, "alphabeta:db=" + file.path + ",nodes=500000");
  const Analysis a = engine->think(*state, {});
  EXPECT_TRUE(a.proven);
  EXPECT_EQ(a.value, 1008.0);
  EXPECT_EQ(a.best_move, "3");
  EXPECT_EQ(engine->choose_move(*state), "3");
  auto small = make_engine(*game, "alphabeta:db=" + file.path + ",nodes=1000");
  EXPECT_FALSE(small->think(*state, {}).proven);
}

// Kalah: the referee (the solver on a 6-seed database) agrees with a 10-seed database on
// positions past its own, where the engine with that database plays from it at the root; random
// moves are caught.
TEST(DbPlayCheck, KalahEngineWithItsDatabaseIsOptimalPastTheReferees) {
  const auto game = make_game("kalah");
  const solve::KalahRules rules;
  const auto small = solve::EndgameDb::build(rules, 6, 1);
  const TempDb file(solve::EndgameDb::build(rules, 10, 1));
  PlayCheckOptions o;
  o.positions = naqala::testing::workload(40, 12);
  o.max_seeds = 10;
  auto engine = make_engine(*game, "alphabeta:db=" + file.path + ",nodes=1000");
  const PlayCheck r = check_play_kalah(*game, *engine, small, o);
  EXPECT_EQ(r.checked, o.positions);
  EXPECT_EQ(r.optimal, r.checked);
  EXPECT_EQ(r.unsettled, 0);
  EXPECT_TRUE(r.misses.empty());

  auto random = make_engine(*game, "random:seed=3");
  const PlayCheck bad = check_play_kalah(*game, *random, small, o);
  EXPECT_EQ(bad.checked, o.positions);
  ASSERT_FALSE(bad.misses.empty());
  for (const auto& m : bad.misses) {
    EXPECT_TRUE(m.proven_worse()) << m.position;  // the solver settles every move
    EXPECT_FALSE(m.optimal_moves.empty());
  }
  EXPECT_EQ(bad.optimal + static_cast<int>(bad.misses.size()), bad.checked);
}

}  // namespace
}  // namespace naqala::engine
