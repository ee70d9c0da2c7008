// The engine protocol driven by a scripted client: the handshake, positions in both notations,
// searches with their info lines, stop and isready while thinking, and bad commands (a clear
// `info string error ...`, and the engine keeps running).
#include "protocol/engine_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "games/registry.h"

namespace naqala::protocol {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

struct Session {
  std::ostringstream out;
  EngineServer server;
  explicit Session(const std::string& variant, const std::string& engine = "level:3",
                   bool auale = false, bool synchronous = false)
      : server(ServerOptions{variant, engine, auale, synchronous}, out) {}
  // Sends the lines, waits for a running search, and returns every line answered so far.
  std::vector<std::string> run(const std::vector<std::string>& commands) {
    for (const auto& c : commands) server.handle(c);
    server.finish();
    std::vector<std::string> lines;
    std::istringstream in(out.str());
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }
};

std::string last_with(const std::vector<std::string>& lines, const std::string& prefix) {
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (it->rfind(prefix, 0) == 0) return *it;
  return "";
}

std::ptrdiff_t first_index(const std::vector<std::string>& lines, const std::string& prefix) {
  auto it = std::find_if(lines.begin(), lines.end(),
                         [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
  return it == lines.end() ? -1 : it - lines.begin();
}

// The move of a `bestmove` line.
std::string best(const std::vector<std::string>& lines) {
  const auto line = last_with(lines, "bestmove ");
  return line.empty() ? "" : line.substr(9);
}

TEST(EngineProtocol, HandshakeListsOptions) {
  Session s("kalah");
  const auto lines = s.run({"uci", "isready"});
  ASSERT_GE(lines.size(), 5u);
  EXPECT_THAT(lines[0], StartsWith("id name naqala"));
  EXPECT_THAT(lines[1], StartsWith("id author"));
  EXPECT_NE(first_index(lines, "option name Variant type string default kalah"), -1);
  EXPECT_NE(first_index(lines, "option name Engine type string default level:3"), -1);
  EXPECT_NE(first_index(lines, "option name Notation type combo"), -1);
  EXPECT_LT(first_index(lines, "option"), first_index(lines, "uciok"));
  EXPECT_EQ(lines.back(), "readyok");
}

TEST(EngineProtocol, SearchesAPositionWithInfoLines) {
  Session s("kalah");
  const auto lines = s.run({"ucinewgame", "position startpos moves 3 6", "go depth 4"});
  const std::string info = last_with(lines, "info depth 4 ");
  EXPECT_THAT(info, HasSubstr(" score cp "));
  EXPECT_THAT(info, HasSubstr(" nodes "));
  EXPECT_THAT(info, HasSubstr(" nps "));
  EXPECT_THAT(info, HasSubstr(" pv "));
  // The answer is a legal move of the position the moves lead to.
  auto state = make_game("kalah")->new_game();
  state->play("3");
  state->play("6");
  const auto legal = state->legal_moves();
  EXPECT_NE(std::find(legal.begin(), legal.end(), best(lines)), legal.end()) << best(lines);
}

TEST(EngineProtocol, ReadsAPositionText) {
  Session s("oware", "alphabeta:depth=3");
  // South captures 3 with his pit 6 (North's pit 1 holds 2) and reaches 25: he wins.
  const auto lines = s.run({"position text 1,0,0,0,0,1/2,0,0,1,0,0/22,21/S", "go"});
  EXPECT_EQ(best(lines), "6");
}

TEST(EngineProtocol, AnswersIsreadyAndStopWhileThinking) {
  Session s("oware", "alphabeta:depth=60");
  const auto lines = s.run({"position startpos", "go infinite", "isready", "stop"});
  const auto ready = first_index(lines, "readyok");
  const auto bestmove = first_index(lines, "bestmove ");
  ASSERT_NE(ready, -1);
  ASSERT_NE(bestmove, -1);
  EXPECT_LT(ready, bestmove);  // answered while the search ran
  const auto legal = make_game("oware")->new_game()->legal_moves();
  EXPECT_NE(std::find(legal.begin(), legal.end(), best(lines)), legal.end()) << best(lines);
}

TEST(EngineProtocol, KeepsPlayingMovesAcrossCommands) {
  // One process per match: the same server answers move after move.
  Session s("kalah", "level:2");
  s.run({"ucinewgame", "position startpos", "go"});
  const std::string first = best(s.run({}));
  const auto lines = s.run({"position startpos moves " + first, "go depth 2"});
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.rfind("bestmove", 0) == 0; }),
            2);
}

