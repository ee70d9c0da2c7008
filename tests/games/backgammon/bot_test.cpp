#include "games/backgammon/bot.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "core/rng.h"

using namespace naqala;
using namespace naqala::backgammon;

namespace {

void roll(State& s, Rng& rng) {
  ChanceList list;
  s.chance_outcomes(list);
  double r = rng.uniform(), acc = 0;
  for (const auto& c : list) {
    acc += c.probability;
    if (r < acc) {
      s.apply_chance(c.chance);
      return;
    }
  }
  s.apply_chance(list[list.size() - 1].chance);
}

// Plays one game or match; `bot_side` is played by the bot, the other side at random.
State play_out(Rules rules, std::optional<Player> bot_side, Rng& rng) {
  State s(rules);
  while (!s.is_over()) {
    if (s.is_chance_node()) {
      roll(s, rng);
      continue;
    }
    MoveList moves;
    s.legal_moves(moves);
    Move m;
    if (!bot_side || s.to_move() == *bot_side) {
      m = choose_move(s, &rng).move;
      EXPECT_TRUE(moves.contains(m)) << "bot chose an illegal move at " << s.gnubg_id();
    } else {
      m = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
    }
    s.play(m);
  }
  return s;
}

}  // namespace

TEST(BackgammonBot, BeatsRandomPlay) {
  Rng rng(5);
  Rules r;
  r.cube = false;
  int wins = 0;
  const int games = 200;
  for (int g = 0; g < games; ++g) {
    const Player bot = g % 2 ? Player::South : Player::North;
    const State s = play_out(r, bot, rng);
    if (s.outcome().winner == bot) ++wins;
  }
  EXPECT_GE(wins, games * 9 / 10) << wins << " of " << games;
}

TEST(BackgammonBot, PlaysWholeMatchesWithTheCube) {
  Rng rng(9);
  Rules r;
  r.match = 5;
  for (int m = 0; m < 10; ++m) {
    State s = play_out(r, std::nullopt, rng);
    EXPECT_TRUE(s.is_over());
    EXPECT_GE(std::max(s.score(Player::South), s.score(Player::North)), 5);
  }
}

TEST(BackgammonBot, CubeDecisions) {
  // South far ahead in a race: South doubles and North drops.
  Board b{};
  b[0][0] = 5;
  b[0][1] = 5;
  b[0][2] = 5;   // South: 30 pips, all home
  b[1][5] = 15;  // North: 90 pips
  State s;
  s.set_position(b, Player::South, 0, 0);
  ASSERT_EQ(s.phase(), Phase::TurnStart);
  EXPECT_EQ(choose_move(s).move.kind, Move::Kind::Double);
  s.play(Move::of(Move::Kind::Double));
  EXPECT_EQ(choose_move(s).move.kind, Move::Kind::Drop);
  // An even race: no double.
  Board even{};
  even[0][5] = 15;
  even[1][5] = 15;
  State t;
  t.set_position(even, Player::South, 0, 0);
  EXPECT_EQ(choose_move(t).move.kind, Move::Kind::Roll);
  // Slightly behind when doubled in an even race: take.
  t.play(Move::of(Move::Kind::Double));
  EXPECT_EQ(choose_move(t).move.kind, Move::Kind::Take);
}

TEST(BackgammonBot, TakePointCountsTheCubeTheTakerOwns) {
  // Without gammons a dead cube takes at 25%; owning the cube lowers the take point to about
  // 21.5% in contact (cube efficiency 0.68) and 20.6% in a race (0.85).
  auto take_point = [](double gammons, bool race) {
    double lo = 0, hi = 0.5;  // the taker's chance where the equity crosses -0.5
    for (int i = 0; i < 60; ++i) {
      const double p = (lo + hi) / 2;
      const Estimate doubler{1 - p, gammons * (1 - p), 0};
      (equity_after_take(doubler, race) >= -0.5 ? hi : lo) = p;
    }
    return hi;
  };
  EXPECT_NEAR(take_point(0, false), 0.5 / (2 + 0.5 * 0.68), 1e-6);
  EXPECT_NEAR(take_point(0, true), 0.5 / (2 + 0.5 * 0.85), 1e-6);
  // The doubler's gammons make taking worse.
  EXPECT_GT(take_point(0.2, false), take_point(0, false) + 0.02);
  // A certain loss is worth -1 (or -2 with a certain gammon), never more.
  EXPECT_NEAR(equity_after_take({1, 0, 0}, false), -1, 1e-9);
  EXPECT_NEAR(equity_after_take({1, 1, 0}, false), -2, 1e-9);
}

