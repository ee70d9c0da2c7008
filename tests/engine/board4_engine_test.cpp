// Engines for the four-row families (Bao, Omweso): legal moves to the end of seeded games at
// every level, Omweso's setup policy, and a deeper level beating level 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/error.h"
#include "engine/engine.h"
#include "engine/typed_engines.h"
#include "games/bao/bao.h"
#include "games/registry.h"

namespace naqala::engine {
namespace {

constexpr const char* kVariants[] = {"bao", "bao-kujifunza", "omweso", "omweso-s0"};

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Plays one game between two engines, checking every move; returns the outcome.
Outcome play_out(const AnyGame& game, Engine& south, Engine& north, int max_plies, int* plies) {
  auto state = game.new_game();
  int n = 0;
  for (; n < max_plies && !state->is_over(); ++n) {
    Engine& e = state->to_move() == Player::South ? south : north;
    const std::string move = e.choose_move(*state);
    EXPECT_TRUE(contains(state->legal_moves(), move))
        << game.info().name << " " << e.name() << " ply " << n << ": " << move;
    if (!contains(state->legal_moves(), move)) break;
    state->play(move);
  }
  if (plies) *plies = n;
  EXPECT_TRUE(state->is_over()) << game.info().name << " " << south.name() << " vs " << north.name()
                                << " not over after " << n << " plies";
  if (state->is_over()) {
    EXPECT_THROW(south.choose_move(*state), IllegalMoveError);
  }
  return state->outcome();
}

TEST(Board4Engine, EveryFamilyHasAnEngine) {
  for (const char* v : kVariants) {
    auto game = make_game(v);
    for (int level = 1; level <= 10; ++level)
      EXPECT_NO_THROW(make_engine(*game, "level:" + std::to_string(level))) << v << " " << level;
    EXPECT_NO_THROW(make_engine(*game, "alphabeta:weights=100/20")) << v;
    EXPECT_THROW(make_engine(*game, "alphabeta:weights=1/2/3/4/5/6/7/8/9"), VariantError) << v;
    EXPECT_THROW(make_engine(*game, "alphabeta:weights=1/x"), VariantError) << v;
    EXPECT_THROW(make_engine(*game, "mcts:leaf=magic"), VariantError) << v;
  }
}

// Fast engines and the low levels to the end of several seeded games of every preset.
TEST(Board4Engine, EnginesPlayOnlyLegalMovesToTheEnd) {
  for (const char* v : kVariants) {
    auto game = make_game(v);
    for (const char* spec : {"random:seed=1", "level:1,seed=2", "level:2,seed=3",
                             "alphabeta:depth=2,seed=4", "alphabeta:nodes=300,noise=1,seed=8",
                             "mcts:sims=30,seed=9", "mcts:sims=30,leaf=eval,seed=7"}) {
      for (int g = 0; g < 2; ++g) {
        auto a = make_engine(*game, spec);
        auto b = make_engine(*game, "level:1,seed=" + std::to_string(10 + g));
        int plies = 0;
        const auto t0 = std::chrono::steady_clock::now();
        if (g == 0)
          play_out(*game, *a, *b, 2000, &plies);
        else
          play_out(*game, *b, *a, 2000, &plies);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // Omweso has relay sowings whose endlessness takes seconds to establish (see the report
        // in docs/engines.md); these seeded games avoid them, and the time is reported.
        if (seconds > 1) std::printf("%s %s: %d plies in %.1f s\n", v, spec, plies, seconds);
      }
    }
  }
}

TEST(Board4Engine, OmwesoSetupIsLaidOutEvenly) {
  auto game = make_game("omweso");
  auto engine = make_engine(*game, "level:8,seed=1,setup=spread");
  auto state = game->new_game();
  // South fills 15 pits (the 16th takes the rest), then North.
  for (int ply = 0; ply < 30; ++ply) {
    const std::string move = engine->choose_move(*state);
    ASSERT_TRUE(contains(state->legal_moves(), move)) << move;
    EXPECT_EQ(move.substr(move.find('=') + 1), "2") << "ply " << ply << ": " << move;
    state->play(move);
  }
  EXPECT_EQ(state->position().find("setup"), std::string::npos) << state->position();
  // Analysis during setup is the search's own (every legal layout move scored).
  auto setup = game->new_game();
  const auto a = engine->analyze(*setup, {0, 1, 0});
  EXPECT_EQ(a.scores.size(), setup->legal_moves().size());
}

// Plays `layout` (seeds by pit in the setup order: a1..h1, then a2..h2) as the mover's setup
// plies; the 16th pit takes the rest.
void lay_out(AnyState& state, const std::vector<int>& layout) {
  const Player side = state.to_move();
  for (int k = 0; k < 15 && state.to_move() == side; ++k) {
    const std::string n = "=" + std::to_string(layout[k]);
    const auto legal = state.legal_moves();
    const auto it = std::find_if(legal.begin(), legal.end(), [&](const std::string& m) {
      return m.size() > n.size() && m.compare(m.size() - n.size(), n.size(), n) == 0;
    });
    ASSERT_NE(it, legal.end()) << "no setup move " << n << " in " << state.position();
    state.play(*it);
  }
}

// Plays on to the end with one engine on both sides: South's points (0.5 when annulled or not
// over within 400 plies).
double south_points_played_out(AnyState& state, Engine& engine) {
  for (int n = 0; n < 400 && !state.is_over(); ++n) state.play(engine.choose_move(state));
  return state.is_over() ? state.outcome().south_points() : 0.5;
}

// North's layout search (setup=search, alpha-beta's default) climbs over layouts by local
// changes: every setup ply legal, the same layout from the same seed and node limit, and
// against South's layout below it finds a layout that wins the game played on by the same
// search, where each of the old candidates (the even spread, the seeds in the back or the front
// row, one pit a column either way, either half of the board) loses it.
TEST(Board4Engine, OmwesoNorthLayoutSearchWinsWhereTheOldCandidatesLose) {
  auto game = make_game("omweso");
  const std::string spec = "alphabeta:nodes=8000";
  const std::vector<int> south = {3, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 3, 2};
  auto north_layout = [&](const std::string& north_spec) {
    auto state = game->new_game();
    lay_out(*state, south);
    auto north = make_engine(*game, north_spec);
    std::vector<int> layout;
    for (int ply = 0; ply < 15; ++ply) {
      const std::string move = north->choose_move(*state);
      EXPECT_TRUE(contains(state->legal_moves(), move)) << "ply " << ply << ": " << move;
      if (!contains(state->legal_moves(), move)) break;
      state->play(move);
      layout.push_back(std::stoi(move.substr(move.find('=') + 1)));
    }
    EXPECT_EQ(state->position().find("setup"), std::string::npos) << state->position();
    int rest = 32;
    for (int n : layout) rest -= n;
    layout.push_back(rest);
    return layout;
  };
  const auto searched = north_layout(spec + ",seed=1");
  EXPECT_EQ(north_layout(spec + ",seed=1"), searched);
  // A depth limit alone (no time, no nodes) bounds the climb too.
  EXPECT_EQ(north_layout("alphabeta:depth=2").size(), 16u);
  auto result = [&](const std::vector<int>& north) {
    auto state = game->new_game();
    lay_out(*state, south);
    lay_out(*state, north);
    auto engine = make_engine(*game, spec);
    return south_points_played_out(*state, *engine);
  };
  EXPECT_EQ(result(searched), 0);
  const std::vector<int> spread(16, 2);
  std::vector<int> back(16, 0), front(16, 0), columns(16, 0), columns_other(16, 0), left(16, 0),
      right(16, 0);
  for (int i = 0; i < 16; ++i) {
    (i < 8 ? front : back)[i] = 4;
    ((i < 8) == (i % 2 == 0) ? columns : columns_other)[i] = 4;
    (i % 8 < 4 ? left : right)[i] = 4;
  }
  for (const auto& old : {spread, back, front, columns, columns_other, left, right})
    EXPECT_EQ(result(old), 1) << ::testing::PrintToString(old);
}

// South lays out the even spread with setup=search too (his layout search measured worse
// against the spread, docs/engines.md "Omweso's setup"); a bad setup is refused.
TEST(Board4Engine, OmwesoSouthLaysOutTheSpreadAndBadSetupsAreRefused) {
  auto game = make_game("omweso");
  auto searched = make_engine(*game, "alphabeta:nodes=2000,seed=4");
  auto spread = make_engine(*game, "alphabeta:nodes=2000,setup=spread");
  auto state = game->new_game();
  state->play("a1=5");  // the spread of what is left, not of a full hand
  for (int ply = 1; ply < 15; ++ply) {
    const std::string move = searched->choose_move(*state);
    ASSERT_TRUE(contains(state->legal_moves(), move)) << move;
    EXPECT_EQ(move, spread->choose_move(*state)) << "ply " << ply;
    state->play(move);
  }
  EXPECT_EQ(state->to_move(), Player::North);
  EXPECT_THROW(make_engine(*game, "alphabeta:setup=magic"), VariantError);
  EXPECT_THROW(make_engine(*game, "mcts:setup=search"), VariantError);
}

// Bao's table (data/bao/eval.txt) also plays bao:namua_takasa=any, which differs from the preset
// only in a rare takasa; an option that changes the start (house_seeds=8) plays the linear
// weights. At the start both namua_takasa readings have the same moves, so the preset and the
// option agree, and the table's value differs from the linear weights'.
TEST(Board4Engine, BaoTableServesTheNamuaTakasaOption) {
  const std::string linear = "alphabeta:weights=177/-30/-80/82/-104/175/-11/0";
  auto value = [](const std::string& variant, const std::string& spec) {
    auto game = make_game(variant);
    auto state = game->new_game();
    return make_engine(*game, spec)->analyze(*state, {0, 3, 0}).value;
  };
  const double preset = value("bao", "alphabeta");
  EXPECT_EQ(value("bao:namua_takasa=any", "alphabeta"), preset);
  EXPECT_EQ(value("bao:namua_takasa=restricted", "alphabeta"), preset);
  EXPECT_NE(value("bao:namua_takasa=any", linear), preset);
  EXPECT_EQ(value("bao:house_seeds=8", "alphabeta"), value("bao:house_seeds=8", linear));
  EXPECT_EQ(value("bao:namua_takasa=any,house_seeds=8", "alphabeta"),
            value("bao:namua_takasa=any,house_seeds=8", linear));
}

// The nodes of a fixed-depth search of the variant's start (Omweso: its first setup ply).
std::uint64_t start_nodes(const char* variant, const std::string& spec, int depth) {
  auto game = make_game(variant);
  return make_engine(*game, spec)->analyze(*game->new_game(), {0, depth, 0}).nodes;
}

// lmr=D turns late move reductions on from depth D (0: off) for every family; Bao reduces from
// depth 3 by default, Omweso not at all; a bad value is refused.
// On a game clock, Bao's namua stage lasts as long as the mover's hand (a seed a move) and its
// mtaji stage about 10 moves: each namua move gets an equal share of the clock, where the flat
// 25 moves of an unknown game left the last namua moves, which decide most games, the least.
// Bao la Kujifunza has no namua stage: unknown (0).
TEST(Board4Engine, BaoClockPlansByTheHand) {
  const bao::Rules rules = bao::make_rules("bao", {}),
                   kujifunza_rules = bao::make_rules("bao-kujifunza", {});
  bao::State s = bao::State::initial(rules);
  EXPECT_EQ(moves_left_estimate(s), 22 + 10);
  int namua = 0;
  for (int ply = 0; ply < 200 && !s.is_over(); ++ply) {
    const int hand = s.hand(s.to_move());
    EXPECT_EQ(moves_left_estimate(s), hand + 10) << "ply " << ply;
    namua += hand > 0;
    bao::State::MoveList moves;
    s.legal_moves(moves);
    ASSERT_FALSE(moves.empty());
    s.play(moves[ply % moves.size()]);
  }
  EXPECT_GT(namua, 10);
  EXPECT_EQ(moves_left_estimate(bao::State::initial(kujifunza_rules)), 0);
}

TEST(Board4Engine, LateMoveReductionsAreAnOption) {
  EXPECT_LT(start_nodes("bao", "alphabeta:lmr=3", 6), start_nodes("bao", "alphabeta:lmr=0", 6));
  EXPECT_EQ(start_nodes("bao", "alphabeta", 6), start_nodes("bao", "alphabeta:lmr=3", 6));
  EXPECT_EQ(start_nodes("omweso", "alphabeta", 3), start_nodes("omweso", "alphabeta:lmr=0", 3));
  auto game = make_game("bao");
  EXPECT_THROW(make_engine(*game, "alphabeta:lmr=-1"), VariantError);
  EXPECT_THROW(make_engine(*game, "alphabeta:lmr=x"), VariantError);
}

// Bao stands on the evaluation near the horizon (reverse futility: 4 plies, 3 seeds a ply),
// which futility=D and futility_margin=M override and futility=0 turns off; Omweso does not
// prune. Bad values are refused.
TEST(Board4Engine, ReverseFutilityIsAnOption) {
  const std::uint64_t on = start_nodes("bao", "alphabeta", 8);
  EXPECT_LT(on, start_nodes("bao", "alphabeta:futility=0", 8));
  EXPECT_EQ(on, start_nodes("bao", "alphabeta:futility=4,futility_margin=300", 8));
  EXPECT_NE(on, start_nodes("bao", "alphabeta:futility=2", 8));
  EXPECT_NE(on, start_nodes("bao", "alphabeta:futility_margin=100", 8));
  EXPECT_EQ(start_nodes("omweso", "alphabeta", 3),
            start_nodes("omweso", "alphabeta:futility=0", 3));
  auto game = make_game("bao");
  auto state = game->new_game();
  EXPECT_TRUE(
      contains(state->legal_moves(), make_engine(*game, "alphabeta:depth=8")->choose_move(*state)));
  EXPECT_THROW(make_engine(*game, "alphabeta:futility=-1"), VariantError);
  EXPECT_THROW(make_engine(*game, "alphabeta:futility_margin=x"), VariantError);
}

// A deeper level wins a small seeded match against level 1, colours alternating.
TEST(Board4Engine, DeeperLevelBeatsLevelOne) {
  for (const char* v : kVariants) {
    auto game = make_game(v);
    double points = 0;
    int decided = 0;
    constexpr int kGames = 4;
    for (int g = 0; g < kGames; ++g) {
      auto strong = make_engine(*game, "alphabeta:depth=3,seed=" + std::to_string(g));
      auto weak = make_engine(*game, "level:1,seed=" + std::to_string(100 + g));
      const bool strong_south = g % 2 == 0;
      const Outcome o = strong_south ? play_out(*game, *strong, *weak, 2000, nullptr)
                                     : play_out(*game, *weak, *strong, 2000, nullptr);
      if (o.winner) ++decided;
      const double south = o.south_points();
      points += strong_south ? south : 1 - south;
    }
    EXPECT_GT(points, kGames / 2.0 + 0.5) << v << ": depth 3 scored " << points << " of " << kGames
                                          << " against level 1 (" << decided << " decided)";
  }
}

}  // namespace
}  // namespace naqala::engine
