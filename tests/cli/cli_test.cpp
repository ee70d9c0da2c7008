// The `naqala` command line as other tools drive it: exit codes, JSON fields, messages.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "run_naqala.h"
#include "scratch_dir.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using naqala::testing::naqala;

// `analyze backgammon --json` with NAQALA_BGNET naming `net`: the weight file loads and plays.
// The variable's earlier value, if the suite runs with one, is put back.
naqala::testing::Run analyze_with_net(const std::string& net) {
  const char* earlier = std::getenv("NAQALA_BGNET");
  const std::optional<std::string> saved =
      earlier ? std::optional<std::string>(earlier) : std::nullopt;
  setenv("NAQALA_BGNET", net.c_str(), 1);
  auto played = naqala("analyze backgammon --json");
  if (saved)
    setenv("NAQALA_BGNET", saved->c_str(), 1);
  else
    unsetenv("NAQALA_BGNET");
  return played;
}

TEST(Cli, BackgammonMovesKeepTheirStepsTogether) {
  // No ';' needed: "8/5 6/5" is one move, because two checker moves always have a roll
  // between them; the ';' list gives the same game.
  const auto spaced =
      naqala("state backgammon:cube=false --moves \"3-1 8/5 6/5 6-4 24/14\" --json");
  const auto listed =
      naqala("state backgammon:cube=false --moves \"3-1;8/5 6/5;6-4;24/14\" --json");
  ASSERT_EQ(spaced.status, 0) << spaced.out;
  ASSERT_EQ(listed.status, 0) << listed.out;
  EXPECT_EQ(nlohmann::json::parse(spaced.out)["position"],
            nlohmann::json::parse(listed.out)["position"]);
}

TEST(Cli, VariantsJson) {
  auto r = naqala("variants --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (auto& v : j)
    if (v["name"] == "kalah") {
      found = true;
      EXPECT_EQ(v["aliases"][0], "mancala");
      bool seeds = false;
      for (auto& o : v["options"])
        if (o["name"] == "seeds") {
          seeds = true;
          EXPECT_EQ(o["default"], "4");
          EXPECT_EQ(o["allowed"], (nlohmann::json{"3", "4", "5", "6"}));
        }
      EXPECT_TRUE(seeds);
    }
  EXPECT_TRUE(found);
}

TEST(Cli, StateJsonHasTheContractFields) {
  auto r = naqala("state kalah --moves \"3 6\" --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["variant"], "kalah");
  EXPECT_EQ(j["position"], "4,4,0,5,5,0/5,5,5,5,4,4/2,0/N");
  EXPECT_EQ(j["to_move"], "north");
  EXPECT_EQ(j["legal_moves"], (nlohmann::json{"1", "2", "3", "4", "5", "6"}));
  EXPECT_EQ(j["is_over"], false);
  EXPECT_TRUE(j["outcome"].is_null());
}

TEST(Cli, StateOfAFinishedGame) {
  auto r = naqala("state oware --position 3,0,0,0,0,0/0,0,0,0,0,1/22,22/N --moves 6 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["is_over"], true);
  EXPECT_EQ(j["outcome"]["winner"], "south");
  EXPECT_EQ(j["outcome"]["scores"], (nlohmann::json{26, 22}));
  EXPECT_EQ(j["outcome"]["reason"], "cannot_feed");
}

TEST(Cli, IllegalMoveNamesMoveIndexAndLegalMoves) {
  auto r = naqala("state kalah --moves \"3 6 7\"");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.out, HasSubstr("move 3 of --moves ('7')"));
  EXPECT_THAT(r.out, HasSubstr("legal moves: 1 2 3 4 5 6"));
  r = naqala("state kalah --moves \"3 3\"");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.out, HasSubstr("move 2 of --moves ('3')"));
  EXPECT_THAT(r.out, HasSubstr("not legal"));
}

TEST(Cli, BadVariantsExitWithStatusTwo) {
  auto r = naqala("state kalah:seeds=9");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.out, HasSubstr("allowed values: 3, 4, 5, 6"));
  r = naqala("rules nosuchgame");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.out, HasSubstr("known variants"));
  r = naqala("perft kalah --depth 0");
  EXPECT_EQ(r.status, 2);
  r = naqala("state");
  EXPECT_EQ(r.status, 2);
  r = naqala("frobnicate");
  EXPECT_EQ(r.status, 2);
}

