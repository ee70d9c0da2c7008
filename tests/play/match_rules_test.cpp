// The match rules read from each variant's declared data (src/play/match_rules.h, clocks.h)
// and match scoring (match_scoring.h).
#include "play/match_rules.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "games/registry.h"
#include "games/sowing/rules_toml.h"
#include "play/clocks.h"
#include "play/match_scoring.h"

namespace naqala::play {
namespace {

TEST(MatchRules, EveryVariantDeclaresReadableRules) {
  for (const auto& v : list_variants()) EXPECT_NO_THROW(match_rules(v)) << v.name;
}

TEST(MatchRules, TheSeedsTournamentRules) {
  const MatchRules oware = match_rules(make_game("oware")->info());
  EXPECT_EQ(oware.clock_ms, 20 * 60000);
  EXPECT_EQ(oware.game_cap_ms, 0);
  EXPECT_EQ(oware.best_of, (std::vector<int>{3, 5, 7}));
  EXPECT_EQ(oware.match_draw, MatchDraw::BothWin);
  EXPECT_EQ(oware.draw_offers, 0);
  // An option does not change the match rules.
  EXPECT_EQ(match_rules(make_game("oware:grand_slam=forbidden")->info()).match_draw,
            MatchDraw::BothWin);

  const MatchRules toguz = match_rules(make_game("toguz")->info());
  EXPECT_EQ(toguz.clock_ms, 60 * 60000);
  EXPECT_EQ(toguz.game_cap_ms, 120 * 60000);
  EXPECT_EQ(toguz.draw_offers, 3);
  EXPECT_EQ(toguz.knockout_tie, KnockoutTie::AllResults);
  EXPECT_EQ(toguz.match_draw, MatchDraw::Half);

  EXPECT_EQ(match_rules(make_game("mangala")->info()).best_of, (std::vector<int>{5, 7, 9}));
  EXPECT_EQ(match_rules(make_game("backgammon")->info()).match_to, std::vector<int>{10});
  const MatchRules kalah = match_rules(make_game("kalah")->info());
  EXPECT_EQ(kalah.clock_ms, 0);
  EXPECT_TRUE(kalah.best_of.empty());
  EXPECT_EQ(kalah.knockout_tie, KnockoutTie::Replay);
}

TEST(MatchRules, BadDataSaysWhatIsAllowed) {
  VariantInfo v;
  v.name = "mine";
  auto data = [](nlohmann::json j) { return std::make_shared<const nlohmann::json>(j); };
  v.tournament = data({{"best_of", {4}}});
  try {
    match_rules(v);
    FAIL() << "best_of 4 accepted";
  } catch (const VariantError& e) {
    EXPECT_NE(std::string(e.what()).find("mine: tournament.best_of: must be a list of odd"),
              std::string::npos)
        << e.what();
  }
  v.tournament = data({{"clock", 5}});
  EXPECT_THROW(match_rules(v), VariantError);
  v.tournament = data({{"match_draw", "coin"}});
  EXPECT_THROW(match_rules(v), VariantError);
  v.tournament = data({{"game_cap_seconds", 60}});  // a cap without a clock
  EXPECT_THROW(match_rules(v), VariantError);
}

TEST(MatchRules, VariantFilesCheckTheTournamentTable) {
  const std::string base = "name = \"mine\"\n[board]\npits = 6\nseeds = 4\n[tournament]\n";
  const auto rules =
      sowing::load_rules(base + "clock_seconds = 600\nbest_of = [1, 3]\n", "mine.toml", {});
  ASSERT_TRUE(rules->tournament);
  EXPECT_EQ(rules->tournament->at("clock_seconds"), 600);
  EXPECT_EQ(rules->tournament->at("best_of"), nlohmann::json::array({1, 3}));
  try {
    sowing::load_rules(base + "clock = 5\n", "mine.toml", {});
    FAIL() << "an unknown key accepted";
  } catch (const VariantError& e) {
    EXPECT_NE(std::string(e.what()).find("mine.toml:6: tournament.clock: unknown key"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(sowing::load_rules(base + "match_draw = \"coin\"\n", "mine.toml", {}), VariantError);
}

TEST(MatchRules, InPlainEnglish) {
  EXPECT_EQ(match_rules_text(match_rules(make_game("oware")->info())),
            "Tournament play: A chess clock of 20 minutes per player; a fallen flag loses the "
            "game. Matches are best of 3, 5 or 7 games. In a match a drawn game counts as a win "
            "for each player.");
  const std::string toguz = match_rules_text(match_rules(make_game("toguz")->info()));
  EXPECT_NE(toguz.find("stopped after 120 minutes"), std::string::npos) << toguz;
  EXPECT_NE(toguz.find("at most 3 times a game"), std::string::npos) << toguz;
  EXPECT_NE(toguz.find("whole tournament so far"), std::string::npos) << toguz;
  EXPECT_EQ(match_rules_text(match_rules(make_game("kalah")->info())), "");
}

TEST(Clocks, PresetsComeFromTheRules) {
  EXPECT_EQ(clock_preset_list(), "none, oware (20 min), toguz (60 min, game capped at 2 hours)");
  const auto oware = find_clock_preset("oware");
  ASSERT_TRUE(oware);
  EXPECT_EQ(to_json(*oware),
            (nlohmann::json{
                {"initial_ms", 1200000}, {"increment_ms", 0}, {"cap_ms", 0}, {"preset", "oware"}}));
  EXPECT_FALSE(find_clock_preset("blitz"));
  EXPECT_EQ(to_json(custom_clock(5, 2))["initial_ms"], 300000);
  EXPECT_EQ(clock_presets_json().size(), 2u);
}

TEST(MatchScoring, OwareDrawnGamesCountAsAWinForEach) {
  MatchScore m{3, MatchDraw::BothWin};
  score_game(m, std::nullopt);
  EXPECT_EQ(m.points_a, 1);
  EXPECT_EQ(m.points_b, 1);
  EXPECT_FALSE(m.over);
  score_game(m, std::nullopt);
  EXPECT_FALSE(m.over);  // 2-2: a majority each, but nobody leads
  score_game(m, 1);
  EXPECT_TRUE(m.over);
  EXPECT_EQ(match_winner(m), 1);
  EXPECT_EQ(m.points_b, 3);
}

TEST(MatchScoring, HalfPointDrawsAndEarlyFinish) {
  MatchScore m{5, MatchDraw::Half};
  score_game(m, 0);
  score_game(m, std::nullopt);
  score_game(m, 0);
  EXPECT_FALSE(m.over);  // 2.5 of a majority of 3
  score_game(m, 0);
  EXPECT_TRUE(m.over);
  EXPECT_EQ(m.points_a, 3.5);
  EXPECT_EQ(match_winner(m), 0);

  MatchScore tied{1, MatchDraw::Half};
  score_game(tied, std::nullopt);
  EXPECT_TRUE(tied.over);  // after best_of games, even when tied
  EXPECT_EQ(match_winner(tied), std::nullopt);
  EXPECT_TRUE(valid_best_of(7));
  EXPECT_FALSE(valid_best_of(4));
  EXPECT_FALSE(valid_best_of(11));
}

}  // namespace
}  // namespace naqala::play
