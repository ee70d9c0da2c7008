// Bear-off databases against brute force on small checker counts.
#include "eval/backgammon_bearoff.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>

namespace naqala::bearoff {
namespace {

using backgammon::Board;
using backgammon::MoveList;

Side side_of(std::initializer_list<int> counts) {
  Side s{};
  int i = 0;
  for (int c : counts) s[i++] = static_cast<std::uint8_t>(c);
  return s;
}

// Every roll with its weight, and the positions each legal move reaches.
template <class F>
void for_each_roll(const Side& s, F f) {
  auto moves = std::make_unique<MoveList>();
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= a; ++b) {
      Board board{s, Side{}};
      backgammon::generate_moves(board, Player::South, a, b, *moves);
      std::vector<Side> next;
      for (const auto& m : *moves) {
        Board after = board;
        backgammon::apply_steps(after, Player::South, m);
        next.push_back(after[0]);
      }
      f(a == b ? 1.0 / 36 : 2.0 / 36, next);
    }
}

bool empty(const Side& s) {
  for (int i = 0; i < 6; ++i)
    if (s[i]) return false;
  return true;
}

// Expected rolls to bear off, by plain recursion (no tables, no ordering; positions already
// solved are remembered).
double brute_expected(const Side& s) {
  if (empty(s)) return 0;
  static std::map<Side, double> known;
  if (auto it = known.find(s); it != known.end()) return it->second;
  double e = 1;
  for_each_roll(s, [&](double w, const std::vector<Side>& next) {
    double best = 1e9;
    for (const Side& n : next) best = std::min(best, brute_expected(n));
    e += w * best;
  });
  return known[s] = e;
}

// Winning chance of the side on roll, by plain recursion (remembering positions already
// solved, or the test would take minutes).
double brute_win(const Side& me, const Side& opp) {
  static std::map<std::pair<Side, Side>, double> known;
  if (auto it = known.find({me, opp}); it != known.end()) return it->second;
  double v = 0;
  for_each_roll(me, [&](double w, const std::vector<Side>& next) {
    double best = 0;
    for (const Side& n : next) best = std::max(best, empty(n) ? 1.0 : 1 - brute_win(opp, n));
    v += w * best;
  });
  return known[{me, opp}] = v;
}

TEST(Bearoff, OneSidedExpectedRollsMatchBruteForceUpToThreeCheckers) {
  int checked = 0;
  for (int a = 0; a < 6; ++a)
    for (int b = a; b < 6; ++b)
      for (int c = b; c < 6; ++c) {
        Side s{};
        ++s[a], ++s[b], ++s[c];
        EXPECT_NEAR(one_sided().expected_rolls(rank(s)), brute_expected(s), 1e-4)
            << a + 1 << " " << b + 1 << " " << c + 1;
        ++checked;
      }
  EXPECT_EQ(checked, 56);
}

TEST(Bearoff, OneSidedDistributionsSumToOne) {
  const OneSided& db = one_sided();
  ASSERT_EQ(db.off.size(), static_cast<std::size_t>(kOneSidedPositions));
  for (std::size_t i = 0; i < db.off.size(); i += 97) {
    double sum = 0, first = 0;
    for (int n = 0; n < kMaxRolls; ++n) sum += db.off[i][n], first += db.first_off[i][n];
    EXPECT_NEAR(sum, 1, 1e-4) << i;
    EXPECT_NEAR(first, 1, 1e-4) << i;
  }
  // Fifteen checkers on the six-point: the slowest bear-off still ends well inside the table.
  const auto& worst = db.off[rank(side_of({0, 0, 0, 0, 0, 15}))];
  EXPECT_EQ(worst[kMaxRolls - 1], 0.0f);
  EXPECT_GT(db.expected_rolls(rank(side_of({0, 0, 0, 0, 0, 15}))), 10);
}

TEST(Bearoff, RanksAreABijection) {
  std::vector<bool> seen(kOneSidedPositions, false);
  int n = 0;
  std::function<void(Side&, int, int)> walk = [&](Side& s, int point, int left) {
    if (point == 6) {
      const int r = rank(s);
      ASSERT_GE(r, 0);
      ASSERT_LT(r, kOneSidedPositions);
      EXPECT_FALSE(seen[r]);
      seen[r] = true;
      ++n;
      return;
    }
    for (int c = 0; c <= left; ++c) {
      s[point] = static_cast<std::uint8_t>(c);
      walk(s, point + 1, left - c);
    }
    s[point] = 0;
  };
  Side s{};
  walk(s, 0, 15);
  EXPECT_EQ(n, kOneSidedPositions);
}

TEST(Bearoff, TwoSidedMatchesBruteForceUpToTwoCheckersEach) {
  std::vector<Side> small;
  for (int a = 0; a < 6; ++a) {
    Side s{};
    ++s[a];
    small.push_back(s);
    for (int b = a; b < 6; ++b) {
      Side t = s;
      ++t[b];
      small.push_back(t);
    }
  }
  for (const Side& me : small)
    for (std::size_t j = 0; j < small.size(); j += 3) {
      const Side& opp = small[j];
      EXPECT_NEAR(two_sided().at(rank(me, 6), rank(opp, 6)), brute_win(me, opp), 1e-5);
    }
}

TEST(Bearoff, TheIssuesTwentyThreePipPositionBearsOffWithDoubleTwos) {
  // 23 pips each; with 2-2 the right play bears two checkers off from the 4-point rather than
  // shuffling: its winning chance must be the best of the moves.
  const Side me = side_of({0, 1, 1, 3, 0, 1});   // 2 + 3 + 12 + 6 = 23
  const Side opp = side_of({1, 2, 1, 1, 1, 1});  // 1 + 4 + 3 + 4 + 5 + 6 = 23
  auto moves = std::make_unique<MoveList>();
  Board board{me, opp};
  backgammon::generate_moves(board, Player::South, 2, 2, *moves);
  double best = -1;
  int best_off = -1;
  for (const auto& m : *moves) {
    Board after = board;
    backgammon::apply_steps(after, Player::South, m);
    const auto p = evaluate(after[1], after[0]);
    ASSERT_TRUE(p.has_value());
    const double mine = 1 - p->p[0];
    if (mine > best) best = mine, best_off = backgammon::checkers_off(after[0]);
  }
  EXPECT_GE(best_off, 2);
}

TEST(Bearoff, GammonChances) {
  // Two checkers on the ace point against fifteen on the six-point: gone in one roll before
  // the opponent rolls at all, a sure gammon.
  const auto sure = evaluate(side_of({2}), side_of({0, 0, 0, 0, 0, 15}));
  ASSERT_TRUE(sure.has_value());
  EXPECT_FLOAT_EQ(sure->p[0], 1);
  EXPECT_FLOAT_EQ(sure->p[1], 1);
  // The other way round the side on roll loses the gammon unless his one roll bears a
  // checker off the six-point: any 6 (11 rolls), 5-1 and 4-2 (2 each), 3-3 and 2-2: 17 of 36.
  const auto lost = evaluate(side_of({0, 0, 0, 0, 0, 15}), side_of({2}));
  ASSERT_TRUE(lost.has_value());
  EXPECT_NEAR(lost->p[3], 19.0 / 36, 1e-5);
  // Gammons need fifteen checkers left; someone with a checker outside is no bear-off.
  const auto none = evaluate(side_of({2, 2, 2}), side_of({3, 3, 3}));
  EXPECT_EQ(none->p[1], 0);
  EXPECT_EQ(none->p[3], 0);
  EXPECT_EQ(evaluate(side_of({1}), side_of({0, 0, 0, 0, 0, 0, 1})), std::nullopt);
}

}  // namespace
}  // namespace naqala::bearoff
