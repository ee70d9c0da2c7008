#include "games/backgammon/backgammon.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/rng.h"
#include "games/backgammon/family.h"
#include "games/backgammon/formats.h"
#include "games/registry.h"
#include "sanitized.h"

using namespace naqala;
using namespace naqala::backgammon;

namespace {

std::vector<std::string> move_texts(const State& s) {
  MoveList moves;
  s.legal_moves(moves);
  std::vector<std::string> out;
  for (const auto& m : moves) out.push_back(s.format_move(m));
  std::sort(out.begin(), out.end());
  return out;
}

// A state with South on roll with the given dice, from South's and North's point counts.
State position(std::initializer_list<std::pair<int, int>> south,
               std::initializer_list<std::pair<int, int>> north, int d0, int d1, Rules rules = {}) {
  Board b{};
  for (auto [pt, n] : south) b[0][pt == 25 ? kBar : pt - 1] = static_cast<std::uint8_t>(n);
  for (auto [pt, n] : north) b[1][pt == 25 ? kBar : pt - 1] = static_cast<std::uint8_t>(n);
  State s(rules);
  s.set_position(b, Player::South, d0, d1);
  return s;
}

}  // namespace

TEST(Backgammon, StartPositionId) {
  State s;
  EXPECT_EQ(s.position_id(), "4HPwATDgc/ABMA");
  EXPECT_EQ(s.pips(Player::South), 167);
  EXPECT_EQ(s.pips(Player::North), 167);
}

TEST(Backgammon, OpeningRollHigherDieMovesBoth) {
  State s;
  ASSERT_TRUE(s.is_chance_node());
  ChanceList list;
  s.chance_outcomes(list);
  EXPECT_EQ(list.size(), 30u);  // ties are re-rolled
  double total = 0;
  for (auto& c : list) total += c.probability;
  EXPECT_NEAR(total, 1.0, 1e-12);
  s.apply_chance({1, 3});  // South 1, North 3: North moves with 3-1
  EXPECT_EQ(s.to_move(), Player::North);
  EXPECT_EQ(s.die(0), 3);
  EXPECT_EQ(s.die(1), 1);
  auto moves = move_texts(s);
  EXPECT_EQ(moves.size(), 16u);
  EXPECT_TRUE(std::count(moves.begin(), moves.end(), "8/5 6/5"));
  EXPECT_TRUE(std::count(moves.begin(), moves.end(), "24/23 24/21"));
}

TEST(Backgammon, TwentyOneRollsWithProbabilities) {
  State s;
  s.apply_chance({5, 2});
  MoveList moves;
  s.legal_moves(moves);
  s.play(moves[0]);
  ASSERT_EQ(s.phase(), Phase::TurnStart);  // cube in the middle: roll or double
  s.play(Move::of(Move::Kind::Roll));
  ChanceList list;
  s.chance_outcomes(list);
  EXPECT_EQ(list.size(), 21u);
  double total = 0;
  for (auto& c : list) total += c.probability;
  EXPECT_NEAR(total, 1.0, 1e-12);
}

