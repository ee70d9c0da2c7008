// Oware abapa (RULES.md 4, A7, A8).
#include <gtest/gtest.h>

#include "games/registry.h"
#include "games/typed_state.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

using testing::play_pit;
using testing::preset;

// S0:16: "if the last seed went into pit 5, leaving three, pit 4 has two, 3 has three, 2 has
// four and 1 has two, the player captures pits 5, 4 and 3: eight points".
TEST(Oware, S0CaptureExampleTakesEight) {
  auto r = preset("oware");
  // South's pit 6 holds 5 seeds and sows North's pits 1-5 (numbered from North's left).
  State s = State::from_position(*r, "3,3,3,3,3,5/1,3,2,1,2,5/7,7/S");
  play_pit(s, 6);
  // After sowing North's row is 2,4,3,2,3,5: pits 5, 4, 3 are taken (3+2+3).
  EXPECT_EQ(s.position(), "3,3,3,3,3,0/2,4,0,0,0,5/15,7/N");
}

// S0:16 / S4:91: never capture on one's own side.
TEST(Oware, NoCaptureInOwnRow) {
  auto r = preset("oware");
  State s = State::from_position(*r, "1,1,4,4,4,4/4,4,4,4,4,4/3,3/S");
  play_pit(s, 1);  // into own pit 2, making 2
  EXPECT_EQ(s.position(), "0,2,4,4,4,4/4,4,4,4,4,4/3,3/N");
}

// S0:15 / S4:92: with 12 or more seeds the origin is passed over.
TEST(Oware, OriginSkippedOnLaps) {
  auto r = preset("oware");
  State s = State::from_position(*r, "12,1,1,1,1,1/1,1,1,1,1,1/13,12/S");
  play_pit(s, 1);  // 11 holes get one each; the 12th seed goes to pit 2, not pit 1
  EXPECT_EQ(s.position(), "0,3,2,2,2,2/2,2,2,2,2,2/13,12/N");
}

// S0:16 (international) vs S4c variants 1 and 3: the grand slam.
TEST(Oware, GrandSlamOptions) {
  const char* pos = "1,0,0,0,0,2/1,1,0,0,0,0/22,21/S";  // pit 6 makes North 2,2: every seed
  {
    auto rules_s = preset("oware");
    State s = State::from_position(*rules_s, pos);
    play_pit(s, 6);
    EXPECT_FALSE(s.is_over());
    EXPECT_EQ(s.position(), "1,0,0,0,0,0/2,2,0,0,0,0/22,21/N");  // captures nothing
  }
  {
    auto rules_s = preset("oware", {{"grand_slam", "capture_all"}});
    State s = State::from_position(*rules_s, pos);
    play_pit(s, 6);
    ASSERT_TRUE(s.is_over());
    EXPECT_EQ(s.outcome().reason, EndReason::GrandSlam);
    EXPECT_EQ(s.outcome().scores, (std::array<int, 2>{27, 21}));  // 4 captured + his own 1
  }
  {
    auto r = preset("oware", {{"grand_slam", "forbidden"}});
    State s = State::from_position(*r, "0,0,0,1,0,2/1,1,0,0,0,0/21,22/S");
    State::MoveList moves;
    s.legal_moves(moves);
    EXPECT_FALSE(moves.contains(5));  // pit 6 would be a grand slam
    EXPECT_TRUE(moves.contains(3));
    // Every move a grand slam: the player takes every seed left and the game ends.
    State forced = State::from_position(*r, "0,0,0,0,0,2/1,1,0,0,0,0/22,22/S");
    ASSERT_TRUE(forced.is_over());
    EXPECT_EQ(forced.outcome().reason, EndReason::GrandSlam);
    EXPECT_EQ(forced.outcome().scores, (std::array<int, 2>{26, 22}));
  }
}

