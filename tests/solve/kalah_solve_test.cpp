// The Kalah endgame database and solver against the real sowing engine: the reduced game
// sows like the engine, the database agrees with an exhaustive search of sowing::State, the
// solver agrees with the database and with the older AND/OR prover, and known results.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unordered_map>

#include "core/error.h"
#include "core/rng.h"
#include "eval/sowing_eval.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"
#include "sanitized.h"
#include "scratch_dir.h"
#include "search/prove.h"
#include "solve/compositions.h"
#include "solve/kalah.h"
#include "solve/kalah_db.h"
#include "solve/kalah_solver.h"

namespace naqala::solve {
namespace {

using sowing::State;

std::shared_ptr<const sowing::Rules> preset(const std::string& name,
                                            const OptionValues& options = {}) {
  for (const auto& p : sowing::presets())
    if (p.name == name) return sowing::load_rules(p.toml, "preset " + name, options);
  throw std::runtime_error("no preset " + name);
}

std::shared_ptr<const sowing::Rules> kalah(int pits, int seeds, bool empty_capture = false) {
  return sowing::load_rules(
      "name = \"tiny_kalah\"\n[board]\npits = " + std::to_string(pits) +
          "\nseeds = " + std::to_string(seeds) +
          "\n[sowing]\nstores = \"own\"\n[capture]\nkind = \"opposite\"\nempty_capture = " +
          (empty_capture ? "true" : "false") +
          "\n[turn]\nextra_turn = true\n[end]\nrow_empty = \"immediate\"\nremaining = \"owner\"\n",
      "test", {});
}

// Positions of random games that still go on, with at most `max_seeds` seeds in the pits.
std::vector<State> late_positions(const sowing::Rules& r, int count, int max_seeds,
                                  std::uint64_t seed) {
  Rng rng(seed);
  std::vector<State> out;
  for (int tries = 0; static_cast<int>(out.size()) < count && tries < 50 * count; ++tries) {
    State s = State::initial(r);
    while (!s.is_over() && s.seeds_in_play() > max_seeds) {
      State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    if (!s.is_over()) out.push_back(s);
  }
  return out;
}

// The exact final margin of the player to move by plain negamax over the real engine
// (memoised on the engine's hash), independent of everything in src/solve.
int exhaustive_margin(const State& s, std::unordered_map<std::uint64_t, int>& memo) {
  if (auto it = memo.find(s.hash()); it != memo.end()) return it->second;
  State::MoveList moves;
  s.legal_moves(moves);
  int best = -1000;
  for (auto m : moves) {
    State c = s;
    c.play(m);
    int v;
    if (c.is_over()) {
      const Outcome o = c.outcome();
      v = o.scores[index(s.to_move())] - o.scores[index(opponent(s.to_move()))];
    } else {
      v = exhaustive_margin(c, memo);
      if (c.to_move() != s.to_move()) v = -v;
    }
    best = std::max(best, v);
  }
  memo[s.hash()] = best;
  return best;
}

int margin_of(const State& s, int value) {
  const Player me = s.to_move();
  return s.store(me) - s.store(opponent(me)) + 2 * value - s.seeds_in_play();
}

TEST(Compositions, NumbersEveryBoardOnceInOrder) {
  for (int pits : {1, 2, 3}) {
    const Compositions index(pits, 7);
    for (int n = 0; n <= 7; ++n) {
      Board b = index.unrank(0, n);
      std::uint64_t r = 0;
      do {
        ASSERT_EQ(b.seeds(), n);
        ASSERT_EQ(index.rank(b, n), r);
        ASSERT_EQ(index.unrank(r, n), b);
        ++r;
      } while (index.next(b));
      EXPECT_EQ(r, index.count(n)) << pits << " pits, " << n << " seeds";
      EXPECT_EQ(index.offset(n + 1), index.offset(n) + index.count(n));
    }
  }
  // 12 pits: C(n + 11, 11) boards of n seeds.
  const Compositions kalah_index(6, 48);
  EXPECT_EQ(kalah_index.count(4), 1365u);
  EXPECT_EQ(kalah_index.count(48), 279871768995ULL);    // C(59, 11)
  EXPECT_EQ(kalah_index.offset(49), 1399358844975ULL);  // C(60, 12)
  EXPECT_THROW(Compositions(8, 255), std::overflow_error);
}

TEST(KalahBoard, SowsLikeTheEngine) {
  for (const auto& rules :
       {preset("kalah"), preset("kalah", {{"empty_capture", "true"}}), kalah(3, 5), kalah(1, 6)}) {
    const KalahRules kr = kalah_rules(*rules);
    Rng rng(7);
    for (int game = 0; game < 200; ++game) {
      State s = State::initial(*rules);
      while (!s.is_over()) {
        State::MoveList moves;
        s.legal_moves(moves);
        const auto m = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
        const Player me = s.to_move();
        Board b = board_of(s);
        const Sowing sown = sow(kr, b, m);
        State next = s;
        next.play(m);
        ASSERT_EQ(sown.over, next.is_over()) << s.position() << " move " << m;
        if (next.is_over()) {
          const Outcome o = next.outcome();
          ASSERT_EQ(o.scores[index(me)], s.store(me) + sown.gained + b.row(0)) << s.position();
          break;
        }
        ASSERT_EQ(sown.extra, next.to_move() == me) << s.position() << " move " << m;
        ASSERT_EQ(next.store(me), s.store(me) + sown.gained) << s.position() << " move " << m;
        if (!sown.extra) b.flip();
        ASSERT_EQ(board_of(next), b) << s.position() << " move " << m;
        s = next;
      }
    }
  }
}

TEST(KalahRules, RefusesOtherRulesetsClearly) {
  for (const char* name : {"oware", "bantumi", "mangala", "congklak", "toguz"}) {
    try {
      kalah_rules(*preset(name));
      ADD_FAILURE() << name << " was accepted";
    } catch (const VariantError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("cannot solve " + std::string(name)), std::string::npos) << what;
      EXPECT_NE(what.find("Kalah"), std::string::npos) << what;
    }
  }
  const KalahRules r = kalah_rules(*preset("kalah", {{"seeds", "6"}, {"empty_capture", "true"}}));
  EXPECT_EQ(r.pits, 6);
  EXPECT_TRUE(r.empty_capture);
}

TEST(EndgameDb, AgreesWithExhaustiveSearch) {
  for (const auto& rules : {kalah(4, 3), preset("kalah"), kalah(3, 4, true)}) {
    const KalahRules kr = kalah_rules(*rules);
    const auto db = EndgameDb::build(kr, 10, 2);
    std::unordered_map<std::uint64_t, int> memo;
    for (const State& s : late_positions(*rules, naqala::testing::workload(120, 40), 10, 11)) {
      const int value = db.value(board_of(s), s.seeds_in_play());
      ASSERT_EQ(margin_of(s, value), exhaustive_margin(s, memo)) << s.position();
    }
  }
}

TEST(EndgameDb, OneThreadOrTwoGiveTheSameBytes) {
  const KalahRules kr{5, false, true};
  const auto one = EndgameDb::build(kr, 9, 1);
  const auto two = EndgameDb::build(kr, 9, 2);
  ASSERT_EQ(one.size(), two.size());
  for (std::uint64_t i = 0; i < one.size(); ++i) ASSERT_EQ(one.value_at(i), two.value_at(i)) << i;
}

TEST(EndgameDb, SavesLoadsAndRefusesDamagedFiles) {
  const KalahRules kr{6, true, true};
  const auto db = EndgameDb::build(kr, 8, 2);
  const naqala::testing::ScratchDir scratch;
  const std::string path = scratch / "naqala_kalah_test.db";
  db.save(path);
  {
    const auto back = EndgameDb::load(path);
    EXPECT_EQ(back.max_seeds(), 8);
    EXPECT_TRUE(back.rules().empty_capture);
    ASSERT_EQ(back.size(), db.size());
    for (std::uint64_t i = 0; i < db.size(); ++i) ASSERT_EQ(back.value_at(i), db.value_at(i));
  }
  {  // one value changed: the checksum catches it
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096 + 1000);
    const char c = static_cast<char>(db.value_at(1000) + 1);
    f.write(&c, 1);
  }
  EXPECT_THROW(
      {
        try {
          EndgameDb::load(path);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << "not a database";
  }
  EXPECT_THROW(EndgameDb::load(path), Error);
  std::remove(path.c_str());
  EXPECT_THROW(EndgameDb::load(path), Error);
}

TEST(EndgameDb, LoadsAFileOnceWhileItStaysTheSame) {
  const naqala::testing::ScratchDir scratch;
  const std::string path = scratch / "naqala_kalah_once.db";
  EndgameDb::build(KalahRules{}, 6, 1).save(path);
  const auto first = load_db_once(path);
  EXPECT_EQ(load_db_once(path), first);  // the same mapping, not read again
  EXPECT_EQ(first->max_seeds(), 6);
  // Built again (save writes a new file and renames it over the old): read anew.
  EndgameDb::build(KalahRules{}, 7, 1).save(path);
  const auto second = load_db_once(path);
  EXPECT_NE(second, first);
  EXPECT_EQ(second->max_seeds(), 7);
  EXPECT_EQ(first->max_seeds(), 6);  // an engine holding the old one keeps it
  std::remove(path.c_str());
  EXPECT_THROW(load_db_once(path), Error);
}

TEST(Solver, AgreesWithTheDatabaseAndTheOldProver) {
  for (const auto& rules : {kalah(4, 3), kalah(3, 4, true), preset("kalah")}) {
    const KalahRules kr = kalah_rules(*rules);
    const auto big = EndgameDb::build(kr, 14, 2);
    const auto small = EndgameDb::build(kr, 4, 2);
    Solver solver(kr, rules->total_seeds, &small, 16);
    Solver bare(kr, rules->total_seeds, nullptr, 16);
    for (const State& s : late_positions(*rules, naqala::testing::workload(60, 20), 14, 5)) {
      const Board b = board_of(s);
      const int truth = big.value(b, s.seeds_in_play());
      const auto r = solver.solve(b, s.seeds_in_play() / 2, 0);
      ASSERT_TRUE(r.exact());
      ASSERT_EQ(r.low, truth) << s.position();
      ASSERT_EQ(bare.solve(b, 0, 0).low, truth) << s.position();
      // The move it names reaches the value.
      ASSERT_GE(r.best_move, 0);
      Board c = b;
      const Sowing sown = sow(kr, c, r.best_move);
      const int left = s.seeds_in_play() - sown.gained;
      const int through = sown.over    ? sown.gained + c.row(0)
                          : sown.extra ? sown.gained + big.value(c, left)
                                       : (c.flip(), sown.gained + left - big.value(c, left));
      EXPECT_EQ(through, truth) << s.position();
    }
    // Positions with more seeds than the big database: the old AND/OR prover as the judge.
    search::Prover<State, eval::SowingMarginBounds, eval::SowingEval> prover(
        {}, eval::SowingEval(*rules), 16);
    for (const State& s : late_positions(*rules, naqala::testing::workload(10, 3), 18, 9)) {
      const auto r = solver.solve(board_of(s), 0, 0);
      int low = 0, high = 0;
      const auto margin = prover.margin(s, s.to_move(), 0, low, high);
      ASSERT_TRUE(margin.has_value());
      EXPECT_EQ(margin_of(s, r.low), *margin) << s.position();
    }
  }
}

// Known results from the start (the 4x3 margin is also alpha-beta's to the end).
TEST(Solver, SolvesSmallKalahsFromTheStart) {
  for (auto [pits, seeds, margin] :
       {std::tuple{4, 3, 6}, std::tuple{4, 4, 2}, std::tuple{5, 3, 6}}) {
    const auto rules = kalah(pits, seeds);
    const KalahRules kr = kalah_rules(*rules);
    const auto db = EndgameDb::build(kr, 12, 2);
    Solver solver(kr, rules->total_seeds, &db, 64);
    const State s = State::initial(*rules);
    const auto r = solver.solve(board_of(s), s.seeds_in_play() / 2 + 1, 0);
    ASSERT_TRUE(r.exact());
    EXPECT_EQ(margin_of(s, r.low), margin) << pits << "x" << seeds;
  }
}

TEST(Solver, GivesUpWhenTheTimeRunsOut) {
  const auto rules = preset("kalah", {{"seeds", "6"}});
  const KalahRules kr = kalah_rules(*rules);
  Solver solver(kr, rules->total_seeds, nullptr, 16);
  const State s = State::initial(*rules);
  const auto r = solver.solve(board_of(s), 37, 0.2);
  EXPECT_FALSE(r.exact());
  EXPECT_LE(r.low, r.high);  // returning is the check (CTest's timeout guards a hang)
  EXPECT_FALSE(solver.at_least(board_of(s), 37, 0.2).has_value());
}

}  // namespace
}  // namespace naqala::solve
