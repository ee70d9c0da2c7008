// The hand-made network inputs: shot counts against the published table, blocks, escapes,
// primes, and the earlier weight files that lack these inputs.
#include "eval/backgammon_features.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"
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

TEST(BackgammonFeatures, EscapingRollsPastABlock) {
  // Nothing made in front: every roll escapes.
  EXPECT_EQ(escaping_rolls(0), 36);
  // One point made 12 pips in front (bit 0): no two dice make 13 pips; of the doubles only
  // 5-5 (5, 10, 15, 20) does not land on the block (6-6, 4-4 and 3-3 all stop there).
  EXPECT_EQ(escaping_rolls(1u), 1);
  // A six-point prime 1 to 6 pips in front (bits 6..11): nothing escapes.
  EXPECT_EQ(escaping_rolls(0xfc0u), 0);
  // One point made 1 pip in front (bit 11): every roll but 1-1 escapes.
  EXPECT_EQ(escaping_rolls(1u << 11), 35);
}

TEST(BackgammonFeatures, ContainmentContactAndPipLoss) {
  // other holds a full prime on its 2- to 7-points (s's 18- to 23-points) and three checkers
  // on its 9-point: s's checker on its 24-point cannot get past.
  Side s{}, other{};
  s[23] = 1, s[5] = 14;
  for (int i = 1; i <= 6; ++i) other[i] = 2;
  other[8] = 3;
  auto f = side_features(s, other);
  EXPECT_FLOAT_EQ(f[Containment], 1.0f);
  // other's rearmost checker is on s's 16-point: s's checker on its 24-point is 8 pips
  // behind it, the fourteen on s's 6-point are past it.
  EXPECT_FLOAT_EQ(f[Contact], 8 / 100.0f);
  // No contact: no pips to travel, and other's only point (s's 24-point) is behind every
  // checker of s that could be in front of it: nothing contains.
  Side a{}, b{};
  a[0] = 15, b[0] = 15;
  f = side_features(a, b);
  EXPECT_FLOAT_EQ(f[Contact], 0);
  EXPECT_FLOAT_EQ(f[Containment], 0);
  EXPECT_FLOAT_EQ(f[Shots], 0);
  EXPECT_FLOAT_EQ(f[PipLoss], 0);
  // Two blots of s, on its 3-point (22 pips lost when hit) and its 8-point (17 lost), s's
  // 6-point made, and a checker of other on its 24-point (s's 1-point) 2 and 7 pips behind
  // them. The near blot: any 2, and 1-1 (12 rolls), 22 pips each. The far one by the rolls
  // left: 6-1 and 4-3 (4 rolls; 5-5 stops on s's 6-point), 17 pips each.
  Side t{}, u{};
  t[7] = 1, t[2] = 1, t[5] = 13;
  u[23] = 1, u[0] = 14;
  f = side_features(t, u);
  EXPECT_FLOAT_EQ(f[Shots], 16 / 36.0f);
  EXPECT_FLOAT_EQ(f[PipLoss], (22.0f * 12 + 17.0f * 4) / (36 * 24));
}

TEST(BackgammonFeatures, EarlierWeightFilesLoadWithZeroFeatureWeights) {
  // A file of an earlier encoding (the raw inputs alone, or the first generation of
  // hand-made inputs) evaluates as this build's net with zero weights on the inputs it lacks.
  const naqala::testing::ScratchDir dir;
  const std::uint32_t kEarlier[] = {bgnet::kRawInputs, bgnet::kRawInputs + 2 * kGenerationEnd[0]};
  for (const std::uint32_t inputs : kEarlier) {
    bgnet::Net net;
    net.randomize(7);
    for (auto c : {bgnet::PositionClass::Contact, bgnet::PositionClass::Crashed,
                   bgnet::PositionClass::Race}) {
      auto& w1 = net.mlp(c).w1;
      std::fill(w1.begin() + inputs * bgnet::kHidden, w1.end(), 0.0f);
    }
    const std::string now = (dir.path() / "now.bin").string();
    net.save(now);
    // Rewrite it as an earlier file: the input count and the later rows removed.
    std::ifstream f(now, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    bytes.resize(bytes.size() - 8);  // the checksum
    std::memcpy(bytes.data() + 12, &inputs, 4);
    const std::size_t header = 8 + 16 + 8 + 8 + 4 + 4;
    const std::size_t per_net =
        (bgnet::kInputs + 1 + bgnet::kOutputs) * bgnet::kHidden + bgnet::kOutputs;
    const std::size_t cut = (bgnet::kInputs - inputs) * bgnet::kHidden * 4;
    for (int c = bgnet::kNetClasses - 1; c >= 0; --c)
      bytes.erase(header + c * per_net * 4 + inputs * bgnet::kHidden * 4, cut);
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
    for (int k = 0; k < 5; ++k) EXPECT_FLOAT_EQ(a[k], b[k]) << inputs;
  }
  // Any other input count is refused.
  std::string bytes;
  {
    bgnet::Net net;
    const std::string now = (dir.path() / "now.bin").string();
    net.save(now);
    std::ifstream f(now, std::ios::binary);
    bytes.assign((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  }
  bytes.resize(bytes.size() - 8);
  const std::uint32_t odd = bgnet::kRawInputs + 1;
  std::memcpy(bytes.data() + 12, &odd, 4);
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : bytes) h = (h ^ ch) * 0x100000001b3ULL;
  bytes.append(reinterpret_cast<const char*>(&h), 8);
  const std::string odd_file = (dir.path() / "odd.bin").string();
  std::ofstream(odd_file, std::ios::binary) << bytes;
  EXPECT_THROW(bgnet::Net::load(odd_file), Error);
}

}  // namespace
}  // namespace naqala::bgfeatures