// S4:92, 143, 331: a starving opponent must be fed if any move can.
TEST(Oware, MustFeed) {
  auto r = preset("oware");
  State s = State::from_position(*r, "1,0,0,3,1,2/0,0,0,0,0,0/20,21/S");
  State::MoveList moves;
  s.legal_moves(moves);
  // Pit 4 (3 seeds) reaches North; pit 6 (2 seeds) too; pits 1 and 5 stay home.
  EXPECT_EQ(moves.size(), 2u);
  EXPECT_TRUE(moves.contains(3));
  EXPECT_TRUE(moves.contains(5));
}

// S4c:331: if no move feeds, the game ends and the player who cannot feed takes the rest.
TEST(Oware, CannotFeedEndsTheGame) {
  auto r = preset("oware");
  State s = State::from_position(*r, "3,0,0,0,0,0/0,0,0,0,0,1/22,22/N");
  play_pit(s, 6);  // North's last seed makes South's pit 1 hold 4; North's row is empty
  // South to move: his 4 seeds reach pit 5 at most and cannot feed North.
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().reason, EndReason::CannotFeed);
  EXPECT_EQ(s.outcome().scores, (std::array<int, 2>{26, 22}));
}

// S0:17 / S4:93: 25 wins and ends the game; 24-24 is a draw.
TEST(Oware, TwentyFiveWinsAndTwentyFourAllDraws) {
  auto r = preset("oware");
  State s = State::from_position(*r, "0,0,0,0,0,1/1,3,3,3,3,3/23,8/S");
  play_pit(s, 6);  // North's pit 1 makes 2: captured, 25
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().winner, Player::South);
  EXPECT_EQ(s.outcome().reason, EndReason::Threshold);
  // 24-24 needs every seed stored; here South cannot feed and takes his last four.
  State d = State::from_position(*r, "3,0,0,0,0,0/0,0,0,0,0,1/20,24/N");
  play_pit(d, 6);
  ASSERT_TRUE(d.is_over());
  EXPECT_TRUE(d.outcome().is_draw());
  EXPECT_EQ(d.outcome().scores, (std::array<int, 2>{24, 24}));
}

// S0:15's extra rule (option skip_12): pits holding 12 or more are passed over.
TEST(Oware, Skip12Option) {
  const char* pos = "0,0,0,0,0,2/12,1,1,1,1,1/11,18/S";
  auto rules_plain = preset("oware");
  State plain = State::from_position(*rules_plain, pos);
  play_pit(plain, 6);
  EXPECT_EQ(plain.position(), "0,0,0,0,0,0/13,0,1,1,1,1/13,18/N");  // pit 2 made 2: taken
  auto rules_skip = preset("oware", {{"skip_12", "true"}});
  State skip = State::from_position(*rules_skip, pos);
  play_pit(skip, 6);
  EXPECT_EQ(skip.position(), "0,0,0,0,0,0/12,0,0,1,1,1/15,18/N");  // 12-pit passed; pits 3, 2 taken
}

// A8: an endless cycle ends the game; each player takes his side (default) or it is a draw.
TEST(Oware, RepeatedPositionEndsTheGame) {
  for (const char* rule : {"owner", "draw"}) {
    auto game = make_game(std::string("oware:cycle=") + rule);
    // One seed each, six pits apart: every move is forced and they chase each other round
    // the board without ever landing together, so the position comes back.
    auto s = game->from_position("0,0,0,0,0,1/0,0,0,0,0,1/23,23/S");
    int plies = 0;
    while (!s->is_over() && plies < 100) {
      s->play(s->legal_moves().front());
      ++plies;
    }
    ASSERT_TRUE(s->is_over()) << rule;
    EXPECT_EQ(s->outcome().reason, EndReason::Cycle);
    if (std::string(rule) == "draw")
      EXPECT_TRUE(s->outcome().is_draw());
    else
      EXPECT_EQ(s->outcome().scores[0] + s->outcome().scores[1], 48);
  }
}

TEST(Oware, Perft) {
  auto game = make_game("oware");
  EXPECT_EQ(game->new_game()->perft(8),
            (std::vector<std::uint64_t>{6, 36, 190, 1014, 5219, 27332, 139157, 711414}));
}

}  // namespace
}  // namespace naqala::sowing