TEST(Cli, PerftJson) {
  auto r = naqala("perft oware --depth 5 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["variant"], "oware");
  EXPECT_EQ(j["counts"], (nlohmann::json{6, 36, 190, 1014, 5219}));
  EXPECT_TRUE(j["seconds"].is_number());
  EXPECT_TRUE(j["nodes_per_second"].is_number());
}

TEST(Cli, BenchRandomJson) {
  auto r = naqala("bench random kalah --seconds 0.2 --threads 2 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"variant", "games", "plies", "seconds", "plies_per_second"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_GT(j["games"].get<long>(), 0);
}

TEST(Cli, RulesInPlainEnglish) {
  auto r = naqala("rules oware");
  ASSERT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("must make a move that gives him some"));
}

TEST(Cli, PlayTwoHumansThroughStdinAndSaveTheRecord) {
  const naqala::testing::ScratchDir scratch;
  const std::string rec = scratch / "game.txt";
  auto r = naqala("play kalah --south human --north human --save " + rec,
                  "help\n9\nfoo\n3\nundo\n3\n6\nquit\n");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Commands:"));
  EXPECT_THAT(r.out, HasSubstr("'9' is not a move"));
  auto st = naqala("state kalah --record " + rec + " --json");
  ASSERT_EQ(st.status, 0) << st.out;
  EXPECT_EQ(nlohmann::json::parse(st.out)["position"], "4,4,0,5,5,0/5,5,5,5,4,4/2,0/N");
}

TEST(Cli, PlayAgainstTheComputerToTheEnd) {
  auto r = naqala("play kalah:seeds=3 --south computer:1 --north computer:2");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Game over"));
}

// Congklak's simultaneous start: each human is asked for his pit in secret, a wrong pit is
// refused with the choices, then both halves are played as one lock-step move.
TEST(Cli, PlayAsksEachSideForHisHalfOfTheJointMove) {
  const naqala::testing::ScratchDir scratch;
  const std::string rec = scratch / "congklak.txt";
  auto r = naqala("play congklak --south human --north human --save " + rec, "3\n9\n5\nquit\n");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("south, choose your pit in secret [1 2 3 4 5 6 7]"));
  EXPECT_THAT(r.out, HasSubstr("'9' is not one of your pits here"));
  EXPECT_THAT(r.out, HasSubstr("Both sow at once: 3+5"));
  auto st = naqala("state congklak --record " + rec + " --json");
  ASSERT_EQ(st.status, 0) << st.out;
  EXPECT_EQ(nlohmann::json::parse(st.out)["board"]["phase"], "joint_extra");
  auto c = naqala("play congklak --south computer:1 --north human", "4\nquit\n");
  ASSERT_EQ(c.status, 0) << c.out;
  EXPECT_THAT(c.out, HasSubstr("south (computer, level 1) has chosen"));
  EXPECT_THAT(c.out, HasSubstr("Both sow at once: "));
}

// Help says how moves are written in the game being played, not in another family.
TEST(Cli, PlayHelpMatchesTheGame) {
  auto bg = naqala("play backgammon --south human --north human --seed 1", "help\nquit\n");
  ASSERT_EQ(bg.status, 0) << bg.out;
  EXPECT_THAT(bg.out, HasSubstr("24/18 13/11"));
  EXPECT_THAT(bg.out, HasSubstr("double"));
  EXPECT_THAT(bg.out, ::testing::Not(HasSubstr("pit")));
  auto bao = naqala("play bao --south human --north human", "help\nquit\n");
  ASSERT_EQ(bao.status, 0) << bao.out;
  EXPECT_THAT(bao.out, HasSubstr("f1< sows toward your own left"));
  auto kalah = naqala("play kalah --south human --north human", "help\nquit\n");
  EXPECT_THAT(kalah.out, HasSubstr("the number of one of your pits"));
  // Dice are spoken of only where there are dice.
  EXPECT_THAT(bg.out, HasSubstr("dice already rolled stay rolled"));
  EXPECT_THAT(kalah.out, ::testing::Not(HasSubstr("dice")));
  EXPECT_THAT(bao.out, ::testing::Not(HasSubstr("dice")));
}

// X stays South and O North on every board drawn, and the dice are announced by the board only.
TEST(Cli, BackgammonKeepsItsSymbolsAndAnnouncesARollOnce) {
  auto r = naqala("play backgammon --south computer:1 --north computer:1 --seed 5");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Game over"));
  EXPECT_THAT(r.out, HasSubstr("X: south"));
  EXPECT_THAT(r.out, HasSubstr("O: north"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("X: north")));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("O: south")));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("Roll: ")));
}

// Roll, undo, undo, roll: the same dice come back (undo never buys a new roll).
TEST(Cli, UndoNeverRerollsTheDice) {
  const std::string args = "play backgammon --south human --north human --seed 11";
  auto first = naqala(args, "quit\n");
  ASSERT_EQ(first.status, 0) << first.out;
  // The opening roll is played by whoever won it: his first legal move, from the prompt.
  const auto at = first.out.find(" to move [");
  ASSERT_NE(at, std::string::npos) << first.out;
  const std::string mover =
      first.out.substr(first.out.rfind('\n', at) + 1, at - first.out.rfind('\n', at) - 1);
  const auto list = first.out.substr(at + 10);
  const std::string move = list.substr(0, list.find_first_of(",]"));
  const std::string other = mover == "south" ? "north" : "south";
  auto r = naqala(args, move + "\nroll\nundo\nundo\n" + move + "\nroll\nquit\n");
  ASSERT_EQ(r.status, 0) << r.out;
  std::vector<std::string> rolls;
  const std::string key = other + " rolled ";
  for (auto k = r.out.find(key); k != std::string::npos; k = r.out.find(key, k + 1))
    rolls.push_back(r.out.substr(k + key.size(), 3));
  ASSERT_EQ(rolls.size(), 2u) << r.out;
  EXPECT_EQ(rolls[0], rolls[1]);
}

// Omweso's setup: a whole row in one line, as moves or as bare counts; a bad count plays nothing.
TEST(Cli, OmwesoSetupTakesARowInOneLine) {
  const naqala::testing::ScratchDir scratch;
  const std::string rec = scratch / "omweso.txt";
  auto r = naqala("play omweso --south human --north human --save " + rec,
                  "4 4 4 4 4 4 4 99\na1=0 b1=4\n4 4 4 4 4 4\nquit\n");
  ASSERT_EQ(r.status, 0) << r.out;
  auto st = naqala("state omweso --record " + rec + " --json");
  ASSERT_EQ(st.status, 0) << st.out;
  const auto j = nlohmann::json::parse(st.out);
  EXPECT_EQ(j["board"]["south"]["front"], (nlohmann::json{0, 4, 4, 4, 4, 4, 4, 4}));
  EXPECT_EQ(j["board"]["setup"], "a2");
}

