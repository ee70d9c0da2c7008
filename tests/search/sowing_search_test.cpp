// Alpha-beta on the real sowing engine: agreement with exhaustive search on tiny variants
// written as TOML, forced wins by capture and by starvation, legal moves only.
#include <gtest/gtest.h>

#include <set>
#include <unordered_map>

#include "core/rng.h"
#include "eval/sowing_eval.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"
#include "search/alphabeta.h"

namespace naqala::search {
namespace {

using sowing::State;
using Search = AlphaBeta<State, eval::SowingEval>;

std::shared_ptr<const sowing::Rules> rules_of(const std::string& toml) {
  return sowing::load_rules(toml, "test", {});
}

std::string kalah_like(int pits, int seeds) {
  return "name = \"tiny_kalah\"\n[board]\npits = " + std::to_string(pits) +
         "\nseeds = " + std::to_string(seeds) +
         "\n[sowing]\nstores = \"own\"\n[capture]\nkind = \"opposite\"\n[turn]\nextra_turn = true\n"
         "[end]\nrow_empty = \"immediate\"\nremaining = \"owner\"\n";
}

std::string oware_like(int pits, int seeds) {
  return "name = \"tiny_oware\"\n[board]\npits = " + std::to_string(pits) +
         "\nseeds = " + std::to_string(seeds) +
         "\n[sowing]\nstores = \"none\"\nskip_origin = true\n[capture]\nkind = \"counts\"\ncounts "
         "= [2, 3]\n"
         "chain = true\n[feeding]\nmust_feed = true\n[end]\nrow_empty = \"at_turn\"\nremaining = "
         "\"owner\"\n"
         "cycle = \"owner\"\n";
}

// Exhaustive negamax with repetition on the path (a position seen since the last capture ends
// the game by the ruleset's cycle rule), value for the player to move. Positions first reached
// right after a capture have no history and are memoised.
int solve(const State& s, std::vector<std::uint64_t>& path,
          std::unordered_map<std::uint64_t, int>& memo) {
  const bool fresh = path.size() == 1;
  if (fresh)
    if (auto it = memo.find(s.hash()); it != memo.end()) return it->second;
  State::MoveList moves;
  s.legal_moves(moves);
  int best = -kInfinity;
  for (auto m : moves) {
    State child = s;
    child.play(m);
    int v;
    if (child.is_over()) {
      v = terminal_value(child.outcome(), s.to_move());
    } else {
      const bool progress = child.irreversible_count() != s.irreversible_count();
      if (!progress && child.ends_on_cycle() &&
          std::find(path.begin(), path.end(), child.hash()) != path.end()) {
        State ended = child;
        ended.end_by_cycle();
        v = terminal_value(ended.outcome(), s.to_move());
      } else {
        std::vector<std::uint64_t> fresh_path{child.hash()};
        std::vector<std::uint64_t>& next = progress ? fresh_path : path;
        if (!progress) next.push_back(child.hash());
        v = solve(child, next, memo);
        if (!progress) next.pop_back();
        if (child.to_move() != s.to_move()) v = -v;
      }
    }
    best = std::max(best, v);
  }
  if (fresh) memo[s.hash()] = best;
  return best;
}

std::vector<State> positions(const sowing::Rules& r, int count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<State> out;
  for (int tries = 0; static_cast<int>(out.size()) < count && tries < 100 * count; ++tries) {
    State s = State::initial(r);
    const int plies = static_cast<int>(rng.below(8));
    for (int i = 0; i < plies && !s.is_over(); ++i) {
      State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    if (!s.is_over()) out.push_back(s);
  }
  return out;
}

void expect_exact(const std::string& toml, bool cycles) {
  const auto rules = rules_of(toml);
  AlphaBetaOptions options;
  options.hash_mb = 1;
  options.score_all_moves = true;
  Search search(eval::SowingEval(*rules), options);
  std::unordered_map<std::uint64_t, int> memo;
  for (const State& s : positions(*rules, 25, 3)) {
    std::vector<std::uint64_t> path{s.hash()};
    const int truth = solve(s, path, memo);
    search.clear();
    Limits limits;
    if (cycles) limits.depth = 40;
    const auto r = search.search(s, limits);
    ASSERT_TRUE(r.has_move) << s.position();
    if (!cycles) {
      EXPECT_TRUE(r.exact) << s.position();
      EXPECT_EQ(r.value, truth) << s.position();
    } else {
      // With repetitions the table can carry a value across paths of different history, so
      // the exact value may differ by the cycle split; the result (win, draw, loss) may not.
      EXPECT_EQ(r.value > 0, truth > 0) << s.position();
      EXPECT_EQ(r.value < 0, truth < 0) << s.position();
    }
  }
}

TEST(SowingSearch, ExactOnOnePitKalah) {
  expect_exact(kalah_like(1, 3), false);
}
TEST(SowingSearch, ExactOnTwoPitKalah) {
  for (int seeds = 1; seeds <= 3; ++seeds) expect_exact(kalah_like(2, seeds), false);
}
TEST(SowingSearch, ExactOnThreePitKalah) {
  for (int seeds = 1; seeds <= 2; ++seeds) expect_exact(kalah_like(3, seeds), false);
}
TEST(SowingSearch, ResultOnTinyOware) {
  expect_exact(oware_like(1, 2), true);
  expect_exact(oware_like(2, 1), true);
  expect_exact(oware_like(2, 2), true);
}

// Full-width minimax to `depth` with a zero evaluation: finds every forced win within depth.
int forced(const State& s, int depth) {
  if (depth == 0) return 0;
  State::MoveList moves;
  s.legal_moves(moves);
  int best = -kInfinity;
  for (auto m : moves) {
    State child = s;
    child.play(m);
    int v = terminal_value(child.outcome(), s.to_move());
    if (!child.is_over()) {
      v = forced(child, depth - 1);
      if (child.to_move() != s.to_move()) v = -v;
    }
    best = std::max(best, v);
  }
  return best;
}

// Positions near the end of real games, where forced wins in a few plies are common.
std::vector<State> late_positions(const sowing::Rules& r, int count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<State> out;
  while (static_cast<int>(out.size()) < count) {
    State s = State::initial(r);
    std::vector<State> line;
    while (!s.is_over()) {
      line.push_back(s);
      State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      if (line.size() > 400) break;
    }
    for (int back = 1; back <= 6 && back <= static_cast<int>(line.size()); ++back)
      out.push_back(line[line.size() - back]);
  }
  return out;
}

// A win alpha-beta reports is real, and a win within n plies is always seen at depth n.
void expect_forced_wins(const char* preset, std::set<EndReason>& reasons) {
  const auto* p = &sowing::presets().front();
  for (const auto& q : sowing::presets())
    if (q.name == preset) p = &q;
  const auto rules = sowing::load_rules(p->toml, preset, {});
  AlphaBetaOptions options;
  options.hash_mb = 1;
  Search search(eval::SowingEval(*rules), options);
  int wins = 0;
  for (const State& s : late_positions(*rules, 150, 5)) {
    for (int depth = 1; depth <= 3; ++depth) {
      const int reference = forced(s, depth);
      search.clear();
      Limits limits;
      limits.depth = depth;
      const auto r = search.search(s, limits);
      ASSERT_TRUE(r.has_move);
      State::MoveList legal;
      s.legal_moves(legal);
      EXPECT_TRUE(legal.contains(r.best));
      if (reference >= kWin / 2) {
        ++wins;
        EXPECT_GE(r.value, kWin / 2) << preset << " " << s.position() << " depth " << depth;
        // Follow the principal variation to the end: the game ends there, won by the mover.
        State walk = s;
        for (auto m : r.pv) {
          if (walk.is_over()) break;
          walk.play(m);
        }
        if (walk.is_over()) {
          reasons.insert(walk.outcome().reason);
          EXPECT_EQ(walk.outcome().winner, s.to_move()) << s.position();
        }
        break;
      }
    }
  }
  EXPECT_GT(wins, 5) << preset;
}

TEST(SowingSearch, FindsForcedWinsByCaptureAndStarvation) {
  std::set<EndReason> oware, kalah;
  expect_forced_wins("oware", oware);
  expect_forced_wins("kalah", kalah);
  // Oware wins come by reaching 25 with captures and by an opponent who cannot be fed or
  // cannot move (starvation).
  EXPECT_TRUE(oware.count(EndReason::Threshold)) << "no capture win found";
  EXPECT_TRUE(oware.count(EndReason::CannotFeed) || oware.count(EndReason::NoMove))
      << "no starvation win found";
  EXPECT_TRUE(kalah.count(EndReason::RowEmpty));
}

TEST(SowingSearch, ConstructedCaptureToTwentyFive) {
  // South (23 captured) wins at once by sowing pit 6 into North's pit 1 (1 -> 2 seeds: a
  // capture to 25); pit 1 captures nothing.
  auto rules = sowing::load_rules(sowing::presets()[0].toml, "x", {});
  for (const auto& q : sowing::presets())
    if (q.name == "oware") rules = sowing::load_rules(q.toml, "oware", {});
  const State s = State::from_position(*rules, "2,0,0,0,0,1/1,4,4,4,4,4/23,1/S");
  Search search{eval::SowingEval(*rules)};
  Limits limits;
  limits.depth = 1;
  const auto r = search.search(s, limits);
  EXPECT_EQ(s.format_move(r.best), "6");
  EXPECT_GE(r.value, kWin / 2);
}

}  // namespace
}  // namespace naqala::search

#include "search/prove.h"

namespace naqala::search {
namespace {

TEST(SowingSearch, ProverAgreesWithExhaustiveSearch) {
  for (auto [pits, seeds] : {std::pair{2, 2}, std::pair{3, 2}, std::pair{3, 3}}) {
    const auto rules = rules_of(kalah_like(pits, seeds));
    Prover<State, eval::SowingMarginBounds, eval::SowingEval> prover({}, eval::SowingEval(*rules),
                                                                     1);
    std::unordered_map<std::uint64_t, int> memo;
    for (const State& s : positions(*rules, 10, 11)) {
      std::vector<std::uint64_t> path{s.hash()};
      const int truth = solve(s, path, memo);
      // The exhaustive value is kWin + 100 * margin for a win, 100 * margin... for a draw 0.
      int low = 0, high = 0;
      const auto margin = prover.margin(s, s.to_move(), 0, low, high);
      ASSERT_TRUE(margin.has_value());
      if (truth == 0) {
        EXPECT_EQ(*margin, 0) << s.position();
      } else {
        const int expected = (truth - (truth > 0 ? kWin : -kWin)) / kPoint;
        EXPECT_EQ(*margin, expected) << s.position();
      }
      EXPECT_EQ(*prover.at_least(s, s.to_move(), 1, 0), truth > 0) << s.position();
    }
  }
}

}  // namespace
}  // namespace naqala::search

#include "search/mcts.h"

namespace naqala::search {
namespace {

std::shared_ptr<const sowing::Rules> preset_rules(const std::string& name) {
  for (const auto& p : sowing::presets())
    if (p.name == name) return sowing::load_rules(p.toml, name, {});
  ADD_FAILURE() << "no preset " << name;
  return nullptr;
}

// worst[p][l]: the least player p is sure of with half l of Congklak's joint first move, by the
// values of `value(move)` (South's view).
template <class Value>
std::array<std::array<int, kJointLabels>, 2> worst_cases(const State& s, Value value) {
  std::array<std::array<int, kJointLabels>, 2> worst;
  for (auto& w : worst) w.fill(kInfinity);
  State::MoveList moves;
  s.legal_moves(moves);
  for (auto m : moves) {
    const int v = value(m);
    for (Player p : {Player::South, Player::North}) {
      int& w = worst[index(p)][joint_half(m, p)];
      w = std::min(w, p == Player::South ? v : -v);
    }
  }
  return worst;
}

int best_of(const std::array<int, kJointLabels>& w) {
  int best = -kInfinity;
  for (int v : w)
    if (v < kInfinity) best = std::max(best, v);
  return best;
}

TEST(JointMoves, AlphaBetaTakesEachPlayersMaximinHalf) {
  const auto rules = preset_rules("congklak");
  const State s = State::initial(*rules);
  ASSERT_TRUE(is_joint_node(s));
  const eval::SowingEval eval(*rules);
  Search search{eval};
  Limits limits;
  limits.depth = 2;
  const auto r = search.search(s, limits);
  ASSERT_TRUE(r.has_move);
  // Each joint move's value at depth 2 for South: the depth-1 search of the child.
  const auto worst = worst_cases(s, [&](State::Move m) {
    State child = s;
    child.play(m);
    if (child.is_over()) return terminal_value(child.outcome(), Player::South);
    Search one{eval};
    Limits l1;
    l1.depth = 1;
    const int v = one.search(child, l1).value;
    return child.to_move() == Player::South ? v : -v;
  });
  for (Player p : {Player::South, Player::North})
    EXPECT_EQ(worst[index(p)][joint_half(r.best, p)], best_of(worst[index(p)])) << index(p);
  EXPECT_EQ(r.value, best_of(worst[0]));
}

TEST(JointMoves, MctsDecouplesTheHalves) {
  const auto rules = preset_rules("congklak");
  const State s = State::initial(*rules);
  MctsOptions options;
  options.seed = 3;
  Mcts<State> mcts(options);
  const auto r = mcts.search(s, 4000, 0);
  ASSERT_TRUE(r.has_move);
  State::MoveList moves;
  s.legal_moves(moves);
  EXPECT_NE(std::find(moves.begin(), moves.end(), r.best), moves.end());
  // Each player's half is the one he tried most, and he tried every half.
  std::array<std::array<std::uint64_t, kJointLabels>, 2> visits{};
  for (const auto& m : r.moves)
    for (Player p : {Player::South, Player::North})
      visits[index(p)][joint_half(m.move, p)] += m.visits;
  for (Player p : {Player::South, Player::North}) {
    const auto& v = visits[index(p)];
    EXPECT_EQ(v[joint_half(r.best, p)], *std::max_element(v.begin(), v.end()));
    for (auto m : moves) EXPECT_GT(v[joint_half(m, p)], 0u);
  }
}

}  // namespace
}  // namespace naqala::search
