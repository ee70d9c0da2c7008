// Kalah played exactly where it can be (engine/sowing_engines.cpp): an alpha-beta engine with a
// time per move proves the root with the Kalah solver, and one given a Kalah database answers
// from it at the root and inside its search. The referee is the solver alone, without limits.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/error.h"
#include "engine/engine.h"
#include "games/registry.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "solve/kalah_db.h"
#include "solve/kalah_solver.h"

namespace naqala::engine {
namespace {

const sowing::State& sowing_of(const AnyState& s) {
  return dynamic_cast<const TypedState<sowing::State>&>(s).typed();
}

// The exact final margin of the player to move, by the solver with no time limit.
int solved_margin(const sowing::State& s) {
  const solve::KalahRules rules = solve::kalah_rules(s.rules());
  solve::Solver solver(rules, s.rules().total_seeds, nullptr, 16);
  const auto p = solve::prove_margin(s, solver, 0);
  EXPECT_TRUE(p.exact());
  return p.low;
}

// The engine's move keeps the solved margin: the margin after it, for the same player.
void expect_optimal(const AnyState& state, const std::string& move) {
  const sowing::State& s = sowing_of(state);
  sowing::State child = s;
  child.play(*s.parse_move(move));
  const Player me = s.to_move();
  int after = child.store(me) - child.store(opponent(me));
  if (!child.is_over())
    after = child.to_move() == me ? solved_margin(child) : -solved_margin(child);
  EXPECT_EQ(after, solved_margin(s)) << state.position() << " " << move;
}

// 23 seeds in the pits: the solver proves it in about 0.2 s, the search alone in about 3 s.
constexpr const char* kPosition = "3,2,3,1,0,2/1,2,4,3,0,2/13,12/S";

TEST(KalahProof, ATimedEngineProvesTheRootAndPlaysAnOptimalMove) {
  const auto game = make_game("kalah");
  const auto state = game->from_position(kPosition);
  // The time is only a hang guard: a quarter of it is the proof's share.
  const auto engine = make_engine(*game, "alphabeta:time=600");
  const Analysis a = engine->think(*state, {});
  EXPECT_TRUE(a.proven);
  EXPECT_EQ(a.depth, 0);  // the solver's answer: no search iteration ran
  const int margin = solved_margin(sowing_of(*state));
  EXPECT_DOUBLE_EQ(a.value, margin > 0 ? 1000.0 + margin : margin < 0 ? -1000.0 + margin : 0.0);
  expect_optimal(*state, a.best_move);
  // A depth or node limit keeps the search alone (its games replay move for move), in the
  // spec or in the request (the Python module's best_moves(..., nodes=N)).
  EXPECT_FALSE(make_engine(*game, "alphabeta:depth=1")->think(*state, {}).proven);
  SearchRequest nodes;
  nodes.limits.nodes = 2000;
  EXPECT_FALSE(make_engine(*game, "alphabeta")->think(*state, nodes).proven);
}

struct TempFile {
  std::string path;
  TempFile() {
    char name[] = "/tmp/naqala_kalah_proof_XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd >= 0) ::close(fd);
    path = name;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

TEST(KalahProof, ADatabaseAnswersAtTheRootAndInTheSearch) {
  const auto game = make_game("kalah");
  const auto state = game->from_position("2,0,3,0,0,0/1,2,0,2,0,0/19,19/S");  // 10 seeds
  TempFile file;
  solve::EndgameDb::build(solve::KalahRules{}, 10, 1).save(file.path);
  const auto engine = make_engine(*game, "alphabeta:depth=1,db=" + file.path);
  const Analysis a = engine->think(*state, {});
  EXPECT_TRUE(a.proven);
  expect_optimal(*state, a.best_move);
  // 12 seeds, above the database: a deep enough search reaches it below the root.
  const auto wider = game->from_position("2,0,3,1,0,0/1,2,0,3,0,0/18,18/S");
  const Analysis b = engine->think(*wider, {});
  EXPECT_FALSE(b.proven);
  const Analysis deeper =
      make_engine(*game, "alphabeta:depth=9,db=" + file.path)->think(*wider, {});
  EXPECT_TRUE(deeper.proven);
  expect_optimal(*wider, deeper.best_move);

  // A database of other rules is refused, naming both.
  TempFile other;
  solve::EndgameDb::build(solve::KalahRules{.empty_capture = true}, 4, 1).save(other.path);
  try {
    make_engine(*game, "alphabeta:db=" + other.path);
    ADD_FAILURE() << "a database of other rules was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(other.path), std::string::npos) << e.what();
  }
}

// NAQALA_KALAH_DB set for one test, unset after it.
struct KalahDbVariable {
  explicit KalahDbVariable(const std::string& value) {
    ::setenv("NAQALA_KALAH_DB", value.c_str(), 1);
  }
  ~KalahDbVariable() { ::unsetenv("NAQALA_KALAH_DB"); }
};

TEST(KalahProof, AnInstalledDatabaseServesTheEnginesThatPlayTheirBestMove) {
  const auto game = make_game("kalah");
  const auto state = game->from_position("2,0,3,0,0,0/1,2,0,2,0,0/19,19/S");  // 10 seeds
  // Without a database a depth-limited engine searches alone: one ply proves nothing here.
  EXPECT_FALSE(make_engine(*game, "alphabeta:depth=1")->think(*state, {}).proven);
  TempFile file;
  solve::EndgameDb::build(solve::KalahRules{}, 10, 1).save(file.path);
  {
    const KalahDbVariable installed(file.path);
    for (const char* spec : {"alphabeta:depth=1", "level:10", "alphabeta:nodes=500"}) {
      const Analysis a = make_engine(*game, spec)->think(*state, {});
      EXPECT_TRUE(a.proven) << spec;
      expect_optimal(*state, a.best_move);
    }
    // A level's depth limit makes its games replay: it proves from the database only, never
    // beyond it against the clock, as a timed engine does (kPosition's 23 seeds: about 0.2 s).
    const auto wide = game->from_position(kPosition);
    EXPECT_FALSE(make_engine(*game, "level:8")->think(*wide, {}).proven);
    EXPECT_TRUE(make_engine(*game, "alphabeta:time=600")->think(*wide, {}).proven);
    // An engine with noise (the lower levels) plays as it did, without it.
    EXPECT_FALSE(make_engine(*game, "alphabeta:depth=1,noise=2")->think(*state, {}).proven);
    // kalah:seeds=6 has the same board: the database serves it too.
    const auto six = make_game("kalah:seeds=6");
    const auto late = six->from_position("2,0,3,0,0,0/1,2,0,2,0,0/31,31/S");
    EXPECT_TRUE(make_engine(*six, "alphabeta:depth=1")->think(*late, {}).proven);
  }
  {
    const KalahDbVariable none("none");
    EXPECT_FALSE(make_engine(*game, "alphabeta:depth=1")->think(*state, {}).proven);
  }
}

// The message of the Error that making `spec` for `variant` throws ("" if none).
std::string refusal(const std::string& variant, const std::string& spec) {
  try {
    make_engine(*make_game(variant), spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(KalahProof, ADamagedMissingOrForeignInstalledDatabaseIsRefusedByName) {
  TempFile file, damaged;
  solve::EndgameDb::build(solve::KalahRules{}, 6, 1).save(file.path);
  solve::EndgameDb::build(solve::KalahRules{}, 6, 1).save(damaged.path);
  {
    std::fstream f(damaged.path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096 + 100);
    f.put('\x7f');
  }
  {
    // Other rules: the database of `kalah` named for kalah:empty_capture=true.
    const KalahDbVariable installed(file.path);
    const std::string e = refusal("kalah:empty_capture=true", "alphabeta");
    EXPECT_NE(e.find("NAQALA_KALAH_DB"), std::string::npos) << e;
    EXPECT_NE(e.find("other Kalah rules"), std::string::npos) << e;
  }
  {
    const KalahDbVariable installed(damaged.path);
    const std::string e = refusal("kalah", "level:10");
    EXPECT_NE(e.find("checksum"), std::string::npos) << e;
    EXPECT_NE(e.find(damaged.path), std::string::npos) << e;
    EXPECT_NE(e.find("NAQALA_KALAH_DB"), std::string::npos) << e;
  }
  {
    const KalahDbVariable installed(file.path + ".missing");
    const std::string e = refusal("kalah", "alphabeta");
    EXPECT_NE(e.find(file.path + ".missing"), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace naqala::engine
