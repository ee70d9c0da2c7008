// Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system".
#include "play/glicko2.h"

#include <gtest/gtest.h>

namespace naqala::play {
namespace {

TEST(Glicko2, GlickmansWorkedExample) {
  // A player at 1500, RD 200, volatility 0.06 beats a 1400 (RD 30) and loses to a 1550
  // (RD 100) and a 1700 (RD 300), with tau 0.5.
  const Glicko2Rating after =
      glicko2_update({1500, 200, 0.06},
                     {{{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}}, 0.5);
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Glicko2Rating after = glicko2_update({1600, 100, 0.06}, {});
  EXPECT_EQ(after.rating, 1600);
  EXPECT_EQ(after.volatility, 0.06);
  EXPECT_GT(after.deviation, 100);
  EXPECT_LT(after.deviation, 101);
  EXPECT_EQ(glicko2_update({1600, 349.99, 0.06}, {}).deviation, 350);
}

TEST(Glicko2, WinsRaiseAndLossesLower) {
  const Glicko2Rating p{1500, 350, 0.06};
  const Glicko2Rating even{1500, 350, 0.06};
  EXPECT_GT(glicko2_update(p, {{even, 1}}).rating, 1500);
  EXPECT_LT(glicko2_update(p, {{even, 0}}).rating, 1500);
  EXPECT_NEAR(glicko2_update(p, {{even, 0.5}}).rating, 1500, 1e-9);
  EXPECT_LT(glicko2_update(p, {{even, 0.5}}).deviation, 350);
}

}  // namespace
}  // namespace naqala::play