// Rules wrapped to the width asked (COLUMNS when the output is not a terminal).
TEST(Cli, RulesAreWrappedToTheTerminal) {
  const std::string cmd = std::string("COLUMNS=50 ") + NAQALA_BIN + " rules oware 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (auto n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  ASSERT_EQ(WEXITSTATUS(pclose(p)), 0) << out;
  std::istringstream lines(out);
  int prose = 0;
  for (std::string line; std::getline(lines, line);) {
    const bool drawn = line.find('|') != std::string::npos ||
                       line.find("--") != std::string::npos ||
                       line.find("  ", line.find_first_not_of(' ')) != std::string::npos;
    if (drawn) continue;
    ++prose;
    EXPECT_LE(line.size(), 50u) << line;
  }
  EXPECT_GT(prose, 5);
}

// A log (stderr not a terminal) gets whole lines, no carriage returns.
TEST(Cli, ArenaProgressInALogHasNoCarriageReturns) {
  auto r = naqala("arena kalah:seeds=3 --engine level:1 --engine level:2 --games 10");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find('\r'), std::string::npos) << r.out;
  EXPECT_THAT(r.out, HasSubstr("10/10 games\n"));
}

TEST(Cli, UserVariantFileWorksWherePresetsDo) {
  auto r = naqala(std::string("perft ") + NAQALA_SOURCE_DIR +
                  "/docs/examples/village-kalah.toml --depth 2 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["counts"][0], 6);
}

}  // namespace

namespace {

// `naqala solve`: the database answers a 10-seed board directly; the search with a 4-seed
// database must agree, and so must a database built to a file and read back.
TEST(Cli, SolveAgreesWithItsDatabase) {
  const std::string position = "\"0,0,0,1,2,3/1,0,2,0,0,1/20,18/S\"";
  auto direct = naqala("solve kalah --position " + position + " --db-seeds 10 --json");
  ASSERT_EQ(direct.status, 0) << direct.out;
  const auto d = nlohmann::json::parse(direct.out);
  EXPECT_TRUE(d["exact"].get<bool>());
  EXPECT_TRUE(d["decided"].get<bool>());
  EXPECT_EQ(d["margin_low"], d["margin_high"]);
  EXPECT_EQ(d["to_move"], "south");
  EXPECT_FALSE(d["best_move"].get<std::string>().empty());

  auto searched = naqala("solve kalah --position " + position + " --db-seeds 4 --json");
  ASSERT_EQ(searched.status, 0) << searched.out;
  EXPECT_EQ(nlohmann::json::parse(searched.out)["margin_low"], d["margin_low"]);

  const naqala::testing::ScratchDir scratch;
  const std::string file = scratch / "cli_kalah.db";
  auto built = naqala("solve kalah --build-db 6 --db " + file);
  ASSERT_EQ(built.status, 0) << built.out;
  EXPECT_THAT(built.out, HasSubstr("wrote " + file));
  // What it costs is said first, then the progress level by level.
  EXPECT_THAT(built.out, HasSubstr("MiB in memory and on disk"));
  EXPECT_THAT(built.out, HasSubstr("database: 6/6 seeds done"));
  auto loaded = naqala("solve kalah --position " + position + " --db " + file + " --json");
  ASSERT_EQ(loaded.status, 0) << loaded.out;
  EXPECT_EQ(nlohmann::json::parse(loaded.out)["margin_low"], d["margin_low"]);
  // A database of other rules is refused.
  auto other = naqala("solve kalah:empty_capture=true --position " + position + " --db " + file);
  EXPECT_EQ(other.status, 2);
  EXPECT_THAT(other.out,
              HasSubstr("was built for other Kalah rules than kalah:empty_capture=true"));

  // Without --db, solve and analyze --prove read the installed database (here the one
  // NAQALA_KALAH_DB names); --db-seeds still asks for one built in memory, and `none` for none.
  ::setenv("NAQALA_KALAH_DB", file.c_str(), 1);
  auto installed = naqala("solve kalah --position " + position + " --json");
  ASSERT_EQ(installed.status, 0) << installed.out;
  const auto i = nlohmann::json::parse(installed.out);
  EXPECT_EQ(i["db"], file + " (named by NAQALA_KALAH_DB)");
  EXPECT_EQ(i["db_seeds"], 6);
  EXPECT_EQ(i["margin_low"], d["margin_low"]);
  auto text = naqala("solve kalah --position " + position);
  EXPECT_THAT(text.out, HasSubstr("database of 6 seeds: " + file));
  auto asked = naqala("solve kalah --position " + position + " --db-seeds 5 --json");
  ASSERT_EQ(asked.status, 0) << asked.out;
  EXPECT_EQ(nlohmann::json::parse(asked.out)["db"], "");
  EXPECT_EQ(nlohmann::json::parse(asked.out)["db_seeds"], 5);
  auto proved = naqala("analyze kalah --position " + position + " --prove --json");
  ASSERT_EQ(proved.status, 0) << proved.out;
  EXPECT_EQ(nlohmann::json::parse(proved.out)["margin_low"], d["margin_low"]);
  auto foreign = naqala("solve kalah:empty_capture=true --position " + position);
  EXPECT_EQ(foreign.status, 2);
  EXPECT_THAT(foreign.out, HasSubstr("named by NAQALA_KALAH_DB) was built for other Kalah rules"));
  ::setenv("NAQALA_KALAH_DB", (file + ".missing").c_str(), 1);
  auto missing = naqala("solve kalah --position " + position);
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.out, HasSubstr("NAQALA_KALAH_DB names it"));
  ::setenv("NAQALA_KALAH_DB", "none", 1);
  auto none = naqala("solve kalah --position " + position + " --json");
  ASSERT_EQ(none.status, 0) << none.out;
  EXPECT_EQ(nlohmann::json::parse(none.out)["db_seeds"], 14);
  ::unsetenv("NAQALA_KALAH_DB");
  std::remove(file.c_str());

