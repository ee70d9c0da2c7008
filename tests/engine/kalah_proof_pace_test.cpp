// Where a timed Kalah engine tries its root proof beyond the database
// (engine/kalah_proof_pace.h): a ceiling above the database that grows with the proof's time,
// longer waits after failures, a proof resets them. No clock is read.
#include "engine/kalah_proof_pace.h"

#include <gtest/gtest.h>

namespace naqala::engine {
namespace {

TEST(KalahProofPace, TheCeilingGrowsWithTheDatabaseAndTheTime) {
  EXPECT_EQ(KalahProofPace::ceiling(24, 0.05), 40);  // 0.1 s a move, the 24-seed database
  EXPECT_EQ(KalahProofPace::ceiling(12, 0.05), 28);
  EXPECT_EQ(KalahProofPace::ceiling(12, 0.1), 30);
  // 1 s a move (docs/solving.md's check, positions of up to 30 seeds): all of them tried.
  EXPECT_EQ(KalahProofPace::ceiling(12, 0.5), 34);
  EXPECT_EQ(KalahProofPace::ceiling(24, 300), 24 + 41);
  // A tiny share (a clock's hundredth) is never below the database.
  EXPECT_EQ(KalahProofPace::ceiling(24, 0.0001), 24);
  EXPECT_EQ(KalahProofPace::ceiling(24, 0), 24);
}

TEST(KalahProofPace, FailuresWaitLongerAndAProofStartsAgain) {
  KalahProofPace pace;
  EXPECT_FALSE(pace.should_try(41, 24, 0.05));  // above the ceiling
  EXPECT_TRUE(pace.should_try(40, 24, 0.05));
  pace.failed(40);
  EXPECT_FALSE(pace.should_try(39, 24, 0.05));  // the first failure waits 2 seeds
  pace.proven();
  EXPECT_TRUE(pace.should_try(36, 24, 0.05));
  EXPECT_FALSE(pace.should_try(30, 24, 0));  // no time: never beyond the database
  pace.failed(36);
  EXPECT_FALSE(pace.should_try(35, 24, 0.05));  // the first failure waits 2 seeds
  EXPECT_TRUE(pace.should_try(34, 24, 0.05));
  pace.failed(34);
  EXPECT_FALSE(pace.should_try(31, 24, 0.05));  // the next ones 4
  EXPECT_TRUE(pace.should_try(30, 24, 0.05));
  pace.failed(29);
  EXPECT_FALSE(pace.should_try(26, 24, 0.05));
  EXPECT_TRUE(pace.should_try(25, 24, 0.05));
  pace.proven();
  EXPECT_TRUE(pace.should_try(40, 24, 0.05));  // back to the ceiling
  pace.failed(33);
  EXPECT_FALSE(pace.should_try(32, 24, 0.05));  // the first failure since the proof: 2
  EXPECT_TRUE(pace.should_try(31, 24, 0.05));
  pace.new_game();
  EXPECT_TRUE(pace.should_try(40, 24, 0.05));
  EXPECT_FALSE(pace.should_try(41, 24, 0.05));
}

}  // namespace
}  // namespace naqala::engine
