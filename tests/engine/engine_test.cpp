// The engine API: specs, errors, legal moves from every engine, analysis, arena scoring.
#include "engine/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/error.h"
#include "core/rng.h"
#include "engine/arena.h"
#include "games/registry.h"
#include "sanitized.h"

namespace naqala::engine {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(Engine, BadSpecsNameTheProblemAndTheAllowedForms) {
  auto game = make_game("kalah");
  for (const char* spec :
       {"level:0", "level:11", "level:x", "alphabeta:depth=-1", "alphabeta:foo=1", "mcts:sims=many",
        "mcts:leaf=magic", "chess", "alphabeta:time", "random:seed=x"}) {
    try {
      make_engine(*game, spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const VariantError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(spec), std::string::npos) << what;
      EXPECT_NE(what.find("level:N"), std::string::npos) << what;
    }
  }
}

TEST(Engine, EveryEnginePlaysOnlyLegalMoves) {
  for (const char* variant : {"kalah", "oware", "bantumi"}) {
    auto game = make_game(variant);
    // Every engine seeded, so the games replay exactly.
    for (const char* spec :
         {"random:seed=1", "level:1,seed=2", "level:4,seed=3", "alphabeta:depth=3",
          "alphabeta:nodes=2000", "mcts:sims=100,seed=4", "mcts:sims=100,leaf=eval,seed=5"}) {
      auto engine = make_engine(*game, spec);
      auto state = game->new_game();
      // Oware between noisy players can wander for long before a cycle or a capture ends it.
      for (int ply = 0; ply < 5000 && !state->is_over(); ++ply) {
        const std::string move = engine->choose_move(*state);
        ASSERT_TRUE(contains(state->legal_moves(), move)) << variant << " " << spec << " " << move;
        state->play(move);
      }
      EXPECT_TRUE(state->is_over()) << variant << " " << spec;
      EXPECT_THROW(engine->choose_move(*state), IllegalMoveError);
    }
  }
}

// Toguz korgool plays its preset's trained evaluation (data/toguz/eval.txt): legal moves to the
// end of a game, the same game again from a fresh engine at a fixed depth, and legal moves with
// a helper thread.
TEST(Engine, ToguzPlaysLegallyAndAFixedDepthGameReplays) {
  auto game = make_game("toguz");
  std::vector<std::string> first;
  for (const char* spec :
       {"alphabeta:depth=4", "alphabeta:depth=4", "alphabeta:depth=4,threads=2"}) {
    auto engine = make_engine(*game, spec);
    auto state = game->new_game();
    std::vector<std::string> moves;
    for (int ply = 0; ply < 1000 && !state->is_over(); ++ply) {
      const std::string move = engine->choose_move(*state);
      ASSERT_TRUE(contains(state->legal_moves(), move)) << spec << " " << move;
      state->play(move);
      moves.push_back(move);
    }
    EXPECT_TRUE(state->is_over()) << spec;
    if (first.empty()) {
      first = moves;
    } else if (std::string(spec).find("threads") == std::string::npos) {
      EXPECT_EQ(moves, first);
    }
  }
}

TEST(Engine, AnalysisScoresEveryLegalMove) {
  auto game = make_game("oware");
  auto engine = make_engine(*game, "alphabeta");
  auto state = game->new_game();
  state->play("3");
  state->play("5");
  const Analysis a = engine->analyze(*state, Limits{.depth = 6});
  EXPECT_EQ(a.depth, 6);
  EXPECT_GT(a.nodes, 0u);
  ASSERT_EQ(a.scores.size(), state->legal_moves().size());
  for (const auto& m : state->legal_moves())
    EXPECT_TRUE(std::any_of(a.scores.begin(), a.scores.end(),
                            [&](const MoveScore& s) { return s.move == m; }));
  EXPECT_EQ(a.best_move, a.scores.front().move);
  EXPECT_DOUBLE_EQ(a.value, a.scores.front().value);
  for (const auto& s : a.scores) EXPECT_LE(s.value, a.value);
  ASSERT_FALSE(a.pv.empty());
  EXPECT_EQ(a.pv.front(), a.best_move);
  auto walk = state->clone();
  for (const auto& m : a.pv) {
    if (walk->is_over()) break;
    ASSERT_TRUE(contains(walk->legal_moves(), m));
    walk->play(m);
  }
}

// --multipv: the best N moves get exact values, the same as when every move is scored; the
// others get upper bounds below them.
TEST(Engine, MultiPvGivesTheBestLinesExactly) {
  auto game = make_game("oware");
  auto state = game->new_game();
  state->play("3");
  const int n = static_cast<int>(state->legal_moves().size());
  const Analysis all =
      make_engine(*game, "alphabeta:hash=1")->analyze(*state, Limits{.depth = 5, .multipv = n});
  for (const auto& s : all.scores) EXPECT_TRUE(s.exact) << s.move;
  for (int k : {1, 3}) {
    const Analysis a =
        make_engine(*game, "alphabeta:hash=1")->analyze(*state, Limits{.depth = 5, .multipv = k});
    ASSERT_EQ(a.scores.size(), all.scores.size());
    EXPECT_DOUBLE_EQ(a.value, all.value) << k;
    for (int i = 0; i < n; ++i) {
      const MoveScore& s = a.scores[i];
      EXPECT_EQ(s.exact, i < k) << k << " " << s.move;
      if (i >= k) {
        EXPECT_LE(s.value, a.scores[k - 1].value) << k;
      }
    }
    // Fewer exact lines cost fewer nodes.
    EXPECT_LT(a.nodes, all.nodes) << k;
  }
}

// The game so far reaches the engine through the state: two lone seeds chase each other round
// the board, every move forced, and after 11 plies North's only move repeats the starting
// position. With the history the engine sees at once that the game ends there (each side takes
// his own seed: North wins 25-23); a copy of the same position without its history does not.
TEST(Engine, SeesARepetitionOfTheGameSoFar) {
  for (const std::string variant : {"oware", "oware:cycle=draw"}) {
    auto game = make_game(variant);
    auto state = game->from_position("0,0,0,0,0,1/0,0,0,0,0,1/22,24/S");
    for (int ply = 0; ply < 11; ++ply) {
      const auto moves = state->legal_moves();
      ASSERT_EQ(moves.size(), 1u) << ply;
      state->play(moves.front());
    }
    ASSERT_FALSE(state->is_over());
    const Analysis with = make_engine(*game, "alphabeta")->analyze(*state, Limits{.depth = 2});
    EXPECT_TRUE(with.proven) << variant;
    EXPECT_DOUBLE_EQ(with.value, variant == "oware" ? 1002.0 : 0.0) << variant;
    auto copy = game->from_position(state->position());
    const Analysis without = make_engine(*game, "alphabeta")->analyze(*copy, Limits{.depth = 2});
    EXPECT_FALSE(without.proven) << variant;
    // The game itself agrees: the forced move ends it by the cycle rule.
    state->play(state->legal_moves().front());
    EXPECT_TRUE(state->is_over());
    EXPECT_EQ(state->outcome().reason, EndReason::Cycle);
  }
}

// An arena game must not depend on the games before it (a resumed tournament replays the
// same games): new_game() leaves nothing in the engine's table, so the same search costs the
// same nodes as in a fresh engine. Without it the table of the first game shortens the second.
TEST(Engine, ANewGameForgetsTheLastOne) {
  auto game = make_game("oware");
  auto start = game->new_game();
  const Limits limits{.depth = 7};
  const Analysis fresh = make_engine(*game, "alphabeta")->analyze(*start, limits);
  auto used = make_engine(*game, "alphabeta");
  used->analyze(*start, limits);
  EXPECT_LT(used->analyze(*start, limits).nodes, fresh.nodes);  // the table remembers
  used->new_game();
  const Analysis again = used->analyze(*start, limits);
  EXPECT_EQ(again.nodes, fresh.nodes);
  EXPECT_EQ(again.best_move, fresh.best_move);
}

TEST(Engine, ProvesAWonEndgame) {
  // South to move with 23 captured: sowing pit 6 takes 2 and wins.
  auto game = make_game("oware");
  auto state = game->from_position("2,0,0,0,0,1/1,4,4,4,4,4/23,1/S");
  const Analysis a = make_engine(*game, "alphabeta")->analyze(*state, Limits{.depth = 3});
  EXPECT_EQ(a.best_move, "6");
  EXPECT_GE(a.value, 1000.0);
}

TEST(Engine, RefusesAnotherGamesPosition) {
  auto kalah = make_game("kalah");
  auto oware = make_game("oware");
  auto engine = make_engine(*kalah, "alphabeta:depth=2");
  EXPECT_THROW(engine->choose_move(*oware->new_game()), Error);
}

TEST(Engine, HigherLevelBeatsLevelOne) {
  ArenaOptions o;
  o.variant = "kalah";
  o.engines = {"level:5,seed=1", "level:1,seed=2"};
  o.games = 20;
  const ArenaResult r = run_arena(o);
  EXPECT_EQ(r.games, 20);
  EXPECT_EQ(r.wins + r.draws + r.losses, 20);
  EXPECT_GT(r.score, 0.75);
}

TEST(Engine, EloFromResults) {
  double elo, margin;
  elo_from_results(50, 0, 50, elo, margin);
  EXPECT_NEAR(elo, 0, 1e-9);
  EXPECT_GT(margin, 50);
  EXPECT_LT(margin, 150);
  elo_from_results(75, 0, 25, elo, margin);
  EXPECT_NEAR(elo, 190.85, 0.1);  // -400 log10(1/0.75 - 1)
  // 17-3 in 20 games: the normal interval passes a score of 1; the margin stays near the
  // sweep estimate's Elo (20.5 / 21: +644) instead of running to the clamp (+2400).
  elo_from_results(17, 0, 3, elo, margin);
  EXPECT_NEAR(elo, 301.33, 0.01);  // -400 log10(1/0.85 - 1)
  EXPECT_GT(margin, 150);
  EXPECT_LT(margin, 300);
}

TEST(Engine, CleanSweepHasABoundedElo) {
  double elo, margin;
  elo_from_results(100, 0, 0, elo, margin);
  EXPECT_NEAR(elo, 921.3, 0.1);           // score 100.5 / 101
  EXPECT_NEAR(elo - margin, 606.8, 0.1);  // 0.05^(1/100) = 0.9705: the 95% lower bound
  double lost, lost_margin;
  elo_from_results(0, 0, 100, lost, lost_margin);
  EXPECT_NEAR(lost, -elo, 1e-9);
  EXPECT_NEAR(lost_margin, margin, 1e-9);
  // More games of the same sweep: a higher bound, still finite.
  double more, more_margin;
  elo_from_results(400, 0, 0, more, more_margin);
  EXPECT_GT(more - more_margin, elo - margin);
  EXPECT_TRUE(std::isfinite(more));
}

TEST(Engine, LevelSpecsAreTheLevelTables) {
  auto kalah = make_game("kalah");
  EXPECT_EQ(level_spec(*kalah, 1), "alphabeta:depth=1,time=1,noise=4");
  EXPECT_EQ(level_spec(*kalah, 10), "alphabeta:nodes=1000000,time=5");
  auto toguz = make_game("toguz");
  EXPECT_EQ(level_spec(*toguz, 9), "alphabeta:depth=10,time=2");
  EXPECT_THROW(level_spec(*kalah, 11), VariantError);
}

TEST(Engine, WeightsOptionIsCheckedAndPartial) {
  auto kalah = make_game("kalah");
  EXPECT_NO_THROW(make_engine(*kalah, "alphabeta:depth=2,weights=100/5/60"));
  for (const char* spec : {"alphabeta:weights=1/2/3/4/5/6/7/8/9/10/11/12/13",
                           "alphabeta:weights=1//2", "alphabeta:weights=a", "level:3,weights=1"}) {
    try {
      make_engine(*kalah, spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const VariantError& e) {
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace naqala::engine

namespace naqala::engine {
namespace {

TEST(Engine, BackgammonEnginesPlayLegalMovesAndBeatRandom) {
  auto game = make_game("backgammon");
  // Whole games, but under the sanitizers the 2-ply level plays its first plies only: its game
  // is 80% of the test's time in the release tree and took 100 s of CI's sanitizer tests.
  constexpr int kWholeGame = 2000;
  const std::pair<const char*, int> specs[] = {
      {"level:1,seed=3", kWholeGame},
      {"level:7,seed=4", naqala::testing::workload(kWholeGame, 16)},
      {"alphabeta:depth=1", kWholeGame}};
  for (const auto& [spec, plies] : specs) {
    auto engine = make_engine(*game, spec);
    auto state = game->new_game();
    Rng dice(9);
    for (int ply = 0; ply < plies && !state->is_over(); ++ply) {
      if (state->is_chance_node()) {
        state->apply_chance(state->sample_chance(dice));
        continue;
      }
      const std::string move = engine->choose_move(*state);
      ASSERT_TRUE(contains(state->legal_moves(), move)) << spec << " " << move;
      state->play(move);
    }
    if (plies == kWholeGame) {
      EXPECT_TRUE(state->is_over()) << spec;
    }
  }
  // Checker play without the cube: the 1-ply level against a random mover.
  ArenaOptions o;
  o.variant = "backgammon:cube=false";
  o.engines = {"level:6,seed=1", "random:seed=2"};
  o.games = 40;
  EXPECT_GE(run_arena(o).score, 0.85);
}

// Omweso opens with 30 setup plies: a random placement there decides the game before anyone
// plays, so openings lay the seeds out as the engines do (varied) and their random plies are
// moves of play after it. No plies: the start, the engines lay out their own seeds.
TEST(Arena, OmwesoOpeningsArePlayedPliesAfterASpreadSetup) {
  auto game = make_game("omweso");
  EXPECT_EQ(make_openings(*game, 1, 0, 5)[0], game->new_game()->position());
  const auto openings = make_openings(*game, 20, 1, 5);
  EXPECT_EQ(std::set<std::string>(openings.begin(), openings.end()).size(), 20u);
  for (const auto& pos : openings) {
    EXPECT_EQ(pos.find("setup"), std::string::npos) << pos;  // the setup is complete
    auto s = game->from_position(pos);
    EXPECT_EQ(s->to_move(), Player::North) << pos;  // and South has made one move of play
    Rng rng(1);
    EXPECT_FALSE(s->opening_setup_move(rng).has_value());
  }
  // A game without a setup is unchanged: its first random ply is a move of play.
  auto kalah = make_game("kalah");
  Rng rng(1);
  EXPECT_FALSE(kalah->new_game()->opening_setup_move(rng).has_value());
}

// Setup plies: the openings draw the first K plies of the layout at random and the engines make
// the rest, so a match measures their layouts; K = 30 lays out both sides and plies of play may
// follow. Refused: setup plies for a game without a setup, and plies of play the engines'
// part of the setup would have to come before.
TEST(Arena, SetupPliesLeaveTheRestOfTheLayoutToTheEngines) {
  auto game = make_game("omweso");
  const auto openings = make_openings(*game, 20, 0, 5, 3);
  EXPECT_EQ(std::set<std::string>(openings.begin(), openings.end()).size(), 20u);
  for (const auto& pos : openings) {
    auto s = game->from_position(pos);
    EXPECT_NE(pos.find("setup:3"), std::string::npos) << pos;  // South's d1 is next
    EXPECT_EQ(s->to_move(), Player::South) << pos;
  }
  for (const auto& pos : make_openings(*game, 5, 2, 5, 30)) {
    EXPECT_EQ(pos.find("setup"), std::string::npos) << pos;
    EXPECT_EQ(game->from_position(pos)->to_move(), Player::South) << pos;  // 2 plies of play
  }
  EXPECT_THROW(make_openings(*game, 5, 2, 5, 3), Error);
  EXPECT_THROW(make_openings(*make_game("kalah"), 5, 2, 5, 0), Error);

  // A match from such openings: the engines lay out the rest and play to the end.
  ArenaOptions o;
  o.variant = "omweso";
  o.engines = {"level:1,seed=1", "random:seed=2"};
  o.games = 2;
  o.opening_plies = 0;
  o.setup_plies = 3;
  const auto r = run_arena(o);
  ASSERT_EQ(r.results.size(), 2u);
  for (const auto& g : r.results) {
    EXPECT_NE(g.opening.find("setup:3"), std::string::npos) << g.opening;
    EXPECT_GT(g.plies, 27) << g.opening;  // the 27 setup plies left, then play
    EXPECT_FALSE(g.result.empty());
  }
}

}  // namespace
}  // namespace naqala::engine