  auto analyze = naqala("analyze kalah --position " + position + " --prove --json");
  ASSERT_EQ(analyze.status, 0) << analyze.out;
  EXPECT_EQ(nlohmann::json::parse(analyze.out)["margin_low"], d["margin_low"]);
}

TEST(Cli, SolveRefusesWhatItCannotDo) {
  auto toguz = naqala("solve toguz --build-db 4");
  EXPECT_EQ(toguz.status, 2);
  EXPECT_THAT(toguz.out, HasSubstr("cannot hold toguz"));
  auto missing = naqala("solve kalah --db /nonexistent/kalah.db");
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.out, HasSubstr("cannot open the database /nonexistent/kalah.db"));
  auto over = naqala("solve kalah --position \"0,0,0,0,0,0/1,0,2,0,0,1/25,19/S\"");
  EXPECT_EQ(over.status, 2) << over.out;
}

// `naqala solve oware`: a small database built to a file, its statistics, and a position
// solved with it (the fields of the public contract).
// --time stops a sowing database build (docs/solving.md): Oware's 30 million boards of up to
// 16 seeds take far longer than these limits on any machine.
TEST(Cli, SolveTimeStopsTheDatabaseBuild) {
  const naqala::testing::ScratchDir scratch;
  const std::string file = scratch / "stopped.db";
  auto built = naqala("solve oware --build-db 16 --time 0.5 --db " + file);
  EXPECT_EQ(built.status, 2) << built.out;
  EXPECT_THAT(built.out, HasSubstr("stopped at its time limit"));
  EXPECT_THAT(built.out, HasSubstr("kept in " + file + ".levels"));
  EXPECT_TRUE(std::filesystem::exists(file + ".levels/level-00.bin"));
  EXPECT_FALSE(std::filesystem::exists(file));
  // In memory for a solve: a third of --time, but never before level 0 is done (a machine too
  // busy for that one board in a third of a second still solves), then the search with the
  // levels done. No machine builds the 30 million boards in that third.
  auto solved = naqala("solve oware --db-seeds 16 --time 1 --json");
  ASSERT_EQ(solved.status, 0) << solved.out;
  const auto j = nlohmann::json::parse(solved.out);
  EXPECT_LT(j["db_seeds"].get<int>(), 16);
  EXPECT_TRUE(j.contains("margin_low"));
  // A third of --time spent before the first board (a very busy machine): level 0 still.
  auto spent = naqala("solve oware --db-seeds 16 --time 0.0001 --json");
  ASSERT_EQ(spent.status, 0) << spent.out;
  EXPECT_EQ(nlohmann::json::parse(spent.out)["db_seeds"], 0);
}

TEST(Cli, SolvesOwareWithItsDatabase) {
  const naqala::testing::ScratchDir scratch;
  const std::string file = scratch / "cli_oware.db";
  auto built = naqala("solve oware --build-db 6 --db " + file + " --json");
  ASSERT_EQ(built.status, 0) << built.out;
  EXPECT_EQ(nlohmann::json::parse(built.out)["width"], 2);
  auto stats = naqala("solve oware --db-stats --db " + file + " --json");
  ASSERT_EQ(stats.status, 0) << stats.out;
  EXPECT_EQ(nlohmann::json::parse(stats.out)["levels"].size(), 7u);
  // 4 seeds left, South to move: the database settles the result (a win), the search the rest.
  auto solved = naqala("solve oware --position \"0,0,0,0,1,1/1,0,0,0,0,1/22,22/S\" --db " + file +
                       " --time 3 --json");
  ASSERT_EQ(solved.status, 0) << solved.out;
  const auto j = nlohmann::json::parse(solved.out);
  for (const char* key : {"margin_low", "margin_high", "best_move", "exact", "verdict",
                          "optimal_moves", "decided", "nodes"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_LE(j["margin_low"].get<int>(), j["margin_high"].get<int>());
  EXPECT_TRUE(j["decided"].get<bool>());
  auto other = naqala("solve awale --position \"0,0,0,0,1,1/1,0,0,0,0,1/22,22/S\" --db " + file);
  EXPECT_EQ(other.status, 2);
  EXPECT_THAT(other.out, HasSubstr("the database is for other rules"));
  // The end-of-game accuracy check: its counts in JSON; without a database, or on Kalah, a
  // clear refusal.
  auto check = naqala("solve oware --check-play 5 --db " + file + " --engine alphabeta:db=" + file +
                      ",nodes=5000 --referee-nodes 50000 --json");
  ASSERT_EQ(check.status, 0) << check.out;
  const auto c = nlohmann::json::parse(check.out);
  EXPECT_EQ(c["checked"], 5);
  for (const char* key : {"optimal", "result_kept", "forced", "unsettled", "misses"})
    EXPECT_TRUE(c.contains(key)) << key;
  // A random mover misses; each miss is told on stderr as it is found (a long check stopped
  // early keeps them) and listed again with the result.
  auto random = naqala("solve oware --check-play 10 --db " + file +
                       " --engine random:seed=3 --referee-nodes 50000");
  ASSERT_EQ(random.status, 0) << random.out;
  const auto told = random.out.find("  miss: ");
  ASSERT_NE(told, std::string::npos) << random.out;
  const std::string first = random.out.substr(told + 8, random.out.find('\n', told) - told - 8);
  EXPECT_THAT(random.out, HasSubstr("\n  " + first + "\n")) << random.out;
  EXPECT_THAT(random.out, Not(HasSubstr("optimal in 10 of 10")));
  auto no_db = naqala("solve oware --check-play 5");
  EXPECT_EQ(no_db.status, 2);
  EXPECT_THAT(no_db.out, HasSubstr("--check-play needs --db FILE"));
  auto other_rules = naqala("solve kalah --check-play 5 --db " + file);
  EXPECT_EQ(other_rules.status, 2);
  EXPECT_THAT(other_rules.out, HasSubstr(file));
  // Kalah: the solver referees, here past the 6-seed database built in memory.
  auto kalah = naqala(
      "solve kalah --check-play 4 --db-seeds 6 --check-seeds 9 --engine alphabeta:depth=2 --json");
  ASSERT_EQ(kalah.status, 0) << kalah.out;
  const auto k = nlohmann::json::parse(kalah.out);
  EXPECT_EQ(k["checked"], 4);
  EXPECT_EQ(k["db_seeds"], 9);
  EXPECT_EQ(k["unsettled"], 0);
  std::remove(file.c_str());
}

TEST(Cli, TuneBackgammonFitsTheContactWeightsAndRefusesSearchFlags) {
  const auto r = naqala("tune backgammon --games 3 --seed 2 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"], 3);
  EXPECT_EQ(j["weights"].size(), 10u);
  EXPECT_GT(j["positions"].get<int>(), 0);
  EXPECT_LE(j["loss_after"].get<double>(), j["loss_before"].get<double>() + 1e-12);
  const auto bad = naqala("tune backgammon --depth 4");
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("--depth and --noise apply to sowing"), std::string::npos) << bad.out;
}