TEST(BackgammonBot, TakesADoubleGnubgTakes) {
  // From bot self-play: South on roll, the bot gives him 76% (cubeless equity +0.58);
  // gnubg 2-ply: 77% and "Double, take" (+0.939). The dead-cube rule dropped it.
  Rules r;
  State s = State::from_gnubg_id("3+4BACDYuwVDAA:MAEAAAAAAAAE", r);
  ASSERT_EQ(s.phase(), Phase::TurnStart);
  s.play(Move::of(Move::Kind::Double));
  EXPECT_EQ(choose_move(s).move.kind, Move::Kind::Take);
}

#include "games/backgammon/mat.h"

TEST(BackgammonMat, ExportImportRoundTrip) {
  Rng rng(11);
  for (int match : {0, 3, 7}) {
    Rules r;
    r.match = match;
    MatchRecord rec;
    rec.rules = r;
    rec.names = {"Alice", "Bob"};
    State s(r);
    while (!s.is_over()) {
      if (s.is_chance_node()) {
        ChanceList list;
        s.chance_outcomes(list);
        const auto c = list[rng.below(static_cast<std::uint32_t>(list.size()))].chance;
        rec.events.push_back({true, c, {}});
        s.apply_chance(c);
        continue;
      }
      const Move m = choose_move(s, &rng).move;
      rec.events.push_back({false, {}, m});
      s.play(m);
    }
    const std::string text = export_mat(rec);
    const MatchRecord back = import_mat(text);
    EXPECT_EQ(back.names, rec.names);
    EXPECT_EQ(back.rules.match, match);
    ASSERT_EQ(back.events.size(), rec.events.size()) << text;
    // Opening rolls are kept; other rolls are written higher die first, as they are stored.
    EXPECT_TRUE(back.events == rec.events) << text;
    EXPECT_EQ(export_mat(back), text);
    EXPECT_EQ(replay(back).outcome(), s.outcome());
  }
}

TEST(BackgammonMat, BadFilesNameTheLine) {
  EXPECT_THROW(import_mat("nothing here"), naqala::ParseError);
  const std::string bad =
      " 3 point match\n\n Game 1\n a : 0                          b : 0\n  1) 31: 8/5 6/5          "
      "    42: 24/22 13/9\n"
      "  2) 65: 24/13                 55: 8/3(3)\n";
  try {
    import_mat(bad);
    FAIL() << "an illegal move was accepted";
  } catch (const naqala::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("line 6"), std::string::npos) << e.what();
  }
}

TEST(BackgammonMat, ResignationsAsGnubgWritesThem) {
  // gnubg writes a resignation only as "Wins N points" in the winner's column.
  const std::string text =
      " 3 point match\n\n Game 1\n a : 0                          b : 0\n"
      "  1) 31: 8/5 6/5                 42: 24/22 13/9\n"
      "                                  Wins 2 points\n\n"
      " Game 2\n a : 0                          b : 2\n"
      "  1) 64: 24/14\n";
  const MatchRecord m = import_mat(text);
  const State s = replay(m);
  EXPECT_EQ(s.score(Player::North), 2);
  EXPECT_EQ(s.games_played(), 1);
  const auto resign =
      std::find_if(m.events.begin(), m.events.end(), [](const auto& e) { return e.resign > 0; });
  ASSERT_NE(resign, m.events.end());
  EXPECT_EQ(resign->resign, 2);
  EXPECT_EQ(resign->resigner, Player::South);
  const MatchRecord back = import_mat(export_mat(m));
  EXPECT_TRUE(back.events == m.events) << export_mat(m);
}
