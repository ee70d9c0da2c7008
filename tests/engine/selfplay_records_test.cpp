// Self-play records: the same seed gives the same file, and a run cut short resumes.
#include "engine/selfplay_records.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "engine/line_files.h"
#include "games/registry.h"
#include "scratch_dir.h"

namespace naqala::engine {
namespace {

SelfPlayOptions small(int games) {
  SelfPlayOptions o;
  o.engine = "alphabeta:depth=2";
  o.games = games;
  o.seed = 3;
  return o;
}

TEST(SelfPlayRecords, ResumesACutRunToTheSameFile) {
  const naqala::testing::ScratchDir dir;
  auto game = make_game("oware");
  EXPECT_EQ(extend_self_play(*game, dir / "whole.rec", small(3)), 3);
  const std::string whole = text_of(dir / "whole.rec");
  // Two games, then half of the third's lines as a killed run leaves them, then resumed.
  EXPECT_EQ(extend_self_play(*game, dir / "cut.rec", small(2)), 2);
  const std::string two = text_of(dir / "cut.rec");
  std::ofstream(dir / "cut.rec", std::ios::app) << whole.substr(two.size(), 40);
  EXPECT_EQ(extend_self_play(*game, dir / "cut.rec", small(3)), 3);
  EXPECT_EQ(text_of(dir / "cut.rec"), whole);

  int games = 0;
  const auto positions = read_self_play(dir / "whole.rec", &games);
  EXPECT_EQ(games, 3);
  ASSERT_FALSE(positions.empty());
  // Each margin is the mover's: South's final margin, negated where North moved.
  const auto last_line = whole.substr(whole.rfind("game ") + 5);
  const double south = std::stod(last_line);
  const auto& p = positions.back();
  EXPECT_EQ(p.margin, p.mover == Player::South ? south : -south);
}

TEST(SelfPlayRecords, ABadLineIsNamed) {
  const naqala::testing::ScratchDir dir;
  expect_bad_line_named(dir / "bad.rec",
                        "pos 4,4,4,4,4,4/4,4,4,4,4,4/0,0/S S 1.5\ngame 2\npos x Q 1\n", "bad.rec:3",
                        [](const std::string& p) { return read_self_play(p); });
}

}  // namespace
}  // namespace naqala::engine