// `train backgammon --race`: a small run writes weights that load and play, a rerun resumes
// from its sample cache, and a cache of another seed or a missing --from is refused.
TEST(Cli, TrainBackgammonRaceWritesWeightsAndResumesFromItsCache) {
  const naqala::testing::ScratchDir scratch;
  const std::string out = scratch / "race.bin";
  const std::string flags = " --race-games 2 --race-random 20 --trials 5 --steps 200 --out " + out;
  const auto r = naqala("train backgammon --race --seed 3" + flags);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("pairs trained 200/200"));
  const auto played = analyze_with_net(out);
  EXPECT_EQ(played.status, 0) << played.out;
  const auto again = naqala("train backgammon --race --seed 3" + flags);
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_THAT(again.out, Not(HasSubstr("sides sampled")));  // every side came from the cache
  const auto other = naqala("train backgammon --race --seed 4" + flags);
  EXPECT_EQ(other.status, 2) << other.out;
  EXPECT_THAT(other.out, HasSubstr("holds seed 3"));
  const auto missing = naqala("train backgammon --race --from " + (scratch / "none.bin") + flags);
  EXPECT_EQ(missing.status, 2) << missing.out;
  EXPECT_THAT(missing.out, HasSubstr("none.bin"));
}

// `train backgammon --supervised fit` takes several --data files (repeated or a comma list); a
// label run writes one, and two files of the same games are refused.
TEST(Cli, TrainBackgammonSupervisedFitTakesSeveralDataFiles) {
  const naqala::testing::ScratchDir scratch;
  const std::string a = scratch / "a.bin", b = scratch / "b.bin", out = scratch / "net.bin";
  for (const auto& [file, seed] : {std::pair{a, "3"}, std::pair{b, "4"}}) {
    const auto r = naqala("train backgammon --supervised label --label-plies 0 --games 2 --seed " +
                          std::string(seed) + " --data " + file);
    ASSERT_EQ(r.status, 0) << r.out;
  }
  const std::string fit = "train backgammon --supervised fit --epochs 1 --holdout 2 --out " + out;
  const auto repeated = naqala(fit + " --data " + a + " --data " + b);
  ASSERT_EQ(repeated.status, 0) << repeated.out;
  EXPECT_THAT(repeated.out, HasSubstr(a + " ("));
  EXPECT_THAT(repeated.out, HasSubstr(b + " ("));
  EXPECT_THAT(repeated.out, HasSubstr("epoch 1"));
  const auto listed = naqala(fit + " --data " + a + "," + b);
  ASSERT_EQ(listed.status, 0) << listed.out;
  // The same files give the same epoch: its line up to the seconds it took.
  const auto epoch_one = [](const std::string& out) {
    const auto at = out.find("epoch 1"), rmse = out.find("rmse ", at);
    return rmse == std::string::npos ? std::string() : out.substr(at, out.find(' ', rmse + 5) - at);
  };
  EXPECT_THAT(epoch_one(repeated.out), HasSubstr("held out"));
  EXPECT_EQ(epoch_one(listed.out), epoch_one(repeated.out));
  const auto twice = naqala(fit + " --data " + a + "," + a);
  EXPECT_EQ(twice.status, 2) << twice.out;
  EXPECT_THAT(twice.out, HasSubstr("hold the same games"));
  const auto label_two = naqala("train backgammon --supervised label --games 2 --data " + a +
                                " --data " + (scratch / "c.bin"));
  EXPECT_EQ(label_two.status, 2) << label_two.out;
  EXPECT_THAT(label_two.out, HasSubstr("one --data file"));
  // --hidden widens --from before the fit: the file written has that width, and plays.
  const std::string wide = scratch / "wide.bin";
  const auto widened = naqala(
      "train backgammon --supervised fit --epochs 1 --holdout 2 --hidden "
      "256 --data " +
      a + " --out " + wide);
  ASSERT_EQ(widened.status, 0) << widened.out;
  EXPECT_THAT(widened.out, HasSubstr("(256 hidden units)"));
  const auto played = analyze_with_net(wide);
  EXPECT_EQ(played.status, 0) << played.out;
  const auto odd = naqala(fit + " --hidden 200 --data " + a);
  EXPECT_EQ(odd.status, 2) << odd.out;
  EXPECT_THAT(odd.out, HasSubstr("multiple of 32"));
}

