// .mat files: export and import round trips, errors naming the line, gnubg's resignations.
#include "games/backgammon/mat.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "core/rng.h"
#include "eval/backgammon_heuristic.h"

using namespace naqala;
using namespace naqala::backgammon;

TEST(BackgammonMat, ExportImportRoundTrip) {
  Rng rng(11);
  for (int match : {0, 3, 7}) {
    Rules r;
    r.match = match;
    MatchRecord rec;
    rec.rules = r;
    rec.names = {"Alice", "Bob"};
    State s(r);
    while (!s.is_over()) {
      if (s.is_chance_node()) {
        ChanceList list;
        s.chance_outcomes(list);
        const auto c = list[rng.below(static_cast<std::uint32_t>(list.size()))].chance;
        rec.events.push_back({true, c, {}});
        s.apply_chance(c);
        continue;
      }
      const Move m = bgheuristic::choose_move(s, &rng).move;
      rec.events.push_back({false, {}, m});
      s.play(m);
    }
    const std::string text = export_mat(rec);
    const MatchRecord back = import_mat(text);
    EXPECT_EQ(back.names, rec.names);
    EXPECT_EQ(back.rules.match, match);
    ASSERT_EQ(back.events.size(), rec.events.size()) << text;
    // Opening rolls are kept; other rolls are written higher die first, as they are stored.
    EXPECT_TRUE(back.events == rec.events) << text;
    EXPECT_EQ(export_mat(back), text);
    EXPECT_EQ(replay(back).outcome(), s.outcome());
  }
}

TEST(BackgammonMat, BadFilesNameTheLine) {
  EXPECT_THROW(import_mat("nothing here"), naqala::ParseError);
  const std::string bad =
      " 3 point match\n\n Game 1\n a : 0                          b : 0\n  1) 31: 8/5 6/5          "
      "    42: 24/22 13/9\n"
      "  2) 65: 24/13                 55: 8/3(3)\n";
  try {
    import_mat(bad);
    FAIL() << "an illegal move was accepted";
  } catch (const naqala::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("line 6"), std::string::npos) << e.what();
  }
}

TEST(BackgammonMat, ResignationsAsGnubgWritesThem) {
  // gnubg writes a resignation only as "Wins N points" in the winner's column.
  const std::string text =
      " 3 point match\n\n Game 1\n a : 0                          b : 0\n"
      "  1) 31: 8/5 6/5                 42: 24/22 13/9\n"
      "                                  Wins 2 points\n\n"
      " Game 2\n a : 0                          b : 2\n"
      "  1) 64: 24/14\n";
  const MatchRecord m = import_mat(text);
  const State s = replay(m);
  EXPECT_EQ(s.score(Player::North), 2);
  EXPECT_EQ(s.games_played(), 1);
  const auto resign =
      std::find_if(m.events.begin(), m.events.end(), [](const auto& e) { return e.resign > 0; });
  ASSERT_NE(resign, m.events.end());
  EXPECT_EQ(resign->resign, 2);
  EXPECT_EQ(resign->resigner, Player::South);
  const MatchRecord back = import_mat(export_mat(m));
  EXPECT_TRUE(back.events == m.events) << export_mat(m);
}

// Found by fuzz_backgammon_formats (tests/fuzz/regressions): a record that ends on a roll not
// yet played (North's opening 41, then nothing) lost that roll through export and import.
TEST(BackgammonMat, ARecordEndingOnARollKeepsIt) {
  const std::string text =
      " 3 point match\n\n Game 1\n a : 0                          b : 0\n"
      "  1)                             41:\n";
  const MatchRecord m = import_mat(text);
  ASSERT_EQ(m.events.size(), 1u);
  EXPECT_TRUE(m.events[0].is_roll);
  const MatchRecord back = import_mat(export_mat(m));
  EXPECT_TRUE(back.events == m.events) << export_mat(m);
  // And after a move: South's 31 played, North's 42 rolled.
  const MatchRecord two = import_mat(
      " 3 point match\n\n Game 1\n a : 0                          b : 0\n"
      "  1) 31: 8/5 6/5                 42:\n");
  EXPECT_TRUE(import_mat(export_mat(two)).events == two.events) << export_mat(two);
}