TEST(Backgammon, BarEntryFirstAndBlockedEntry) {
  // South on the bar; South enters on North's home board, point 25-die. North holds its
  // points 1-5 (South's 24-20): only the 6 enters.
  auto s = position({{25, 1}, {13, 14}}, {{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {13, 5}}, 6, 5);
  // Only the 6 enters (on 25-6 = 19); then the 5 is played by any checker.
  auto moves = move_texts(s);
  for (auto& m : moves) EXPECT_TRUE(m.rfind("bar/19", 0) == 0 || m == "bar/14") << m;
  auto dance = position({{25, 1}, {13, 14}},
                        {{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {13, 3}}, 6, 5);
  EXPECT_EQ(move_texts(dance), std::vector<std::string>{"pass"});
}

TEST(Backgammon, HigherDieRule) {
  // South's only movable checker is on 13; its second step lands on 2 either way, and
  // North holds South's 2 (North's 23): only one die can be played, so the 6 must be.
  auto s = position({{13, 1}, {1, 14}}, {{23, 2}, {6, 13}}, 6, 5);
  EXPECT_EQ(move_texts(s), std::vector<std::string>{"13/7"});
  // Neither die playable: the only ply is a pass.
  auto none = position({{9, 1}, {1, 14}}, {{22, 2}, {21, 2}, {6, 11}}, 6, 5);
  EXPECT_EQ(move_texts(none), std::vector<std::string>{"pass"});
  // Both dice playable only by one checker going through and bearing off.
  auto through = position({{9, 1}, {1, 14}}, {{21, 2}, {6, 13}}, 6, 5);
  EXPECT_EQ(move_texts(through), std::vector<std::string>{"9/off"});
}

TEST(Backgammon, BearOffExactAndHigher) {
  auto s = position({{6, 1}, {2, 1}}, {{1, 15}}, 5, 1);
  // The 5 cannot bear off from 2 while 6 is occupied: 6/1 then 2/1 or 6/5/... as gnubg lists.
  auto moves = move_texts(s);
  for (auto& m : moves) EXPECT_EQ(m.find("2/off"), std::string::npos) << m;
  auto t = position({{2, 1}, {1, 1}}, {{1, 15}}, 6, 5);
  EXPECT_EQ(move_texts(t), std::vector<std::string>{"2/off 1/off"});
}

TEST(Backgammon, DoublesAndCounts) {
  State s;
  s.apply_chance({6, 1});
  MoveList moves;
  s.legal_moves(moves);
  s.play(*std::find_if(moves.begin(), moves.end(),
                       [&](const Move& m) { return s.format_move(m) == "13/7 8/7"; }));
  s.play(Move::of(Move::Kind::Roll));
  s.apply_chance({4, 4});
  auto texts = move_texts(s);
  EXPECT_TRUE(std::count(texts.begin(), texts.end(), "24/20(2) 13/9(2)"));
  EXPECT_TRUE(std::count(texts.begin(), texts.end(), "13/5(2)"));
}

TEST(Backgammon, ParseMatchesByResultingPosition) {
  State s;
  s.apply_chance({6, 5});  // South moves 6-5
  auto m = s.parse_move("24/13");
  ASSERT_TRUE(m);
  EXPECT_EQ(s.format_move(*m), "24/13");
  auto m2 = s.parse_move("24/18 18/13");
  ASSERT_TRUE(m2);
  EXPECT_EQ(*m2, *m);
  auto m3 = s.parse_move("25/19");  // bar: not legal here, parses as steps
  ASSERT_TRUE(m3);
  MoveList moves;
  s.legal_moves(moves);
  EXPECT_FALSE(moves.contains(*m3));
  EXPECT_FALSE(s.parse_move("hello"));
  EXPECT_FALSE(s.parse_move("24/"));
}

TEST(Backgammon, FormatHitsAndBar) {
  // South on bar, North blot on South's 22 (North's 3).
  auto s = position({{25, 1}, {6, 14}}, {{3, 1}, {13, 14}}, 3, 1);
  auto texts = move_texts(s);
  EXPECT_TRUE(std::count(texts.begin(), texts.end(), "bar/22* 6/5"))
      << ::testing::PrintToString(texts);
  EXPECT_TRUE(std::count(texts.begin(), texts.end(), "bar/21")) << ::testing::PrintToString(texts);
}

TEST(Backgammon, CubeDropAndTake) {
  State s(Rules{.match = 5});
  s.apply_chance({3, 1});
  MoveList moves;
  s.legal_moves(moves);
  s.play(moves[0]);
  ASSERT_EQ(s.to_move(), Player::North);
  s.play(Move::of(Move::Kind::Double));
  EXPECT_EQ(s.to_move(), Player::South);
  State dropped = s;
  dropped.play(Move::of(Move::Kind::Drop));
  EXPECT_EQ(dropped.score(Player::North), 1);  // the stake before the double
  EXPECT_EQ(dropped.phase(), Phase::Opening);  // next game of the match
  s.play(Move::of(Move::Kind::Take));
  EXPECT_EQ(s.cube(), 2);
  EXPECT_EQ(s.cube_owner(), Player::South);
  EXPECT_EQ(s.phase(), Phase::Rolling);  // the doubler rolls
  EXPECT_EQ(s.to_move(), Player::North);
  EXPECT_FALSE(s.may_double(Player::North));
  EXPECT_TRUE(s.may_double(Player::South));
}

TEST(Backgammon, CrawfordGame) {
  Rules r;
  r.match = 3;
  State s(r);
  s.apply_chance({3, 1});
  MoveList moves;
  s.legal_moves(moves);
  s.play(moves[0]);
  s.play(Move::of(Move::Kind::Double));
  s.play(Move::of(Move::Kind::Take));
  // North now wins a single game with cube 2: North at 2 = match-1 -> Crawford game.
  State t = s;
  Board b{};
  b[1][0] = 1;   // North's last checker on its 1-point
  b[0][5] = 15;  // South all on its 6-point (borne off none)
  t.set_position(b, Player::North, 2, 1);
  t.legal_moves(moves);
  ASSERT_EQ(moves.size(), 1u);
  t.play(moves[0]);
  EXPECT_EQ(t.score(Player::North), 2 * 2);  // gammon with cube 2 = 4 >= 3: match over
  EXPECT_TRUE(t.is_over());
  // A single win instead: South has borne off one.
  State u = s;
  b[0][5] = 14;
  u.set_position(b, Player::North, 2, 1);
  u.legal_moves(moves);
  u.play(moves[0]);
  EXPECT_EQ(u.score(Player::North), 2);
  EXPECT_TRUE(u.crawford_game());
  u.apply_chance({5, 2});
  EXPECT_EQ(u.phase(), Phase::Moving);
  u.legal_moves(moves);
  u.play(moves[0]);
  EXPECT_EQ(u.phase(), Phase::Rolling) << "no doubling in the Crawford game";
}

TEST(Backgammon, ScoringStandardAndSeed) {
  Board b{};
  b[0][0] = 1;   // South's last checker
  b[1][5] = 10;  // North: 10 on its 6-point, 5 in South's home (North's 20)
  b[1][19] = 5;
  State s;
  s.set_position(b, Player::South, 1, 1);
  MoveList moves;
  s.legal_moves(moves);
  s.play(moves[0]);
  EXPECT_EQ(s.last_result().multiplier, 3);  // backgammon: none off, checkers in winner's home
  Rules seed;
  seed.scoring = Scoring::Seed;
  b[1][19] = 0;
  b[1][10] = 5;  // outside home but not in winner's home board
  State t(seed);
  t.set_position(b, Player::South, 1, 1);
  t.legal_moves(moves);
  t.play(moves[0]);
  EXPECT_EQ(t.last_result().multiplier, 3);  // S3: not all home
  State u;
  u.set_position(b, Player::South, 1, 1);
  u.legal_moves(moves);
  u.play(moves[0]);
  EXPECT_EQ(u.last_result().multiplier, 2);  // standard: gammon
}

TEST(Backgammon, JacobyMoneyPlay) {
  Board b{};
  b[0][0] = 1;
  b[1][5] = 15;
  Rules r;
  r.jacoby = true;
  State s(r);
  s.set_position(b, Player::South, 1, 1);
  MoveList moves;
  s.legal_moves(moves);
  s.play(moves[0]);
  EXPECT_EQ(s.outcome().scores[0], 1);  // gammon not counted: cube never turned
}

TEST(Backgammon, GnubgIdRoundTrip) {
  Rng rng(7);
  Rules r;
  r.match = 7;
  State s(r);
  int checked = 0;
  for (int ply = 0; ply < 4000 && checked < 300; ++ply) {
    if (s.is_over()) s = State(r);
    if (s.is_chance_node()) {
      Chance c{static_cast<std::uint8_t>(1 + rng.below(6)),
               static_cast<std::uint8_t>(1 + rng.below(6))};
      if (s.phase() == Phase::Opening && c.a == c.b) continue;
      s.apply_chance(c);
    } else {
      MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    if (s.phase() == Phase::Opening || s.is_over()) continue;
    State back = State::from_gnubg_id(s.gnubg_id(), r);
    EXPECT_EQ(back.gnubg_id(), s.gnubg_id());
    EXPECT_EQ(back.board(), s.board());
    // The match ID cannot tell "may double, has not decided" from "chose to roll".
    if (!(s.phase() == Phase::Rolling && s.may_double(s.on_roll()))) {
      EXPECT_EQ(back.phase(), s.phase());
    }
    EXPECT_EQ(back.to_move(), s.to_move());
    ++checked;
  }
  EXPECT_GE(checked, 300);
}

// Found by fuzz_backgammon_formats: a match ID with the lower die first (gnubg keeps the order
// rolled) came back from encode_match_id with the dice swapped, so not as the same key.
TEST(Backgammon, MatchIdWithTheLowerDieFirstReadsBackTheSame) {
  const MatchKey k = decode_match_id("cATakessAAAA");
  EXPECT_GE(k.dice[0], k.dice[1]);
  EXPECT_EQ(decode_match_id(encode_match_id(k)), k);
}

TEST(Backgammon, AHugeCubeEndsTheMatchInsteadOfWrappingTheScore) {
  // fuzz_position: a 1602-point match, cube 16384, South offering to resign a backgammon.
  // Accepted, it is 49,152 points: the 16-bit score wrapped to -16,384 and the match went on.
  auto game = make_game("backgammon:match=5");
  auto s = game->from_position("4HPwATDgc/ABMA:HulayAAAAAAE");
  s->play("accept");
  EXPECT_TRUE(s->is_over());
  EXPECT_EQ(s->outcome().winner, Player::North);
  EXPECT_GE(s->outcome().scores[index(Player::North)], 1602);
  EXPECT_EQ(game->from_position(s->position())->position(), s->position());
}

TEST(Backgammon, MoneySessionScoreRoundTrips) {
  // A money session at 37-48 with the Jacoby rule, North on roll with 5-3: the score stays.
  const std::string id = "4HPwATDgc/ABMA:cIkOAFACgAEE";
  EXPECT_EQ(State::from_gnubg_id(id, {}).gnubg_id(), id);
}

TEST(Backgammon, BadIdsAreClearErrors) {
  EXPECT_THROW(State::from_gnubg_id("4HPwATDgc/ABMA", {}), ParseError);
  EXPECT_THROW(State::from_gnubg_id("4HPwATDgc/AB!A:cAgAAAAAAAAA", {}), ParseError);
  EXPECT_THROW(State::from_gnubg_id("////////////// :cAgAAAAAAAAA", {}), ParseError);
  try {
    State::from_gnubg_id("4HPwATDgc/ABMA:cAg", {});
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("12"), std::string::npos);
  }
}

TEST(Backgammon, FibsBoardRoundTrip) {
  State s(Rules{.match = 5});
  s.apply_chance({4, 6});  // North moves first with 6-4
  auto fb = fibs_board_of(s);
  auto text = write_fibs_board(fb);
  EXPECT_EQ(text.rfind("board:north:south:5:0:0:", 0), 0u) << text;
  auto back = parse_fibs_board(text);
  EXPECT_EQ(back.you, s.side(Player::North));
  EXPECT_EQ(back.opp, s.side(Player::South));
  EXPECT_EQ(back.you_dice[0], 6);
  EXPECT_EQ(back.you_dice[1], 4);
  EXPECT_THROW(parse_fibs_board("board:a:b:1"), ParseError);
}

TEST(Backgammon, RegistryAndAnyState) {
  auto g = make_game("backgammon:match=7");
  EXPECT_EQ(g->spec(), "backgammon:match=7");
  auto st = g->new_game();
  ASSERT_TRUE(st->is_chance_node());
  EXPECT_EQ(st->chance_outcomes().size(), 30u);
  st->apply_chance("3-1");  // South 3, North 1
  EXPECT_EQ(st->to_move(), Player::South);
  st->play("8/5 6/5");
  EXPECT_THROW(st->play("24/18"), IllegalMoveError);  // North must roll or double first
  st->play("roll");
  Rng rng(1);
  st->apply_chance(st->sample_chance(rng));
  EXPECT_FALSE(st->legal_moves().empty());
  auto pos = g->from_position("4HPwATDgc/ABMA:cAnlAAAAAAAE");
  EXPECT_EQ(pos->legal_moves().size(), 15u);  // 2-1 from the start
  EXPECT_NE(st->render().find("BAR"), std::string::npos);
  EXPECT_THROW(make_game("backgammon:match=x"), VariantError);
  EXPECT_THROW(make_game("backgammon:colour=red"), VariantError);
  EXPECT_THROW(st->apply_chance("7-1"), IllegalMoveError);  // not a chance node now
}

TEST(Backgammon, RandomGamesKeepInvariants) {
  Rng rng(42);
  for (int game = 0; game < naqala::testing::workload(100, 30); ++game) {
    Rules r;
    r.match = game % 3 == 0 ? 0 : 5;
    State s(r);
    for (int ply = 0; ply < 5000 && !s.is_over(); ++ply) {
      if (s.is_chance_node()) {
        ChanceList list;
        s.chance_outcomes(list);
        s.apply_chance(list[rng.below(static_cast<std::uint32_t>(list.size()))].chance);
        continue;
      }
      MoveList moves;
      s.legal_moves(moves);
      ASSERT_FALSE(moves.empty());
      std::set<std::string> seen;
      for (const auto& m : moves) {
        State t = s;
        t.play(m);
        EXPECT_TRUE(seen.insert(t.position_id() + std::to_string(t.score(Player::South)) +
                                std::to_string(t.score(Player::North)))
                        .second ||
                    m.kind != Move::Kind::Checkers);
        // The text of every move parses back to that move.
        auto parsed = s.parse_move(s.format_move(m));
        ASSERT_TRUE(parsed) << s.format_move(m);
        EXPECT_EQ(*parsed, m) << s.format_move(m) << " at " << s.gnubg_id();
      }
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      for (int p = 0; p < 2; ++p) {
        int n = 0;
        for (int i = 0; i < 25; ++i) n += s.board()[p][i];
        ASSERT_LE(n, 15);
      }
    }
    EXPECT_TRUE(s.is_over());
  }
}

// Resignation offers (RULES.md section 21 has none; as gnubg plays them): the player on roll
// offers a single, a gammon or a backgammon, the opponent accepts or declines.
TEST(Backgammon, ResignationOfferAcceptedScoresItsValueTimesTheCube) {
  State s(Rules{.match = 5});
  s.apply_chance({3, 1});  // South moves first
  MoveList moves;
  s.legal_moves(moves);
  s.play(moves[0]);
  s.play(Move::of(Move::Kind::Double));  // North doubles, South takes: cube 2, South's
  s.play(Move::of(Move::Kind::Take));
  s.apply_chance({5, 2});
  ASSERT_EQ(s.phase(), Phase::Moving);
  ASSERT_EQ(s.to_move(), Player::North);
  EXPECT_THROW(s.offer_resignation(Player::South, 1), IllegalMoveError);  // not on roll
  EXPECT_THROW(s.offer_resignation(Player::North, 4), IllegalMoveError);
  State declined = s;
  s.offer_resignation(Player::North, 2);  // after rolling
  EXPECT_EQ(s.to_move(), Player::South);
  EXPECT_EQ(s.resignation_offered(), 2);
  EXPECT_EQ(move_texts(s), (std::vector<std::string>{"accept", "decline"}));
  EXPECT_EQ(s.parse_move("reject"), Move::of(Move::Kind::Decline));
  EXPECT_THROW(s.offer_resignation(Player::North, 3), IllegalMoveError);  // one at a time
  State match_id_copy = State::from_gnubg_id(s.gnubg_id(), s.rules());
  EXPECT_EQ(match_id_copy.gnubg_id(), s.gnubg_id());  // the pending offer round-trips
  EXPECT_EQ(match_id_copy.resignation_offered(), 2);
  EXPECT_EQ(match_id_copy.to_move(), Player::South);
  s.play(Move::of(Move::Kind::Accept));
  EXPECT_EQ(s.score(Player::South), 4);  // a gammon with the cube at 2
  EXPECT_TRUE(s.last_result().resigned);
  EXPECT_EQ(s.last_result().multiplier, 2);
  EXPECT_EQ(s.phase(), Phase::Opening);  // the match goes on

  declined.offer_resignation(Player::North, 1);
  declined.play(Move::of(Move::Kind::Decline));
  EXPECT_EQ(declined.to_move(), Player::North);  // play goes on where it stopped
  EXPECT_EQ(declined.phase(), Phase::Moving);
  EXPECT_EQ(declined.resignation_declined(), 1);
  EXPECT_THROW(declined.offer_resignation(Player::North, 1), IllegalMoveError);  // not again
  State more = declined;
  more.offer_resignation(Player::North, 2);  // more is allowed
  EXPECT_EQ(more.resignation_offered(), 2);
  declined.legal_moves(moves);
  declined.play(moves[0]);  // the turn ends: a new turn may offer anything
  EXPECT_EQ(declined.resignation_declined(), 0);
}

TEST(Backgammon, ResignationOffersOnlyInTurnAndScoredAsTheGameWouldBe) {
  // Money play under the Jacoby rule: an undoubled gammon counts single, so does its
  // resignation.
  State s(Rules{.jacoby = true});
  s.apply_chance({3, 1});
  auto state = BackgammonState(s);
  state.play("resign gammon");
  EXPECT_EQ(state.to_move(), Player::North);
  EXPECT_NE(state.render().find("offers to resign a gammon (1 point)"), std::string::npos)
      << state.render();
  EXPECT_EQ(state.board_json()["resignation"]["points"], 1);
  state.play("accept");
  EXPECT_TRUE(state.is_over());
  EXPECT_EQ(state.outcome().scores[0], 0);
  EXPECT_EQ(state.outcome().scores[1], 1);
  EXPECT_EQ(state.outcome().reason, EndReason::Resignation);
  // A double waits for its answer; nobody resigns in the opening roll.
  State d(Rules{});
  EXPECT_THROW(d.offer_resignation(Player::South, 1), IllegalMoveError);
  d.apply_chance({3, 1});
  MoveList moves;
  d.legal_moves(moves);
  d.play(moves[0]);
  d.play(Move::of(Move::Kind::Double));
  EXPECT_THROW(d.offer_resignation(Player::South, 1), IllegalMoveError);
  EXPECT_THROW(d.offer_resignation(Player::North, 1), IllegalMoveError);
}