// `command` run with `variable` naming `file`, then naming `missing` (a file that is not there):
// the file plays (exit 0), the missing one is refused with `refusal` (exit 2).
void expect_variable_file_plays(const std::string& variable, const std::string& file,
                                const std::string& missing, const std::string& command,
                                const std::string& refusal) {
  setenv(variable.c_str(), file.c_str(), 1);
  const auto played = naqala(command);
  setenv(variable.c_str(), missing.c_str(), 1);
  const auto refused = naqala(command);
  unsetenv(variable.c_str());
  EXPECT_EQ(played.status, 0) << variable << ": " << played.out;
  EXPECT_EQ(refused.status, 2) << variable << ": " << refused.out;
  EXPECT_THAT(refused.out, HasSubstr(refusal)) << variable;
}

// Files and input of no end (/dev/zero) are refused with what was read and the limit, not read
// until memory runs out: the evaluation, book and network files the variables name, self-play
// records, the engine protocol's and the terminal game's standard input.
TEST(Cli, EndlessInputIsRefusedByItsLimit) {
  const std::array<std::array<const char*, 3>, 5> files = {{
      {"NAQALA_OWARE_EVAL", "analyze oware --depth 2", "evaluation file '/dev/zero'"},
      {"NAQALA_KALAH_NET", "analyze kalah --depth 2", "network file '/dev/zero'"},
      {"NAQALA_BAO_NET", "analyze bao --depth 2", "network file '/dev/zero'"},
      {"NAQALA_OWARE_BOOK", "analyze oware --depth 2", "opening book '/dev/zero'"},
      {"NAQALA_BGNET", "analyze backgammon", "backgammon weight file '/dev/zero'"},
  }};
  for (const auto& [variable, command, what] : files) {
    setenv(variable, "/dev/zero", 1);
    const auto r = naqala(command);
    unsetenv(variable);
    EXPECT_EQ(r.status, 2) << variable << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(what)) << variable;
    EXPECT_THAT(r.out, HasSubstr("MiB, the limit for")) << variable;
  }
  const auto records = naqala("tune oware --records /dev/zero --games 1");
  EXPECT_EQ(records.status, 2) << records.out;
  EXPECT_THAT(records.out, HasSubstr("/dev/zero: a line longer than 1 MiB"));
  for (const char* command : {"engine oware", "play oware"}) {
    const auto r = naqala::testing::naqala_reading(command, "/dev/zero");
    EXPECT_EQ(r.status, 2) << command << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr("a line longer than 1 MiB")) << command;
  }
}

// A pit table from two games of self-play: the file it writes plays (NAQALA_OWARE_EVAL), and
// a ruleset without two plain rows, or a flag of the linear fit, is refused.
TEST(Cli, TuneOwarePitTableWritesAnEvaluationThatPlays) {
  const naqala::testing::ScratchDir scratch;
  const auto r =
      naqala("tune oware --records " + (scratch / "r.rec") +
             " --games 2 --engine alphabeta:depth=2 --out " + (scratch / "e.txt") + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"], 2);
  EXPECT_GT(j["positions"].get<int>(), 20);
  expect_variable_file_plays("NAQALA_OWARE_EVAL", scratch / "e.txt", scratch / "missing.txt",
                             "analyze oware --depth 3 --json", "cannot read the evaluation file");
  const auto bad = naqala("tune oware --records " + (scratch / "r.rec") + " --depth 3");
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr("--records plays --engine"));
  const auto backgammon = naqala("tune backgammon --records " + (scratch / "b.rec") + " --games 1");
  EXPECT_EQ(backgammon.status, 2) << backgammon.out;
  EXPECT_THAT(backgammon.out, HasSubstr("fits a pit table for sowing games, Bao and Omweso"));
}

// Exact labels from self-play (the solver alone: no database is installed in the tests), a
// network trained on them that plays through NAQALA_KALAH_NET, and the refusals: a ruleset the
// solver does not take (before any game is played), --net-out without labels, a missing file.
TEST(Cli, TuneKalahExactLabelsTrainANetworkThatPlays) {
  const naqala::testing::ScratchDir scratch;
  setenv("NAQALA_KALAH_DB", "none", 1);
  const auto r = naqala("tune kalah:seeds=3 --records " + (scratch / "k.rec") +
                        " --games 6 --engine alphabeta:depth=2 --exact " + (scratch / "k.lab") +
                        " --roots 4 --min-seeds 6 --max-seeds 14 --net-out " +
                        (scratch / "net.txt") + " --hidden 8 --epochs 3 --json");
  unsetenv("NAQALA_KALAH_DB");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["roots"], 4);
  EXPECT_GT(j["exact"].get<int>(), 4);
  // The network values the boards up to the most seeds of a label, at most --max-seeds.
  EXPECT_LE(j["net"]["max_seeds"].get<int>(), 14);
  EXPECT_GE(j["net"]["max_seeds"].get<int>(), 6);
  expect_variable_file_plays("NAQALA_KALAH_NET", scratch / "net.txt", scratch / "missing.txt",
                             "analyze kalah --depth 3 --json", "cannot read the network file");
  const auto oware = naqala("tune oware --records " + (scratch / "o.rec") + " --games 1 --exact " +
                            (scratch / "o.lab"));
  EXPECT_EQ(oware.status, 2) << oware.out;
  EXPECT_THAT(oware.out, HasSubstr("oware is not one"));
  EXPECT_FALSE(std::filesystem::exists(scratch / "o.rec"));
  const auto no_labels = naqala("tune kalah --records " + (scratch / "k.rec") +
                                " --games 6 --engine alphabeta:depth=2 --net-out x.txt");
  EXPECT_EQ(no_labels.status, 2) << no_labels.out;
  EXPECT_THAT(no_labels.out, HasSubstr("give --exact FILE"));
}

