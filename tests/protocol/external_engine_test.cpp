// The arena with outside programs over the engine protocol: a match against a second naqala
// process, and scripted engines that crash, hang or play an illegal move (each loses its
// games, logged with the position, and the match goes on).
#include "protocol/external_engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "engine/arena.h"
#include "games/registry.h"
#include "scratch_dir.h"

namespace naqala::protocol {
namespace {

using ::testing::HasSubstr;

engine::ArenaOptions match(const std::string& variant, const std::string& a, const std::string& b,
                           int games, ExternalOptions external) {
  engine::ArenaOptions o;
  o.variant = variant;
  o.engines = {a, b};
  o.games = games;
  o.seed = 7;
  o.make_engine = [external](const AnyGame& game,
                             const std::string& spec) -> std::unique_ptr<engine::Engine> {
    if (spec.rfind("cmd:", 0) == 0)
      return std::make_unique<ExternalEngine>(game, spec.substr(4), external);
    return engine::make_engine(game, spec);
  };
  return o;
}

// A shell script that speaks the handshake and then does `on_go` when asked to move.
std::string script(const naqala::testing::ScratchDir& dir, const std::string& name,
                   const std::string& on_go) {
  const std::string path = dir / (name + ".sh");
  std::ofstream(path) << "#!/bin/sh\n"
                         "while read line; do\n"
                         "  case \"$line\" in\n"
                         "    uci) echo 'id name "
                      << name
                      << "'; echo uciok;;\n"
                         "    isready) echo readyok;;\n"
                         "    go*) "
                      << on_go
                      << ";;\n"
                         "    quit) exit 0;;\n"
                         "  esac\n"
                         "done\n";
  chmod(path.c_str(), 0755);
  return path;
}

TEST(ExternalEngines, ArenaPlaysASecondNaqalaProcess) {
  ExternalOptions external;
  external.movetime = 0.02;
  const auto o = match("kalah", std::string("cmd:") + NAQALA_BIN + " engine kalah --engine level:3",
                       "level:1", 4, external);
  const auto r = engine::run_arena(o);
  ASSERT_EQ(r.games, 4);
  for (const auto& g : r.results) {
    EXPECT_TRUE(g.failure.empty()) << g.failure;
    EXPECT_GT(g.plies, 5);
  }
  EXPECT_EQ(r.wins + r.draws + r.losses, 4);
}

TEST(ExternalEngines, OwareAgainstANaqalaProcess) {
  // A naqala engine offers its Notation option, so the arena speaks naqala's notation to it.
  ExternalOptions external;
  external.movetime = 0.02;
  const auto o = match("oware", std::string("cmd:") + NAQALA_BIN + " engine oware --engine level:2",
                       "random:seed=3", 2, external);
  const auto r = engine::run_arena(o);
  for (const auto& g : r.results) EXPECT_TRUE(g.failure.empty()) << g.failure;
}

void expect_failures(const engine::ArenaResult& r, const std::string& kind,
                     const std::string& detail) {
  ASSERT_EQ(r.games, 4);  // the match went on after each failure
  EXPECT_EQ(r.losses, 4);
  for (const auto& g : r.results) {
    EXPECT_EQ(g.end, kind);
    EXPECT_THAT(g.failure, HasSubstr(detail));
    EXPECT_THAT(g.failure, HasSubstr("(position "));
  }
}

TEST(ExternalEngines, ACrashLosesTheGame) {
  const naqala::testing::ScratchDir scratch;
  const auto r = engine::run_arena(
      match("kalah", "cmd:" + script(scratch, "crash", "exit 3"), "random:seed=1", 4, {}));
  expect_failures(r, "crash", "exited with status 3");
}

TEST(ExternalEngines, AHangLosesTheGame) {
  const naqala::testing::ScratchDir scratch;
  ExternalOptions external;
  external.movetime = 0.05;
  external.grace_seconds = 0.5;  // the hang guard
  const auto r = engine::run_arena(
      match("kalah", "cmd:" + script(scratch, "hang", ":"), "random:seed=1", 4, external));
  expect_failures(r, "hang", "gave no 'bestmove'");
}

TEST(ExternalEngines, AnIllegalMoveLosesTheGame) {
  const naqala::testing::ScratchDir scratch;
  const auto r = engine::run_arena(match(
      "kalah", "cmd:" + script(scratch, "illegal", "echo 'bestmove 9'"), "random:seed=1", 4, {}));
  expect_failures(r, "illegal move", "played '9'");
}

TEST(ExternalEngines, AMissingProgramIsACrash) {
  const auto r =
      engine::run_arena(match("kalah", "cmd:/nonexistent/engine", "random:seed=1", 4, {}));
  expect_failures(r, "crash", "status 127");
}

TEST(ExternalEngines, SpeaksTheAualeFormToProgramsWithoutNaqalaNotation) {
  // A program in Aualé's style (no Notation option): it logs each position it is sent and
  // answers South's pit 1, 'A'.
  const naqala::testing::ScratchDir scratch;
  const std::string log = scratch / "auale_log.txt";
  const std::string p = scratch / "auale2.sh";
  std::ofstream(p) << "#!/bin/sh\n"
                      "while read line; do\n"
                      "  case \"$line\" in\n"
                      "    uci) echo 'id name auale-style'; echo uciok;;\n"
                      "    isready) echo readyok;;\n"
                      "    position*) echo \"$line\" >> "
                   << log
                   << ";;\n"
                      "    go*) echo 'bestmove A';;\n"
                      "    quit) exit 0;;\n"
                      "  esac\n"
                      "done\n";
  chmod(p.c_str(), 0755);
  auto game = make_game("oware");
  ExternalEngine e(*game, p);
  auto state = game->new_game();
  engine::GameHistory history{state->position(), {}};
  engine::SearchRequest request;
  request.history = &history;
  EXPECT_EQ(e.think(*state, request).best_move, "1");
  EXPECT_TRUE(e.auale());
  state->play("3");
  state->play("2");
  history.moves = {"3", "2"};
  EXPECT_EQ(e.think(*state, request).best_move, "1");
  std::ifstream in(log);
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_EQ(first, "position startpos");
  EXPECT_EQ(second, "position startpos moves Cb");
}

}  // namespace
}  // namespace naqala::protocol
