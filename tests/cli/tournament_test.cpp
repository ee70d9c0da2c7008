// `naqala tournament`: the --json contract, records under --out that `naqala state --record`
// reads back, and resuming an interrupted tournament.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "run_naqala.h"
#include "scratch_dir.h"

namespace naqala {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::naqala;

// Kalah with 3 seeds a pit: short games.
const std::string kEngines = " --engine random --engine level:1 --engine level:2";

TEST(TournamentCli, JsonStandingsAndGames) {
  auto r = naqala("tournament kalah:seeds=3 --format roundrobin" + kEngines + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["games"], 3);
  ASSERT_TRUE(j["standings"].is_array());
  ASSERT_EQ(j["standings"].size(), 3u);
  double total = 0, last = 1e9;
  std::set<std::string> players;
  for (const auto& row : j["standings"]) {
    ASSERT_TRUE(row["player"].is_string());
    ASSERT_TRUE(row["points"].is_number());
    EXPECT_LE(row["points"].get<double>(), last);  // rank order
    last = row["points"].get<double>();
    total += last;
    players.insert(row["player"].get<std::string>());
  }
  EXPECT_EQ(total, 3);  // one point a game
  EXPECT_EQ(players, (std::set<std::string>{"random", "level:1", "level:2"}));
}

TEST(TournamentCli, KnockoutNamesAChampion) {
  auto r = naqala("tournament kalah:seeds=3 --format knockout" + kEngines +
                  " --engine level:1 --games-per-pairing 3 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["standings"][0]["player"], j["champion"]);
  EXPECT_EQ(j["rounds"], 2);
  EXPECT_GE(j["games"].get<int>(), 2 * 2 + 2);  // two matches of best of 3, then the final
}

TEST(TournamentCli, RecordsAndResume) {
  const testing::ScratchDir scratch;
  const fs::path dir = scratch.path() / "out";
  const std::string cmd =
      "tournament kalah:seeds=3 --format swiss --rounds 2 --engine random "
      "--engine level:1 --engine level:2 --engine random --json --out " +
      dir.string();
  auto first = naqala(cmd);
  ASSERT_EQ(first.status, 0) << first.out;
  const json a = json::parse(first.out);
  EXPECT_EQ(a["games"], 4);
  EXPECT_EQ(a["played_now"], 4);
  std::vector<fs::path> records;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().starts_with("round")) records.push_back(e.path());
  ASSERT_EQ(records.size(), 4u);
  std::sort(records.begin(), records.end());
  // Each record is a game `naqala state --record` replays.
  auto state = naqala("state kalah:seeds=3 --record " + records[0].string() + " --json");
  ASSERT_EQ(state.status, 0) << state.out;
  EXPECT_TRUE(json::parse(state.out)["is_over"].get<bool>()) << state.out;

  // Interrupted before the last game: a rerun plays that one only.
  fs::remove(records.back());
  auto second = naqala(cmd);
  ASSERT_EQ(second.status, 0) << second.out;
  const json b = json::parse(second.out);
  EXPECT_EQ(b["games"], 4);
  EXPECT_EQ(b["played_now"], 1);
  EXPECT_EQ(b["read_back"], 3);
  EXPECT_TRUE(fs::exists(records.back()));

  // Everything played: nothing is played again, the standings are the same.
  auto third = naqala(cmd);
  ASSERT_EQ(third.status, 0) << third.out;
  const json c = json::parse(third.out);
  EXPECT_EQ(c["played_now"], 0);
  EXPECT_EQ(c["standings"], b["standings"]);

  // Other settings in the same directory: refused, nothing overwritten.
  auto other = naqala(
      "tournament kalah:seeds=3 --format swiss --rounds 3 --engine random "
      "--engine level:1 --engine level:2 --engine random --out " +
      dir.string());
  EXPECT_EQ(other.status, 2) << other.out;
  EXPECT_NE(other.out.find("holds another tournament"), std::string::npos) << other.out;
}

TEST(TournamentCli, BadInputSaysWhatIsAllowed) {
  auto format = naqala("tournament kalah --format league --engine random --engine random");
  EXPECT_EQ(format.status, 2);
  EXPECT_NE(format.out.find("roundrobin, swiss, knockout"), std::string::npos) << format.out;
  auto one = naqala("tournament kalah --format swiss --engine random");
  EXPECT_EQ(one.status, 2);
  EXPECT_NE(one.out.find("at least two"), std::string::npos) << one.out;
  auto rounds = naqala(
      "tournament kalah --format swiss --rounds 5 --engine random --engine random "
      "--engine random");
  EXPECT_EQ(rounds.status, 2);
  EXPECT_NE(rounds.out.find("at most 3 rounds"), std::string::npos) << rounds.out;
  auto engine = naqala("tournament kalah --format swiss --engine random --engine nonsense");
  EXPECT_EQ(engine.status, 2) << engine.out;
}

// The levels' ratings: a round robin of levels written into a file under the variant (other
// variants in the file kept), with the command that remakes it; only level:N in a round robin.
TEST(TournamentCli, LevelRatingsAreWrittenWithTheirCommand) {
  const testing::ScratchDir scratch;
  const std::string file = (scratch.path() / "levels.json").string();
  {
    std::ofstream out(file);
    out << R"({"oware": {"variant": "oware", "levels": []}})";
  }
  auto r = naqala(
      "tournament kalah:seeds=3 --format roundrobin --engine level:1 --engine level:3 "
      "--engine level:2 --games-per-pairing 2 --opening-plies 2 --seed 5 --quiet "
      "--level-ratings " +
      file);
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream in(file);
  const json j = json::parse(in);
  ASSERT_TRUE(j.contains("oware"));
  const json& k = j.at("kalah:seeds=3");
  EXPECT_EQ(k["games"], 6);
  EXPECT_EQ(k["seed"], 5);
  EXPECT_NE(k["command"].get<std::string>().find("--engine level:3 --engine level:2 --rounds 1 "
                                                 "--games-per-pairing 2 --opening-plies 2 "
                                                 "--seed 5"),
            std::string::npos)
      << k["command"];
  ASSERT_EQ(k["levels"].size(), 3u);
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(k["levels"][i]["level"], i + 1);  // in level order, whatever the seeds
    EXPECT_EQ(k["levels"][i]["games"], 4);
    EXPECT_GT(k["levels"][i]["deviation"].get<int>(), 0);
    sum += k["levels"][i]["rating"].get<double>();
  }
  EXPECT_NEAR(sum / 3, 1500, 1);  // the levels' average is the scale's 1500

