#include <gtest/gtest.h>

#include <set>

#include "core/outcome.h"
#include "core/rng.h"
#include "core/static_vector.h"
#include "core/zeroed_table.h"
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

TEST(ZeroedTable, IsZeroAlignedAndZeroAgainAfterClear) {
  struct Entry {
    std::uint64_t key;
    std::uint32_t value, pad;
  };
  naqala::ZeroedTable<Entry> table((3 << 20) / sizeof(Entry) + 5);  // not a whole 2 MiB
  ASSERT_TRUE(table);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(table.get()) % (2 << 20), 0u);
  for (std::size_t i = 0; i < table.size(); i += 4097) EXPECT_EQ(table[i].key, 0u);
  const std::size_t last = table.size() - 1;
  table[0] = {7, 8, 0};
  table[last] = {9, 10, 0};
  EXPECT_EQ(table[last].value, 10u);
  naqala::ZeroedTable<Entry> moved = std::move(table);
  EXPECT_FALSE(table);
  EXPECT_EQ(moved[0].key, 7u);
  moved.clear();
  EXPECT_EQ(moved[0].key, 0u);
  EXPECT_EQ(moved[last].value, 0u);
}