TEST(EngineProtocol, BadCommandsGetAnErrorAndTheEngineGoesOn) {
  Session s("oware", "level:2");
  const auto lines = s.run({"fly", "position startpos moves 3 9", "setoption name Speed value 3",
                            "setoption name Engine value turbo", "go depth x", "isready"});
  std::vector<std::string> errors;
  for (const auto& l : lines)
    if (l.rfind("info string error ", 0) == 0) errors.push_back(l);
  ASSERT_EQ(errors.size(), 5u) << ::testing::PrintToString(lines);
  EXPECT_THAT(errors[0], HasSubstr("unknown command 'fly'"));
  EXPECT_THAT(errors[1], HasSubstr("move 2 '9'"));
  EXPECT_THAT(errors[2], HasSubstr("unknown option 'speed'"));
  EXPECT_THAT(errors[3], HasSubstr("unknown engine 'turbo'"));
  EXPECT_THAT(errors[4], HasSubstr("'x' is not a whole number"));
  EXPECT_EQ(lines.back(), "readyok");
  // The refused `go` still answers, with no move; the bad position left the old one.
  EXPECT_EQ(best(lines), "0000");
  const auto after = s.run({"go depth 2"});
  const auto legal = make_game("oware")->new_game()->legal_moves();
  EXPECT_NE(std::find(legal.begin(), legal.end(), best(after)), legal.end());
}

// The fuzzer's mode (tests/fuzz/fuzz_engine_protocol.cpp): no thread, the answer written
// before handle() returns, the same answer as the threaded server's.
TEST(EngineProtocol, ASynchronousServerAnswersGoBeforeHandleReturns) {
  Session threaded("kalah", "alphabeta:depth=3");
  const auto expected = threaded.run({"position startpos moves 3", "go"});
  Session s("kalah", "alphabeta:depth=3", false, true);
  s.server.handle("position startpos moves 3");
  s.server.handle("go");
  EXPECT_THAT(s.out.str(), HasSubstr("bestmove " + best(expected) + "\n"));
  s.server.handle("go depth 2");  // idle again at once: not refused as a running search
  EXPECT_THAT(s.out.str(), Not(HasSubstr("while a search is running")));
  const auto lines = s.run({});
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.rfind("bestmove ", 0) == 0; }),
            2)
      << s.out.str();
}

TEST(EngineProtocol, ASynchronousServerRefusesGoInfinite) {
  Session s("oware", "random:seed=1", false, true);
  const auto lines = s.run({"position startpos", "go infinite", "isready"});
  EXPECT_THAT(last_with(lines, "info string error"),
              HasSubstr("go infinite: this engine searches synchronously"));
  EXPECT_EQ(best(lines), "0000");
  EXPECT_EQ(lines.back(), "readyok");
}

TEST(EngineProtocol, RefusesCommandsThatWouldChangeARunningSearch) {
  Session s("oware", "alphabeta:depth=60");
  const auto lines = s.run({"go infinite", "position startpos moves 3", "stop"});
  EXPECT_NE(first_index(lines, "info string error 'position' while a search is running"), -1);
}

TEST(EngineProtocol, SpeaksAualeLettersForOware) {
  Session s("oware", "level:2");
  // Aualé writes a game as one token; the answer comes back in the same form.
  const auto lines = s.run({"position startpos moves AbCd", "go depth 3"});
  const std::string move = best(lines);
  ASSERT_EQ(move.size(), 1u) << ::testing::PrintToString(lines);
  EXPECT_GE(move[0], 'A');
  EXPECT_LE(move[0], 'F');
  // A letter of the wrong side is refused.
  const auto bad = s.run({"position startpos moves AB"});
  EXPECT_THAT(last_with(bad, "info string error"), HasSubstr("South's pit 2 but North is to move"));
}

TEST(EngineProtocol, ReadsAualePositionsAndAnswersNoMoveWhenTheGameIsOver) {
  Session s("oware", "level:2", /*auale=*/true);
  auto lines = s.run({"position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-N", "go depth 2"});
  const std::string move = best(lines);
  ASSERT_EQ(move.size(), 1u);
  EXPECT_GE(move[0], 'a');
  EXPECT_LE(move[0], 'f');
  // 25 seeds captured: the game is over.
  lines = s.run({"position fen 0-0-0-0-0-1-2-0-0-0-0-0-25-20-S", "go"});
  EXPECT_EQ(best(lines), "0000");
}

TEST(EngineProtocol, BackgammonTakesRollsAmongTheMoves) {
  Session s("backgammon", "level:1");
  // The opening roll is a chance event: a `go` there has no move to give.
  auto lines = s.run({"position startpos", "go"});
  EXPECT_THAT(last_with(lines, "info string error"), HasSubstr("a dice roll is due"));
  EXPECT_EQ(best(lines), "0000");
  lines = s.run({"position startpos moves 3-1", "go"});
  const std::string move = best(lines);
  EXPECT_EQ(move.find(' '), std::string::npos);  // one token: commas for spaces
  auto state = make_game("backgammon")->new_game();
  state->apply_chance("3-1");
  const auto legal = state->legal_moves();
  std::string spaced = move;
  std::replace(spaced.begin(), spaced.end(), ',', ' ');
  EXPECT_NE(std::find(legal.begin(), legal.end(), spaced), legal.end()) << move;
  // The move then plays back through the protocol.
  lines = s.run({"position startpos moves 3-1 " + move + " roll 6-5", "go"});
  EXPECT_NE(best(lines), "0000");
}

TEST(EngineProtocol, QuitEndsTheSession) {
  std::ostringstream out;
  EngineServer server(ServerOptions{"kalah", "level:1", false}, out);
  EXPECT_TRUE(server.handle("isready"));
  EXPECT_FALSE(server.handle("quit"));
}

}  // namespace
}  // namespace naqala::protocol