// Search labels of Bao's self-play, a network trained on them that plays through
// NAQALA_BAO_NET, and the refusals: another game (before any game is played), a missing file.
TEST(Cli, TuneBaoSearchLabelsTrainANetworkThatPlays) {
  const naqala::testing::ScratchDir scratch;
  const auto r =
      naqala("tune bao --records " + (scratch / "b.rec") +
             " --games 2 --engine alphabeta:depth=1 --search-labels " + (scratch / "b.lab") +
             " --roots 6 --label-engine alphabeta:nodes=2000,hash=1 --net-out " +
             (scratch / "net.txt") + " --hidden 8 --epochs 3 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["roots"], 6);
  EXPECT_EQ(j["labels"], 6);
  EXPECT_EQ(j["net"]["train"].get<int>() + j["net"]["held_out"].get<int>(), 6);
  expect_variable_file_plays("NAQALA_BAO_NET", scratch / "net.txt", scratch / "missing.txt",
                             "analyze bao --depth 3 --json", "cannot read the network file");
  const auto kalah = naqala("tune kalah --records " + (scratch / "k.rec") +
                            " --games 1 --search-labels " + (scratch / "k.lab"));
  EXPECT_EQ(kalah.status, 2) << kalah.out;
  EXPECT_THAT(kalah.out, HasSubstr("kalah is not Bao"));
  EXPECT_FALSE(std::filesystem::exists(scratch / "k.rec"));
}

// Bao and Omweso fit their four-row tables the same way (Omweso's setup left out), and
// NAQALA_BAO_EVAL / NAQALA_OMWESO_EVAL play the file; a file that is not there is refused.
TEST(Cli, TuneBaoAndOmwesoPitTablesPlayThroughTheirVariables) {
  const naqala::testing::ScratchDir scratch;
  for (const std::string game : {"bao", "omweso"}) {
    const std::string eval = scratch / (game + ".txt");
    const auto r = naqala("tune " + game + " --records " + (scratch / (game + ".rec")) +
                          " --games 2 --engine alphabeta:depth=1 --out " + eval + " --json");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["games"], 2) << game;
    EXPECT_GE(j["positions"].get<int>(), 10) << game;
    const std::string variable = game == "bao" ? "NAQALA_BAO_EVAL" : "NAQALA_OMWESO_EVAL";
    // The first engine plays the file, the second the linear weights alone.
    expect_variable_file_plays(variable, eval, scratch / "missing.txt",
                               "arena " + game +
                                   " --engine alphabeta:depth=1 --engine "
                                   "alphabeta:depth=1,weights=100 --games 2 --seed 1",
                               "cannot read the evaluation file");
  }
}

// Any two-row preset trains a table the same way, and NAQALA_<PRESET>_EVAL plays it
// (Toguz's name: NAQALA_TOGUZ_EVAL); a file that is not there is refused.
TEST(Cli, TunePitTableForKalahAndToguzPlaysThroughTheirVariables) {
  const naqala::testing::ScratchDir scratch;
  for (const std::string preset : {"kalah", "toguz"}) {
    const std::string variable = preset == "kalah" ? "NAQALA_KALAH_EVAL" : "NAQALA_TOGUZ_EVAL";
    const auto r = naqala("tune " + preset + " --records " + (scratch / (preset + ".rec")) +
                          " --games 2 --engine alphabeta:depth=2 --out " +
                          (scratch / (preset + ".txt")) + " --json");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(nlohmann::json::parse(r.out)["games"], 2);
    std::ifstream file(scratch / (preset + ".txt"));
    std::string text((std::istreambuf_iterator<char>(file)), {});
    EXPECT_THAT(text, HasSubstr("made-by naqala tune " + preset + " --records FILE --games 2"));
    expect_variable_file_plays(variable, scratch / (preset + ".txt"), scratch / "missing.txt",
                               "analyze " + preset + " --depth 3 --json",
                               "cannot read the evaluation file");
  }
}

TEST(Cli, BackgammonCubeHintInAMatchIsInMatchWinningChances) {
  // The opening position before the roll at 3-3 in a 5-point match (2-away 2-away): the pass
  // leaves the taker in the Crawford game 2 away, MWC(1-away, 2-away) of naqala's table.
  const auto match =
      naqala("analyze backgammon --position 4HPwATDgc/ABMA:MAGgADAAGAAA --engine level:6 --json");
  ASSERT_EQ(match.status, 0) << match.out;
  const auto cube = nlohmann::json::parse(match.out)["cube"];
  EXPECT_EQ(cube["unit"], "mwc");
  EXPECT_NEAR(cube["double_pass"].get<double>(), 0.686, 0.002);
  EXPECT_GT(cube["no_double"].get<double>(), 0.4);
  EXPECT_LT(cube["no_double"].get<double>(), 0.7);
  // Money play keeps equities.
  const auto money = naqala("analyze backgammon --position 4HPwATDgc/ABMA --engine level:6 --json");
  ASSERT_EQ(money.status, 0) << money.out;
  const auto money_cube = nlohmann::json::parse(money.out)["cube"];
  EXPECT_EQ(money_cube["unit"], "equity");
  EXPECT_EQ(money_cube["double_pass"], 1.0);
}

