#include <gtest/gtest.h>

#include <set>

#include "core/outcome.h"
#include "core/rng.h"
#include "core/static_vector.h"
#include "core/zobrist.h"

namespace naqala {
namespace {

TEST(Rng, SameSeedSameSequence) {
  Rng a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    auto x = a.next();
    EXPECT_EQ(x, b.next());
    EXPECT_NE(x, c.next());
  }
}

TEST(Rng, BelowStaysInRangeAndCoversIt) {
  Rng rng(7);
  std::array<int, 6> seen{};
  for (int i = 0; i < 6000; ++i) {
    auto v = rng.below(6);
    ASSERT_LT(v, 6u);
    ++seen[v];
  }
  for (int n : seen) EXPECT_GT(n, 800);
}

TEST(Zobrist, KeysAreDistinctAndClampCounts) {
  ZobristTable z(14, 48);
  std::set<std::uint64_t> keys;
  for (int sq = 0; sq < 14; ++sq)
    for (int c = 0; c <= 48; ++c) keys.insert(z.key(sq, c));
  EXPECT_EQ(keys.size(), 14u * 49u);
  EXPECT_EQ(z.key(3, 48), z.key(3, 200));
}

TEST(Outcome, ResultTagsAndReasons) {
  Outcome o{Player::South, {25, 23}, EndReason::Threshold};
  EXPECT_EQ(o.result_tag(), "1-0");
  EXPECT_EQ(o.south_points(), 1.0);
  o.winner.reset();
  EXPECT_EQ(o.result_tag(), "1/2-1/2");
  EXPECT_EQ(to_string(EndReason::CannotFeed), "cannot_feed");
  EXPECT_EQ(end_reason_from_string("cycle"), EndReason::Cycle);
  EXPECT_FALSE(end_reason_from_string("bogus").has_value());
}

TEST(StaticVector, PushContainsClear) {
  StaticVector<int, 8> v{1, 2, 3};
  EXPECT_EQ(v.size(), 3u);
  EXPECT_TRUE(v.contains(2));
  EXPECT_FALSE(v.contains(5));
  v.clear();
  EXPECT_TRUE(v.empty());
}

}  // namespace
}  // namespace naqala
