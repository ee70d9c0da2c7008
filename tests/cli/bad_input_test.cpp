// Bad input to the command line (issue 18): every case is a clear error with status 2 (or, where
// the input is fine after all, a success), never a crash, a hang or silent nonsense.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_naqala.h"
#include "scratch_dir.h"

namespace {

using ::testing::HasSubstr;
using naqala::testing::naqala;
namespace fs = std::filesystem;

std::string write(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
  return file.string();
}

const std::string kKalahRecord =
    "[Variant \"kalah\"]\n\n1. S 3\n2. S 6\n3. N 1\n*\n";

TEST(BadInput, BackgammonRepeatCountIsBounded) {
  auto r = naqala("state backgammon --moves \"4-1;8/4(2147483647)\"");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("8/4(2147483647)"));
  r = naqala("state backgammon --moves \"4-1;8/4(99999999999999999999)\"");
  EXPECT_EQ(r.status, 2) << r.out;
}

TEST(BadInput, PlyNumberBeyondAnyCount) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  const auto rec =
      write(dir / "r.txt", "[Variant \"kalah\"]\n\n18446744073709551616. S 3\n*\n");
  auto r = naqala("state kalah --record " + rec);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("ply number 18446744073709551616"));
}

TEST(BadInput, RecordThatIsADirectoryOrTooLarge) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  auto r = naqala("state kalah --record " + dir.string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("is a directory"));
  r = naqala("state kalah --record /dev/zero");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("16 MiB"));
  r = naqala("rules /dev/zero");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("16 MiB"));
  r = naqala("rules " + dir.string() + "/");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("is a directory"));
}

TEST(BadInput, RecordWithoutVariantOrWithContradictingResults) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  auto r = naqala("state kalah --record " + write(dir / "a.txt", "1. S 3\n*\n"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Variant"));
  r = naqala("state kalah --record " +
             write(dir / "b.txt", "[Variant \"kalah\"]\n[Result \"1-0\"]\n\n1. S 3\n0-1\n"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Result"));
  r = naqala("state kalah --record " +
             write(dir / "c.txt", "[Variant \"kalah\"]\n[Variant \"oware\"]\n\n1. S 3\n*\n"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("twice"));
}

TEST(BadInput, ByteOrderMarkBeforeARecordIsRead) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  auto r = naqala("state kalah --json --record " + write(dir / "bom.txt", "\xEF\xBB\xBF" + kKalahRecord));
  ASSERT_EQ(r.status, 0) << r.out;
  auto plain = naqala("state kalah --json --record " + write(dir / "plain.txt", kKalahRecord));
  ASSERT_EQ(plain.status, 0) << plain.out;
  EXPECT_EQ(r.out, plain.out);
}

TEST(BadInput, EmptyPositionRepeatedOptionAndNonFiniteNumbers) {
  auto r = naqala("state kalah --position \"\"");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("position"));
  r = naqala("state kalah:seeds=4,seeds=5");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("'seeds' is given twice"));
  for (const char* args : {"analyze kalah --time nan", "bench random kalah --seconds nan",
                           "bench random kalah --seconds=-inf", "solve kalah --time NaN",
                           "serve --http-rate nan --port 0"}) {
    r = naqala(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr("finite number")) << args;
  }
}

TEST(BadInput, ContradictoryVariantFilesNameTheirKeys) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  const std::string head =
      "name = \"odd\"\n[board]\npits = 6\nseeds = 4\n[sowing]\nstores = \"own\"\n";
  auto r = naqala("rules " + write(dir / "min.toml", head + "min_seeds = 99\n"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("sowing.min_seeds"));
  EXPECT_THAT(r.out, HasSubstr("board.seeds"));
  r = naqala("rules " + write(dir / "skip.toml", head + "skip_full = 1\n"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("sowing.skip_full"));
}

TEST(BadInput, RulesCheckPlaysRandomGames) {
  auto r = naqala("rules kalah --check --games 200 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"], 200);
  EXPECT_EQ(j["ended"], 200);
  EXPECT_EQ(j["stuck"], 0);
  EXPECT_EQ(j["endless"], 0);
  EXPECT_GT(j["plies"]["min"].get<int>(), 0);
  EXPECT_GE(j["plies"]["max"].get<int>(), j["plies"]["median"].get<int>());
  // A cap below the shortest game: every game is reported as not ending, status 1.
  r = naqala("rules oware --check --games 5 --max-plies 3");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("did not end in 3 plies"));
}

