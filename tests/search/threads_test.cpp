// Lazy SMP: helper threads share the table and search the same root. They may change which of
// two equal moves is found and, through the table, a heuristic value, never a proven result:
// searched until the value is proven (no depth limit: iterative deepening stops there), small
// endgames give the same value with 1, 2 and 4 threads, and the move played reaches it.
// (A search cut at a fixed depth proves a value or not depending on the order it met the
// moves in, which the helpers change; so the limit here is the end of the game.)
//
// Only rulesets where a position never repeats: with a cycle rule (Oware) a proven value can
// depend on the path that reached a position (a line that comes back to a position on it ends
// there), and a table entry shared between threads can carry one path's value to another
// (the graph-history caveat of docs/engines.md), so there threads may change it.
#include <gtest/gtest.h>

#include <vector>

#include "core/rng.h"
#include "eval/sowing_eval.h"
#include "games/sowing/sowing_test_util.h"
#include "sanitized.h"
#include "search/alphabeta.h"

namespace naqala::search {
namespace {

using sowing::State;
using Search = AlphaBeta<State, eval::SowingEval>;

// The first position of a random game with at most `seeds` seeds left in the pits, from
// `count` games that reach one.
std::vector<State> endgames(const sowing::Rules& rules, int count, int seeds, std::uint64_t seed) {
  std::vector<State> out;
  Rng rng(seed);
  while (static_cast<int>(out.size()) < count) {
    State s = State::initial(rules);
    State::MoveList moves;
    while (!s.is_over() && s.seeds_in_play() > seeds) {
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    if (!s.is_over()) out.push_back(s);
  }
  return out;
}

TEST(LazySmp, ThreadsDoNotChangeAProvenFixedDepthResult) {
  for (const char* name : {"kalah", "bantumi"}) {
    const auto rules = sowing::testing::preset(name);
    ASSERT_EQ(rules->cycle, sowing::CycleRule::None) << name;
    for (const State& s : endgames(*rules, naqala::testing::workload(16, 5), 14, 7)) {
      const Limits limits;  // none: the search deepens until the value is proven
      AlphaBetaOptions one;
      one.hash_mb = 4;
      const auto single = Search(eval::SowingEval(*rules), one).search(s, limits);
      ASSERT_TRUE(single.has_move);
      ASSERT_TRUE(single.exact) << name << " " << s.position();
      for (int threads : {2, 4}) {
        AlphaBetaOptions many = one;
        many.threads = threads;
        const auto r = Search(eval::SowingEval(*rules), many).search(s, limits);
        ASSERT_TRUE(r.has_move);
        EXPECT_TRUE(r.exact) << name << " " << s.position() << " threads " << threads;
        EXPECT_EQ(r.value, single.value) << name << " " << s.position() << " threads " << threads;
        // The move played reaches that value: searched alone after it, the same result.
        State after = s;
        after.play(r.best);
        if (after.is_over()) continue;
        const auto check = Search(eval::SowingEval(*rules), one).search(after, limits);
        ASSERT_TRUE(check.exact) << name << " " << after.position();
        const int value = after.to_move() == s.to_move() ? check.value : -check.value;
        EXPECT_EQ(value, single.value) << name << " " << s.position() << " threads " << threads;
      }
    }
  }
}

}  // namespace
}  // namespace naqala::search
