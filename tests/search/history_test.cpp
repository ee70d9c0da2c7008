// The game's history in the search: a line that comes back to a position played earlier in the
// game (since the last capture) ends there by the ruleset's cycle rule, as the game would:
// Oware's `cycle = owner` gives each side the seeds on his side, `cycle = draw` a draw.
#include <gtest/gtest.h>

#include <vector>

#include "eval/sowing_eval.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"
#include "search/alphabeta.h"

namespace naqala::search {
namespace {

using sowing::State;
using Search = AlphaBeta<State, eval::SowingEval>;

std::shared_ptr<const sowing::Rules> oware(const std::string& cycle) {
  for (const auto& p : sowing::presets())
    if (p.name == "oware") return sowing::load_rules(p.toml, "oware", {{"cycle", cycle}});
  ADD_FAILURE() << "no oware preset";
  return nullptr;
}

// South moves; neither of his moves captures. "4" leaves South 12 seeds on his row and 15 in
// store: if that position repeats, he ends with 27 and wins. "6" sows 10 seeds around.
constexpr const char* kRoot = "0,0,0,3,0,10/0,1,1,1,1,1/15,15/S";

State after(const State& s, const char* move) {
  State next = s;
  next.play(*s.parse_move(move));
  return next;
}

// Every root move with an exact value, to `depth`, given the game's history.
Search::Result analyse(const sowing::Rules& rules, const State& root, int depth,
                       const std::vector<std::uint64_t>& history) {
  AlphaBetaOptions options;
  options.score_all_moves = true;
  options.hash_mb = 1;
  Search search(eval::SowingEval(rules), options);
  Limits limits;
  limits.depth = depth;
  return search.search(root, limits, {}, history);
}

int value_of(const Search::Result& r, const State& root, const char* move) {
  const auto m = *root.parse_move(move);
  for (const auto& mv : r.scores)
    if (mv.move == m) return mv.value;
  ADD_FAILURE() << "no score for move " << move;
  return 0;
}

TEST(SearchHistory, ARootMoveBackToAnEarlierPositionEndsTheGame) {
  for (const std::string cycle : {"owner", "draw"}) {
    const auto rules = oware(cycle);
    const State root = State::from_position(*rules, kRoot);
    const State back = after(root, "4");
    ASSERT_EQ(back.store(Player::South), 15);  // no capture: the position could repeat
    State ended = back;
    ended.end_by_cycle();
    ASSERT_TRUE(ended.is_over());
    const int cycle_value = terminal_value(ended.outcome(), Player::South);
    if (cycle == "owner") {
      EXPECT_EQ(ended.outcome().scores, (std::array<int, 2>{27, 21}));
      EXPECT_GT(cycle_value, kWin / 2);
    } else {
      EXPECT_EQ(cycle_value, 0);
    }
    const auto with = analyse(*rules, root, 6, {back.hash(), root.hash()});
    EXPECT_EQ(value_of(with, root, "4"), cycle_value) << cycle;
    // Without the history the same move is an ordinary move, valued by search.
    const auto without = analyse(*rules, root, 6, {});
    EXPECT_NE(value_of(without, root, "4"), cycle_value) << cycle;
  }
}

// Inside the tree: after South's "6", North can play back into a position of the game's
// history. Under `owner` that position favours North (his row is full), so he ends the game
// there and South's "6" is worth exactly that loss; under `draw` it is worth at least a draw
// to North, so at most a draw to South.
TEST(SearchHistory, TheOpponentCanEndTheGameByRepeatingAPositionOfTheHistory) {
  for (const std::string cycle : {"owner", "draw"}) {
    const auto rules = oware(cycle);
    const State root = State::from_position(*rules, kRoot);
    const State child = after(root, "6");
    // North's moves from there, none capturing: find one whose position we put in the history
    // and that favours North under the owner rule.
    typename State::MoveList moves;
    child.legal_moves(moves);
    bool found = false;
    for (auto m : moves) {
      State grandchild = child;
      grandchild.play(m);
      if (grandchild.irreversible_count() != root.irreversible_count()) continue;
      State ended = grandchild;
      ended.end_by_cycle();
      const int for_north = terminal_value(ended.outcome(), Player::North);
      if (cycle == "owner" && for_north <= kWin / 2) continue;
      const auto r = analyse(*rules, root, 6, {grandchild.hash(), root.hash()});
      const int six = value_of(r, root, "6");
      if (cycle == "owner") {
        // North takes the win the repetition gives (or a bigger one): South's "6" loses.
        EXPECT_LE(six, -for_north);
      } else {
        EXPECT_LE(six, 0) << cycle;
      }
      if (cycle == "owner") {
        // Without the history North has no such win within 6 plies.
        const auto plain = analyse(*rules, root, 6, {});
        EXPECT_GT(value_of(plain, root, "6"), six);
      }
      found = true;
      break;
    }
    EXPECT_TRUE(found) << cycle;
  }
}

// A capture makes every earlier position unreachable: a history position with other stores is
// never matched (the search compares only positions since the last capture).
TEST(SearchHistory, PositionsBeforeACaptureDoNotCount) {
  const auto rules = oware("owner");
  const State root = State::from_position(*rules, kRoot);
  const auto r1 = analyse(*rules, root, 5, {});
  // A position with the same pits but other stores is another position: nothing changes.
  const State other = State::from_position(*rules, "0,0,0,0,1,11/1,1,1,1,1,1/14,16/N");
  const auto r2 = analyse(*rules, root, 5, {other.hash()});
  EXPECT_EQ(value_of(r1, root, "4"), value_of(r2, root, "4"));
  EXPECT_EQ(r1.value, r2.value);
}

}  // namespace
}  // namespace naqala::search
