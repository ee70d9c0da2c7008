// Resignations: when the engine offers to resign and whether it accepts, in positions whose
// value is plain (bear-offs the databases know exactly).
#include "engine/backgammon_resign.h"

#include <gtest/gtest.h>

#include "engine/engine.h"
#include "eval/backgammon_evaluator.h"
#include "games/backgammon/family.h"
#include "games/registry.h"

namespace naqala::bgresign {
namespace {

using backgammon::Board;
using backgammon::Phase;
using backgammon::Rules;
using backgammon::State;

// South on roll before his roll (cube centred), from each side's point counts (point 25: bar).
State resign_position(std::initializer_list<std::pair<int, int>> south,
                      std::initializer_list<std::pair<int, int>> north, Rules rules = {}) {
  Board b{};
  for (auto [pt, n] : south) b[0][pt - 1] = static_cast<std::uint8_t>(n);
  for (auto [pt, n] : north) b[1][pt - 1] = static_cast<std::uint8_t>(n);
  State s(rules);
  s.set_position(b, Player::South, 0, 0);
  return s;
}

const bgnet::Net& net() {
  return bgeval::shipped_net();
}

// North bears off his last checker next roll whatever South does; South has 10 checkers
// left, 5 off: he can never win, and cannot be gammoned.
State lost_single(Rules rules = {}) {
  return resign_position({{6, 5}, {5, 5}}, {{1, 1}}, rules);
}

TEST(Resignation, AHopelessBearOffOffersASingleAndTheOpponentAccepts) {
  State s = lost_single();
  ASSERT_EQ(s.phase(), Phase::TurnStart);
  EXPECT_NEAR(play_on_value(s, net()), -1.0, 1e-3);
  EXPECT_EQ(offer(s, net()), 1);
  s.offer_resignation(Player::South, 1);
  EXPECT_TRUE(accepts(s, net()));
  // Also after the roll, and in a match (the match-winning chance of a lost single).
  State rolled = lost_single();
  rolled.play(backgammon::Move::of(backgammon::Move::Kind::Roll));
  rolled.apply_chance({6, 5});
  EXPECT_EQ(offer(rolled, net()), 1);
  State match = lost_single(Rules{.match = 7});
  match.set_score(2, 4, false);
  EXPECT_EQ(offer(match, net()), 1);
  match.offer_resignation(Player::South, 1);
  EXPECT_TRUE(accepts(match, net()));
}

TEST(Resignation, GammonChancesDeclineASingleAndAcceptAGammon) {
  // South has all 15 checkers on his 6-point, none off; North bears off next roll: South
  // saves the gammon only with a 6 (11 rolls in 36).
  State s = resign_position({{6, 15}}, {{1, 1}});
  const double v = play_on_value(s, net());
  EXPECT_LT(v, -1.5);
  EXPECT_GT(v, -1.8);
  EXPECT_EQ(offer(s, net()), std::nullopt);  // neither level is what the game is worth
  State single = s;
  single.offer_resignation(Player::South, 1);
  EXPECT_FALSE(accepts(single, net()));
  State gammon = s;
  gammon.offer_resignation(Player::South, 2);
  EXPECT_TRUE(accepts(gammon, net()));
  // Still outside his home board, South cannot save the gammon: he offers one.
  State outside = resign_position({{8, 15}}, {{1, 1}});
  EXPECT_EQ(offer(outside, net()), 2);
  // Three checkers on the bar against North's last two: a backgammon whatever South rolls.
  State deep = resign_position({{25, 3}, {8, 12}}, {{1, 2}});
  State gammon_offered = deep, backgammon_offered = deep;
  gammon_offered.offer_resignation(Player::South, 2);
  EXPECT_FALSE(accepts(gammon_offered, net()));
  backgammon_offered.offer_resignation(Player::South, 3);
  EXPECT_TRUE(accepts(backgammon_offered, net()));
}

TEST(Resignation, SomethingToPlayForOffersNothingAndDeclinedLevelsAreNotRepeated) {
  // An even race: nobody offers; an offered single is a gift the engine takes.
  State even = resign_position({{6, 3}, {5, 2}}, {{6, 3}, {5, 2}});
  EXPECT_EQ(offer(even, net()), std::nullopt);
  even.offer_resignation(Player::South, 1);
  EXPECT_TRUE(accepts(even, net()));
  // A declined single is not offered again in the same turn.
  State s = lost_single();
  s.offer_resignation(Player::South, 1);
  s.play(backgammon::Move::of(backgammon::Move::Kind::Decline));
  EXPECT_EQ(offer(s, net()), std::nullopt);
}

TEST(Resignation, TheCubeScalesWhatIsOfferedAndTheEnginesAnswer) {
  // The cube at 2 on North's side: the lost single is worth 2 points.
  State s = lost_single();
  s.set_cube(2, Player::North);
  ASSERT_EQ(s.phase(), Phase::Rolling);  // South may not double: he rolls
  s.apply_chance({2, 1});
  EXPECT_EQ(offer(s, net()), 1);
  backgammon::BackgammonState state(s);
  state.play("resign single");
  auto game = make_game("backgammon");
  for (const char* spec : {"level:6", "level:8", "alphabeta:depth=1"}) {
    auto engine = engine::make_engine(*game, spec);
    EXPECT_EQ(engine->choose_move(state), "accept") << spec;
  }
  state.play("accept");
  EXPECT_EQ(state.outcome().scores[1], 2);
  // The engines decline a single where North has gammon chances.
  backgammon::BackgammonState gammonish(resign_position({{6, 15}}, {{1, 1}}));
  gammonish.play("resign single");
  for (const char* spec : {"level:6", "level:8"})
    EXPECT_EQ(engine::make_engine(*game, spec)->choose_move(gammonish), "decline") << spec;
  // The offer as the CLI and the server ask for it.
  EXPECT_EQ(engine::resignation_offer(backgammon::BackgammonState(lost_single())), "resign single");
  EXPECT_EQ(engine::resignation_offer(*make_game("kalah")->new_game()), std::nullopt);
}

}  // namespace
}  // namespace naqala::bgresign
