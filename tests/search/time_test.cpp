// Time use, on a fake clock: the search reads a clock that moves on by a fixed step at every
// read, so these tests do not depend on the machine's speed or load.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "eval/sowing_eval.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"
#include "sanitized.h"
#include "search/alphabeta.h"

namespace naqala::search {
namespace {

using sowing::State;
using Search = AlphaBeta<State, eval::SowingEval>;

std::shared_ptr<const sowing::Rules> preset_rules(const std::string& name) {
  for (const auto& p : sowing::presets())
    if (p.name == name) return sowing::load_rules(p.toml, name, {});
  ADD_FAILURE() << "no preset " << name;
  return nullptr;
}

// A clock that advances `step` seconds each time it is read.
struct FakeClock {
  double now = 0;
  double step;
  double operator()() { return now += step; }
};

// Oware's first move searched for `seconds` by `clock`.
template <class Clock>
Search::Result search_opening(const std::shared_ptr<Clock>& clock, double seconds) {
  const auto rules = preset_rules("oware");
  Search search{eval::SowingEval(*rules)};
  search.set_clock([clock] { return (*clock)(); });
  Limits limits;
  limits.seconds = seconds;
  return search.search(State::initial(*rules), limits);
}

TEST(TimeManagement, UsesMostOfATimePerMoveAndNeverMore) {
  for (double seconds : {0.02, 0.1, 1.0, 5.0}) {
    const auto r =
        search_opening(std::make_shared<FakeClock>(FakeClock{0, seconds / 500}), seconds);
    ASSERT_TRUE(r.has_move);
    EXPECT_FALSE(r.exact);
    EXPECT_GE(r.seconds, 0.9 * seconds) << seconds;
    EXPECT_LE(r.seconds, seconds) << seconds;
  }
}

// A loaded machine's clock: every `every`-th read comes after a wait of `wait` on top of the
// step (the process waited for a core), and the read at `stall_at` after one of `stall`.
struct WaitingClock {
  double now = 0;
  double step;
  int every;
  double wait;
  int stall_at;
  double stall;
  int reads = 0;
  double operator()() {
    ++reads;
    now += step;
    if (reads % every == 0) now += wait;
    if (reads == stall_at) now += stall;
    return now;
  }
};

// Waits for a core do not stop the search early: one long wait half-way (a quarter of the
// time) and short ones every few polls still leave 90% of the time used, and no more than all.
// (The rule that took the last gap for the next stopped these at 0.75 of the time.)
TEST(TimeManagement, AWaitForACoreDoesNotStopTheSearchEarly) {
  for (double seconds : {0.01, 0.1, 1.0}) {
    const double step = seconds / 500;
    auto clock =
        std::make_shared<WaitingClock>(WaitingClock{0, step, 16, 3 * step, 200, 0.25 * seconds});
    const auto r = search_opening(clock, seconds);
    ASSERT_TRUE(r.has_move);
    EXPECT_FALSE(r.exact);
    EXPECT_GT(clock->reads, 200) << seconds;  // the long wait came
    EXPECT_GE(r.seconds, 0.9 * seconds) << seconds;
    EXPECT_LE(clock->now, seconds) << seconds;
  }
}

TEST(TimeManagement, SharesTheClockAndKeepsAReserve) {
  EXPECT_NEAR(time_for_move(10, 0), 9.5 / 25, 1e-9);
  EXPECT_NEAR(time_for_move(10, 1), 9.5 / 25 + 0.8, 1e-9);
  EXPECT_NEAR(time_for_move(10, 0, 50), 9.5 / 50, 1e-9);
  // Fewer moves left: more for each.
  EXPECT_GT(time_for_move(60, 0, 10), time_for_move(60, 0, 40));
  for (double remaining : {0.0001, 0.003, 0.01, 0.05, 1.0, 100.0})
    for (double increment : {0.0, 0.001, 0.1, 5.0})
      for (int moves_left : {0, 1, 5, 100}) {
        const double t = time_for_move(remaining, increment, moves_left);
        EXPECT_GT(t, 0);
        EXPECT_LE(t, remaining / 3 + 1e-12) << remaining << " " << increment;
      }
}

// Whole games on small clocks, charged by the fake clock: every move that is not proven uses
// at least 90% of its budget, and the flag never falls. Under the sanitizers only the clock
// with an increment (the smaller start), each game as long, and each poll of the clock costs
// twice the time: half the nodes for the same budgets, still 25 polls for the smallest (2 ms).
TEST(TimeManagement, NeverLosesOnTimeAndUsesItsBudget) {
  std::vector<std::pair<double, double>> clocks{{0.2, 0.005}};
  if (!naqala::testing::kSanitized) clocks.push_back({0.5, 0.0});
  for (const char* preset : {"kalah", "oware"}) {
    for (const auto& [start, increment] : clocks) {
      const auto rules = preset_rules(preset);
      State s = State::initial(*rules);
      Search search{eval::SowingEval(*rules)};
      const double step = naqala::testing::kSanitized ? 0.00008 : 0.00004;
      auto clock = std::make_shared<FakeClock>(FakeClock{0, step});
      search.set_clock([clock] { return (*clock)(); });
      std::array<double, 2> left{start, start};
      int plies = 0;
      while (!s.is_over() && plies < 200) {
        double& mine = left[index(s.to_move())];
        Limits limits;
        limits.seconds = time_for_move(mine, increment);
        const double before = clock->now;
        const auto r = search.search(s, limits);
        const double used = clock->now - before;
        ASSERT_TRUE(r.has_move);
        EXPECT_LE(used, limits.seconds) << preset << " ply " << plies;
        // A search stops early only when it has nothing left to do: proven, one legal move,
        // or the deepest iteration done.
        if (!r.exact && r.scores.size() > 1 && r.depth < kMaxPly - 1) {
          EXPECT_GE(used, 0.9 * limits.seconds) << preset << " ply " << plies;
        }
        mine -= used;
        ASSERT_GT(mine, 0) << preset << ": flag fell at ply " << plies;
        mine += increment;
        s.play(r.best);
        ++plies;
      }
    }
  }
}

}  // namespace
}  // namespace naqala::search