  // Refused before a game: another format, or an entrant that is not a level.
  for (const auto& [entrants, message] :
       {std::pair{"--format swiss --engine level:1 --engine level:2", "needs --format roundrobin"},
        std::pair{"--format roundrobin --engine level:1 --engine random",
                  "every entrant must be level:N"}}) {
    const auto refused =
        naqala(std::string("tournament kalah ") + entrants + " --level-ratings " + file);
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.out.find(message), std::string::npos) << refused.out;
  }
}

// --max-plies: a game still running at the cap is adjudicated by its score, the record says
// so, the cap is part of the directory's settings (a rerun with another cap is refused) and of
// the level ratings' command.
TEST(TournamentCli, MaxPliesAdjudicatesAndIsKeptWithTheTournament) {
  const testing::ScratchDir scratch;
  const fs::path dir = scratch.path() / "out";
  const std::string file = (scratch.path() / "levels.json").string();
  const std::string cmd =
      "tournament oware --format roundrobin --engine level:1 --engine level:2 --quiet "
      "--max-plies 12 --out " +
      dir.string();
  auto r = naqala(cmd + " --json --level-ratings " + file);
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream record(dir / "round01-pairing01-game01.txt");
  const std::string text((std::istreambuf_iterator<char>(record)), {});
  EXPECT_NE(text.find("[Termination \"adjudicated\"]"), std::string::npos) << text;
  std::ifstream in(file);
  EXPECT_NE(json::parse(in).at("oware")["command"].get<std::string>().find("--max-plies 12"),
            std::string::npos);

  EXPECT_EQ(naqala(cmd).status, 0);  // the same cap resumes
  auto other = naqala(
      "tournament oware --format roundrobin --engine level:1 --engine level:2 "
      "--quiet --max-plies 14 --out " +
      dir.string());
  EXPECT_EQ(other.status, 2) << other.out;
  EXPECT_NE(other.out.find("max_plies"), std::string::npos) << other.out;
  EXPECT_EQ(naqala("tournament oware --format roundrobin --engine level:1 --engine level:2 "
                   "--max-plies 5")
                .status,
            2);  // below the range
}

// --setup-plies (Omweso): the openings stop inside the layout and the engines make the rest; the
// number is part of the directory's settings and of the level ratings' command, and a game
// without a setup refuses it.
TEST(TournamentCli, SetupPliesAreKeptWithTheTournament) {
  const testing::ScratchDir scratch;
  const fs::path dir = scratch.path() / "out";
  const std::string file = (scratch.path() / "levels.json").string();
  const std::string cmd =
      "tournament omweso --format roundrobin --engine level:1 --engine level:2 --quiet "
      "--games-per-pairing 2 --setup-plies 3 --out " +
      dir.string();
  auto r = naqala(cmd + " --level-ratings " + file);
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream record(dir / "round01-pairing01-game01.txt");
  const std::string text((std::istreambuf_iterator<char>(record)), {});
  EXPECT_NE(text.find("/setup:3"), std::string::npos) << text;  // the game starts at d1
  std::ifstream settings(dir / "tournament.json");
  EXPECT_EQ(json::parse(settings)["setup_plies"], 3);
  std::ifstream in(file);
  EXPECT_NE(json::parse(in).at("omweso")["command"].get<std::string>().find(
                "--opening-plies 0 --setup-plies 3 --seed 1"),
            std::string::npos);
  auto other = naqala(
      "tournament omweso --format roundrobin --engine level:1 --engine level:2 --quiet "
      "--games-per-pairing 2 --setup-plies 4 --out " +
      dir.string());
  EXPECT_EQ(other.status, 2) << other.out;
  EXPECT_NE(other.out.find("setup_plies"), std::string::npos) << other.out;
  auto kalah = naqala(
      "tournament kalah --format roundrobin --engine level:1 --engine level:2 --quiet "
      "--setup-plies 2");
  EXPECT_EQ(kalah.status, 2) << kalah.out;
  EXPECT_NE(kalah.out.find("no setup phase"), std::string::npos) << kalah.out;
}

}  // namespace
}  // namespace naqala
