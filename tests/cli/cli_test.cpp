// The `naqala` command line as other tools drive it: exit codes, JSON fields, messages.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

namespace {

using ::testing::HasSubstr;

struct Run {
  int status;
  std::string out;  // stdout and stderr together
};

Run naqala(const std::string& args, const std::string& input = "") {
  std::string cmd = std::string(NAQALA_BIN) + " " + args + " 2>&1";
  if (!input.empty()) {
    const std::string in = ::testing::TempDir() + "/stdin.txt";
    std::ofstream(in) << input;
    cmd += " < " + in;
  } else {
    cmd += " < /dev/null";
  }
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (auto n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int rc = pclose(p);
  return {WEXITSTATUS(rc), out};
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
  const std::string rec = ::testing::TempDir() + "/game.txt";
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
  const std::string rec = ::testing::TempDir() + "/congklak.txt";
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

TEST(Cli, UserVariantFileWorksWherePresetsDo) {
  auto r = naqala(std::string("perft ") + NAQALA_SOURCE_DIR + "/docs/examples/village-kalah.toml --depth 2 --json");
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

  const std::string file = ::testing::TempDir() + "/cli_kalah.db";
  auto built = naqala("solve kalah --build-db 6 --db " + file);
  ASSERT_EQ(built.status, 0) << built.out;
  EXPECT_THAT(built.out, HasSubstr("wrote " + file));
  auto loaded = naqala("solve kalah --position " + position + " --db " + file + " --json");
  ASSERT_EQ(loaded.status, 0) << loaded.out;
  EXPECT_EQ(nlohmann::json::parse(loaded.out)["margin_low"], d["margin_low"]);
  // A database of other rules is refused.
  auto other = naqala("solve kalah:empty_capture=true --position " + position + " --db " + file);
  EXPECT_EQ(other.status, 2);
  EXPECT_THAT(other.out, HasSubstr("the database is for other rules"));
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
TEST(Cli, SolvesOwareWithItsDatabase) {
  const std::string file = ::testing::TempDir() + "/cli_oware.db";
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
  std::remove(file.c_str());
}

}  // namespace
