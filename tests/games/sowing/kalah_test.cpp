// Kalah, Bantumi and the generic "Mancala" sheet (RULES.md 1-3).
#include <gtest/gtest.h>

#include "games/registry.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

using testing::play_pit;
using testing::preset;

TEST(Kalah, StartPosition) {
  auto r = preset("kalah");
  State s = State::initial(*r);
  EXPECT_EQ(s.position(), "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S");
  EXPECT_EQ(r->total_seeds, 48);  // S0:12: 48 seeds, 4 per pit
}

// S0:12 / S4:323: the own store is sown, the opponent's is passed over; last seed in the own
// store gives another move, with no limit.
TEST(Kalah, ExtraTurnWhenLastSeedInOwnStore) {
  auto r = preset("kalah");
  State s = State::initial(*r);
  play_pit(s, 3);  // 4 seeds: pits 4, 5, 6, store
  EXPECT_EQ(s.position(), "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S");
  EXPECT_EQ(s.to_move(), Player::South);
  play_pit(s, 6);  // 5 seeds: store, North 1-4
  EXPECT_EQ(s.to_move(), Player::North);
}

TEST(Kalah, OpponentStoreIsPassedOver) {
  auto r = preset("kalah");
  // South's pit 6 holds 9: store, North 1-6, (North's store skipped), South 1, 2.
  State s = State::from_position(*r, "1,1,1,1,1,9/4,4,4,4,4,4/5,5/S");
  play_pit(s, 6);
  EXPECT_EQ(s.position(), "2,2,1,1,1,0/5,5,5,5,5,5/6,5/N");
}

// S0:12: last seed in an own empty pit with seeds opposite: both go to the store.
TEST(Kalah, CaptureFromOwnEmptyPit) {
  auto r = preset("kalah");
  State s = State::from_position(*r, "1,0,4,4,4,4/4,4,4,4,4,4/4,3/S");
  play_pit(s, 1);  // lands in empty pit 2; opposite is North's pit 5 with 4
  EXPECT_EQ(s.position(), "0,0,4,4,4,4/4,4,4,4,0,4/9,3/N");
}

// S0:12 "e a casa do oponente em frente a essa tiver sementes"; A3 default: no capture if empty.
TEST(Kalah, NoCaptureOppositeEmptyUnlessOption) {
  const char* pos = "1,0,4,4,4,4/4,4,4,4,0,4/6,5/S";
  auto rules_plain = preset("kalah");
  State plain = State::from_position(*rules_plain, pos);
  play_pit(plain, 1);
  EXPECT_EQ(plain.position(), "0,1,4,4,4,4/4,4,4,4,0,4/6,5/N");
  auto r = preset("kalah", {{"empty_capture", "true"}});
  State empty = State::from_position(*r, pos);
  play_pit(empty, 1);
  EXPECT_EQ(empty.position(), "0,0,4,4,4,4/4,4,4,4,0,4/7,5/N");
}

// S0:12: when a player has no seeds in his pits, the other moves his own into his store.
TEST(Kalah, EndWhenARowEmptiesRemainingToOwner) {
  auto r = preset("kalah");
  State s = State::from_position(*r, "0,0,0,0,0,1/1,2,0,0,0,0/20,24/S");
  play_pit(s, 6);  // last seed into the store: South's row is empty
  ASSERT_TRUE(s.is_over());
  const Outcome o = s.outcome();
  EXPECT_EQ(o.reason, EndReason::RowEmpty);
  EXPECT_EQ(o.scores, (std::array<int, 2>{21, 27}));
  EXPECT_EQ(o.winner, Player::North);
}

// S4:325: with 6 seeds (72 stones) more than 36 wins; 36:36 is a draw.
TEST(Kalah, SixSeedsSeventyTwoStonesAndDraw) {
  auto r = preset("kalah", {{"seeds", "6"}});
  EXPECT_EQ(r->total_seeds, 72);
  State s = State::from_position(*r, "0,0,0,0,0,1/0,0,0,0,0,1/35,35/S");
  play_pit(s, 6);
  ASSERT_TRUE(s.is_over());
  EXPECT_TRUE(s.outcome().is_draw());
  EXPECT_EQ(s.outcome().scores, (std::array<int, 2>{36, 36}));
}