// A relay game without captures that never ends: `bench random` stops (it read the clock only
// between games) and says a game was cut off.
TEST(BadInput, BenchRandomStopsInAGameThatNeverEnds) {
  const naqala::testing::ScratchDir scratch;
  const auto toml = scratch / "forever.toml";
  write(toml, "name = \"forever\"\n[board]\npits = 1\nseeds = 1\n[sowing]\nlaps = \"relay\"\n");
  auto r = naqala("bench random " + toml + " --seconds 0.01 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"], 0);
  EXPECT_EQ(j["unfinished"], 1);
  EXPECT_GT(j["plies"].get<long>(), 0);
  r = naqala("bench random " + toml + " --seconds 0.01");
  EXPECT_THAT(r.out, HasSubstr("1 game(s) still going when time ran out"));
}

TEST(BadInput, UserVariantGameIsSavedSoItReadsBack) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  const auto toml = write(dir / "mine.toml", "name = \"mine\"\n[board]\npits = 4\nseeds = 2\n"
                                             "[sowing]\nstores = \"own\"\n[capture]\n"
                                             "kind = \"opposite\"\n");
  const auto rec = (dir / "game.txt").string();
  auto r = naqala("play " + toml + " --south computer:1 --north computer:1 --save " + rec);
  ASSERT_EQ(r.status, 0) << r.out;
  r = naqala("state " + toml + " --json --record " + rec);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(nlohmann::json::parse(r.out)["is_over"].get<bool>());
}

TEST(BadInput, SaveToADirectoryIsRefused) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  auto r = naqala("play kalah --south computer:1 --north computer:1 --save " + dir.string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("directory"));
  EXPECT_FALSE(fs::exists(dir.string() + ".tmp"));
}

const std::string kMatHead =
    " 1 point match\n\n Game 1\n Ann : 0                              Bob : 0\n";

TEST(BadInput, MatFilesWithHugeMatchesOrLatin1Names) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  auto r = naqala("mat import " +
                  write(dir / "big.mat", " 100000000000000000000 point match\n\n Game 1\n"
                                         " Ann : 0                              Bob : 0\n"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("at most 32767"));
  // "Jos\xe9" is Latin-1, not UTF-8: the JSON carries a replacement character instead.
  std::string mat = kMatHead;
  mat.replace(mat.find("Ann"), 3, "Jos\xe9");
  mat += "  1) 52: 8/3 6/4                      \n";
  r = naqala("mat import --json " + write(dir / "latin1.mat", mat));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["players"][0], "Jos\xEF\xBF\xBD");
}

TEST(BadInput, VersionNamesTheBuild) {
  auto r = naqala("--version");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("naqala 0."));
  EXPECT_THAT(r.out, HasSubstr("build"));
}

TEST(BadInput, ServeNamesItsDatabaseAndWebDirectory) {
  const naqala::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  auto r = naqala("serve --port 0 --db " + dir.string() + "/missing/x.db");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr(dir.string() + "/missing/x.db"));
  r = naqala("serve --port 0 --db " + write(dir / "text.db", std::string(4096, 'x')));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("text.db"));
  r = naqala("serve --port 0 --db " + (dir / "ok.db").string() + " --web " + dir.string() +
             "/nowhere");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("nowhere"));
}

}  // namespace
