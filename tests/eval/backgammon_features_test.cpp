// The hand-made network inputs: shot counts against the published table, blocks, escapes,
// primes, and the earlier weight files that lack these inputs.
#include "eval/backgammon_features.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "eval/backgammon_net.h"
#include "scratch_dir.h"

namespace naqala::bgfeatures {
namespace {

TEST(BackgammonFeatures, ShotsByDistanceMatchTheTable) {
  // Rolls of 36 that hit a blot d pips away with nothing in the way: the table every
  // backgammon primer prints (for example Magriel, "Backgammon", 1976, chapter on hitting).
  const int kShots[25] = {0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3,
                          0, 0,  1,  1,  0,  1,  0,  1, 0, 0, 0, 1};
  for (int d = 1; d <= 24; ++d) EXPECT_EQ(rolls_reaching(1u << d, 1u, 0), kShots[d]) << d;
}

TEST(BackgammonFeatures, BlockedPointsStopCombinationShots) {
  // 8 away with the point 4 pips in front blocked: 4-4 and 2-2 cannot go through it; 6-2
  // and 5-3 still hit.
  EXPECT_EQ(rolls_reaching(1u << 8, 1u, 1u << 4), 4);
  // A blocked target is never reached.
  EXPECT_EQ(rolls_reaching(1u << 8, 1u, 1u), 0);
}

TEST(BackgammonFeatures, ShotsEscapesAndPrimesOfAPosition) {
  // s: a blot on its 7-point (index 6), fourteen checkers on its 4-point (index 3).
  // other: one checker on its 24-point (index 23, six pips from the blot), fourteen on its
  // 1-point (index 0, behind every checker of s).
  Side s{}, other{};
  s[6] = 1, s[3] = 14;
  other[23] = 1, other[0] = 14;
  const auto fs = side_features(s, other);
  // Every way to hit from six pips away except 3-3, whose first stop is s's 4-point.
  EXPECT_FLOAT_EQ(fs[Shots], 16 / 36.0f);
  EXPECT_FLOAT_EQ(fs[Escapes], 1.0f);  // nothing of other's in front of s's rearmost
  EXPECT_FLOAT_EQ(fs[Prime], 1 / 6.0f);
  const auto fo = side_features(other, s);
  // other's blot on s's 1-point, 3 and 6 pips in front of s's checkers: any 3 or 6, and 1-2,
  // 1-1, 5-1, 4-2, 2-2.
  EXPECT_FLOAT_EQ(fo[Shots], 28 / 36.0f);
  // other's rearmost must pass s's 4-point (its 21-point): 1-1, 1-2, 2-1 and 3-3 stay behind.
  EXPECT_FLOAT_EQ(fo[Escapes], 32 / 36.0f);
  // A checker on the bar shoots first: the blot is then 7 pips from the bar (6-1, 5-2, and
  // 4-3 by the 3 first, as the 4 lands on s's point), not 6 from other's back checker.
  other[backgammon::kBar] = 1, other[0] = 13;
  EXPECT_FLOAT_EQ(side_features(s, other)[Shots], 6 / 36.0f);
}

TEST(BackgammonFeatures, EarlierWeightFilesLoadWithZeroFeatureWeights) {
  // A file of the raw encoding (bgnet::kRawInputs inputs) evaluates as this build's net with
  // zero weights on the hand-made inputs.
  const naqala::testing::ScratchDir dir;
  bgnet::Net net;
  net.randomize(7);
  for (auto c :
       {bgnet::PositionClass::Contact, bgnet::PositionClass::Crashed, bgnet::PositionClass::Race}) {
    auto& w1 = net.mlp(c).w1;
    std::fill(w1.begin() + bgnet::kRawInputs * bgnet::kHidden, w1.end(), 0.0f);
  }
  const std::string now = (dir.path() / "now.bin").string();
  net.save(now);
  // Rewrite it as an earlier file: the input count and the feature rows removed.
  std::ifstream f(now, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  bytes.resize(bytes.size() - 8);  // the checksum
  const std::uint32_t raw = bgnet::kRawInputs;
  std::memcpy(bytes.data() + 12, &raw, 4);
  const std::size_t header = 8 + 16 + 8 + 8 + 4 + 4;
  const std::size_t per_net =
      (bgnet::kInputs + 1 + bgnet::kOutputs) * bgnet::kHidden + bgnet::kOutputs;
  const std::size_t cut = (bgnet::kInputs - bgnet::kRawInputs) * bgnet::kHidden * 4;
  for (int c = bgnet::kNetClasses - 1; c >= 0; --c)
    bytes.erase(header + c * per_net * 4 + raw * bgnet::kHidden * 4, cut);
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, as the file format says
  for (unsigned char ch : bytes) h = (h ^ ch) * 0x100000001b3ULL;
  bytes.append(reinterpret_cast<const char*>(&h), 8);
  const std::string earlier = (dir.path() / "earlier.bin").string();
  std::ofstream(earlier, std::ios::binary) << bytes;
  const bgnet::Net back = bgnet::Net::load(earlier);
  Side me{}, opp{};
  me[5] = 5, me[7] = 3, me[12] = 5, me[23] = 1, me[17] = 1;
  opp[5] = 5, opp[7] = 3, opp[12] = 5, opp[23] = 2;
  const auto a = net.evaluate(me, opp), b = back.evaluate(me, opp);
  for (int k = 0; k < 5; ++k) EXPECT_FLOAT_EQ(a[k], b[k]);
}

}  // namespace
}  // namespace naqala::bgfeatures