TEST(Kalah, SeedCountsThreeToSix) {
  for (int seeds = 3; seeds <= 6; ++seeds)
    EXPECT_EQ(preset("kalah", {{"seeds", std::to_string(seeds)}})->total_seeds, 12 * seeds);
  EXPECT_THROW(preset("kalah", {{"seeds", "7"}}), VariantError);
}

TEST(Kalah, MancalaIsAnAliasOfKalahWithFourSeeds) {
  auto m = make_game("mancala");
  EXPECT_EQ(m->spec(), "kalah");
  EXPECT_EQ(m->new_game()->position(), "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S");
}

// Perft from the start, one sowing = one ply (issue 3's reference counts).
TEST(Kalah, Perft) {
  auto game = make_game("kalah");
  EXPECT_EQ(game->new_game()->perft(8),
            (std::vector<std::uint64_t>{6, 35, 185, 942, 4690, 23233, 114430, 563055}));
}

// S1:103: the game stops at half the seeds + 1: 25 of 48, 31 of 60, 19 of 36.
TEST(Bantumi, ThresholdIsHalfPlusOne) {
  EXPECT_EQ(preset("bantumi")->threshold, 25);
  EXPECT_EQ(preset("bantumi", {{"seeds", "5"}})->threshold, 31);
  EXPECT_EQ(preset("bantumi", {{"seeds", "3"}})->threshold, 19);
  auto r = preset("bantumi");
  State s = State::from_position(*r, "0,0,0,0,1,2/4,4,4,4,1,0/24,4/S");
  play_pit(s, 5);  // into pit 6 (not empty); South is still 24
  EXPECT_FALSE(s.is_over());
  State t = State::from_position(*r, "0,0,0,0,2,1/4,4,4,4,1,0/24,4/S");
  play_pit(t, 6);  // last seed in the store: 25
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().reason, EndReason::Threshold);
  EXPECT_EQ(t.outcome().winner, Player::South);
}

// S1:106-108: the three counting methods when a row empties.
TEST(Bantumi, CountingMethods) {
  const char* pos = "0,0,0,0,0,1/3,3,3,0,0,0/20,18/S";  // South empties his row; North has 9 left
  auto play = [&](const char* method) {
    auto r = preset("bantumi", {{"counting", method}});
    State s = State::from_position(*r, pos);
    play_pit(s, 6);
    EXPECT_TRUE(s.is_over());
    return s.outcome();
  };
  EXPECT_EQ(play("standard").scores, (std::array<int, 2>{21, 27}));  // North keeps his 9
  EXPECT_EQ(play("nokia").scores, (std::array<int, 2>{30, 18}));     // South takes them
  EXPECT_EQ(play("stores").scores, (std::array<int, 2>{21, 18}));    // nobody does
}

// S1:109: on equal stores, whoever ran out of seeds first wins: Bantumi has no draws.
TEST(Bantumi, EqualStoresGoToThePlayerWhoRanOutFirst) {
  const char* pos = "0,0,0,0,0,2/0,0,0,0,0,1/23,22/N";
  auto r = preset("bantumi", {{"counting", "stores"}});
  State s = State::from_position(*r, pos);
  play_pit(s, 6);  // North's last seed goes home: 23-23 and North's row is empty
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().scores, (std::array<int, 2>{23, 23}));
  EXPECT_EQ(s.outcome().winner, Player::North);
  auto k = preset("kalah");  // Kalah counting: South's two seeds go to his store
  State t = State::from_position(*k, pos);
  play_pit(t, 6);
  EXPECT_EQ(t.outcome().scores, (std::array<int, 2>{25, 23}));
  EXPECT_EQ(t.outcome().winner, Player::South);
}

}  // namespace
}  // namespace naqala::sowing