TEST(Cli, BenchServeLosesNoAcknowledgedMoveThroughKills) {
  // Waits for moves, not for time: two kill -9s fall inside the first 200 of 300 acknowledged
  // moves, so the games go on against the restarted server.
  const auto r = naqala("bench serve --games 4 --moves 300 --kills 2 --seed 3 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kills"], 2);
  EXPECT_GE(j["moves"].get<int>(), 300);
  EXPECT_GE(j["checked"].get<int>(), 300);
  EXPECT_EQ(j["missing"], 0) << j["problems"].dump();
  EXPECT_GT(j["clocks_checked"].get<int>(), 0);  // each kill: the games' clocks, looked at again
  EXPECT_EQ(j["clocks_wrong"], 0) << j["problems"].dump();
  const auto bad = naqala("bench serve --port 8080 --kills 1 --moves 10");
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("--kills needs the server it starts itself"), std::string::npos)
      << bad.out;
}

// Resignations in `play` (docs/games/backgammon.md, "Resignations"): the computer offers to
// resign a hopeless bear-off before it moves, and answers a person's offers.
TEST(Cli, BackgammonResignationOffersBothWays) {
  // South (the computer) on roll with 10 checkers left against North's last one.
  auto offered = naqala(
      "play backgammon --position AQAAwPcBAAAAAA --south computer:5 --north human", "accept\n");
  ASSERT_EQ(offered.status, 0) << offered.out;
  EXPECT_THAT(offered.out, HasSubstr("south (computer, level 5) offers to resign single"));
  EXPECT_THAT(offered.out, HasSubstr("Game over (resignation): north wins, 0-1."));
  // South (a person) with every checker on his 6-point and none off against North's last one:
  // North keeps his gammon chances against a single and takes a gammon.
  auto answered =
      naqala("play backgammon --position AQAAgP8/AAAAAA --south human --north computer:5",
             "resign single\nresign gammon\n");
  ASSERT_EQ(answered.status, 0) << answered.out;
  EXPECT_THAT(answered.out, HasSubstr("north (computer, level 5) declines the resignation"));
  EXPECT_THAT(answered.out, HasSubstr("north (computer, level 5) accepts the resignation"));
  EXPECT_THAT(answered.out, HasSubstr("Game over (resignation): north wins, 0-2."));
}

// A resigned game of a .mat match keeps its score through a naqala record and back.
TEST(Cli, MatResignationSurvivesTheRecordRoundTrip) {
  const naqala::testing::ScratchDir scratch;
  const std::string mat = scratch / "resigned.mat", rec = scratch / "resigned.txt",
                    back = scratch / "back.mat";
  {
    std::ofstream out(mat);
    out << " 3 point match\n\n Game 1\n a : 0                          b : 0\n"
           "  1) 31: 8/5 6/5                 42: 24/22 13/9\n"
           "                                  Wins 2 points\n\n"
           " Game 2\n a : 0                          b : 2\n"
           "  1) 64: 24/14\n";
  }
  auto imported = naqala("mat import " + mat + " --save " + rec);
  ASSERT_EQ(imported.status, 0) << imported.out;
  auto state = naqala("state backgammon:match=3 --record " + rec + " --json");
  ASSERT_EQ(state.status, 0) << state.out;
  std::ifstream in(rec);
  const std::string text{std::istreambuf_iterator<char>(in), {}};
  EXPECT_THAT(text, HasSubstr("S resign gammon"));
  EXPECT_THAT(text, HasSubstr("N accept"));
  auto exported = naqala("mat export " + rec + " -o " + back);
  ASSERT_EQ(exported.status, 0) << exported.out;
  auto again = naqala("mat import " + back + " --json");
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_EQ(nlohmann::json::parse(again.out)["score"], nlohmann::json({0, 2})) << again.out;
}

// A record saved before resignations needed an answer ends with the offer and the result it
// gave: it still replays as the finished game it was (nothing a user saved is lost).
TEST(Cli, RecordEndingWithAnUnansweredResignationReplaysAsAccepted) {
  const naqala::testing::ScratchDir scratch;
  const std::string rec = scratch / "old.txt";
  {
    std::ofstream out(rec);
    out << "[Variant \"backgammon\"]\n[Result \"0-1\"]\n\n1. * 3-1\n2. S resign gammon\n0-1\n";
  }
  auto state = naqala("state backgammon --record " + rec + " --json");
  ASSERT_EQ(state.status, 0) << state.out;
  const auto j = nlohmann::json::parse(state.out);
  EXPECT_TRUE(j["is_over"].get<bool>()) << state.out;
  EXPECT_EQ(j["outcome"]["reason"], "resignation");
  EXPECT_EQ(j["outcome"]["scores"], nlohmann::json({0, 2}));
  // Without a result the offer is still waiting for its answer.
  {
    std::ofstream out(rec);
    out << "[Variant \"backgammon\"]\n\n1. * 3-1\n2. S resign gammon\n*\n";
  }
  auto pending = naqala("state backgammon --record " + rec + " --json");
  ASSERT_EQ(pending.status, 0) << pending.out;
  EXPECT_FALSE(nlohmann::json::parse(pending.out)["is_over"].get<bool>());
}

}  // namespace
