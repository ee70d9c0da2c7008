// The worked examples and numeric claims of the seeds for the presets of RULES.md sections
// 5-7, 10, 11, 13-20, one test each, naming the seed line they check.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/rng.h"
#include "games/registry.h"
#include "games/sow_trace.h"
#include "games/sowing/family.h"
#include "games/typed_state.h"
#include "play/record.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

using ::testing::HasSubstr;

using testing::legal;
using testing::play;
using testing::preset;  // keeps every ruleset a test loads alive: states point at their rules

State at(const std::shared_ptr<const Rules>& r, const char* position) {
  return State::from_position(*r, position);
}

// ---------------------------------------------------------------- Awale (RULES.md 5)

// S2 rule 7 read as A1(a): 1-3 seeds before the last one, so a pit made 4 is taken.
TEST(Awale, CapturesCountedBeforeTheLastSeed) {
  State s = at(preset("awale"), "4,4,4,4,4,1/3,2,4,4,4,4/3,3/S");
  play(s, "6");
  EXPECT_EQ(s.position(), "4,4,4,4,4,0/0,2,4,4,4,4/7,3/N");
  State t = at(preset("awale", {{"capture", "after"}}), "4,4,4,4,4,1/3,2,4,4,4,4/3,3/S");
  play(t, "6");
  EXPECT_EQ(t.position(), "4,4,4,4,4,0/4,2,4,4,4,4/3,3/N");
}

// S2 rule 8: the preceding pits that hold as many are emptied too.
TEST(Awale, ChainOfPrecedingPits) {
  State s = at(preset("awale"), "4,4,4,4,4,3/1,2,3,4,4,4/4,3/S");
  play(s, "6");
  EXPECT_EQ(s.position(), "4,4,4,4,4,0/0,0,0,4,4,4/13,3/N");
}

// S2 rule 9: a krou (12 or more) goes round and passes over its own pit.
TEST(Awale, KrouSkipsItsOwnPit) {
  State s = at(preset("awale"), "12,0,0,0,0,0/3,3,3,3,3,3/9,9/S");
  play(s, "1");
  EXPECT_EQ(s.position(), "0,2,1,1,1,1/4,4,4,4,4,4/9,9/N");
}

// S2 rule 10 literally (option feeding=gift): one seed into the pit opposite, as the turn.
TEST(Awale, GiftOfOneSeed) {
  State s = at(preset("awale", {{"feeding", "gift"}}), "2,0,3,0,0,0/0,0,0,0,0,0/20,23/S");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"g1", "g3"}));
  play(s, "g3");
  EXPECT_EQ(s.position(), "2,0,2,0,0,0/0,0,0,1,0,0/20,23/N");
  // By default the starving opponent is fed by a move that reaches him.
  State t = at(preset("awale"), "2,0,3,0,0,0/0,0,0,0,0,0/20,23/S");
  EXPECT_EQ(legal(t), (std::vector<std::string>{}));
  EXPECT_TRUE(t.is_over());
}

// S2 rule 11: when play goes round in circles each player takes his own side.
TEST(Awale, CycleGivesEachHisSide) {
  auto r = preset("awale");
  State s = at(r, "1,0,0,0,0,0/1,0,0,0,0,0/23,23/S");
  ASSERT_TRUE(s.ends_on_cycle());
  s.end_by_cycle();
  EXPECT_EQ(s.outcome().scores, (std::array<int, 2>{24, 24}));
  EXPECT_TRUE(s.outcome().is_draw());
}

// ---------------------------------------------------------------- Ayoayo (A9)

TEST(Ayoayo, RelaySowingOnOccupiedPits) {
  State s = at(preset("ayoayo"), "0,0,0,0,2,1/1,0,0,0,0,5/20,19/S");
  play(s, "5");  // S6 1->2, N1 1->2: lifted, N2 and N3 get one each; N3 was empty
  EXPECT_EQ(s.position(), "0,0,0,0,0,2/0,1,1,0,0,5/20,19/N");
}

TEST(Ayoayo, OwnEmptyPitCapturesTheOppositePitOnly) {
  State s = at(preset("ayoayo"), "1,0,3,3,3,3/3,3,3,3,4,3/8,8/S");
  play(s, "1");
  EXPECT_EQ(s.position(), "0,1,3,3,3,3/3,3,3,3,0,3/12,8/N");
}

// Found by fuzz_sowing_invariants (tests/fuzz/regressions): a game that ended at 25 was read
// back as going on (the threshold was checked after a move, never on reading), and then ended
// again by the feeding rule with other stores.
TEST(Ayoayo, AGameEndedAtTwentyFiveReadsBackAsEnded) {
  State s = at(preset("ayoayo"), "0,0,1,0,0,0/0,0,1,0,0,0/24,22/S");
  play(s, "3");  // the last seed in the empty pit 4 takes North's pit 3: 25
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.position(), "0,0,0,1,0,0/0,0,0,0,0,0/25,22/S");
  const State back = at(preset("ayoayo"), s.position().c_str());
  EXPECT_TRUE(back.is_over());
  EXPECT_EQ(back.position(), s.position());
  EXPECT_EQ(back.outcome().reason, EndReason::Threshold);
}

TEST(Ayoayo, MustFeedAndTwentyFiveWins) {
  // Pit 4 ends in an own empty pit (nothing opposite to take) and leaves North starving.
  State s = at(preset("ayoayo"), "0,0,0,1,0,1/0,0,0,0,0,0/24,22/S");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"6"}));
  play(s, "6");
  EXPECT_FALSE(s.is_over());
  auto r = preset("ayoayo");
  EXPECT_EQ(r->threshold, 25);
}

// ---------------------------------------------------------------- Ayo-ayo, S4 children's (6)

// S4:101: a pit reaching four while sowing goes to the sower at once; the sowing goes on.
TEST(AyoayoFours, FoursDuringSowingGoToTheSower) {
  State s = at(preset("ayoayo-fours"), "0,0,0,0,0,3/3,0,0,0,0,0/21,21/S");
  play(s, "6");
  EXPECT_EQ(s.position(), "0,0,0,0,0,0/0,1,1,0,0,0/25,21/N");
}

TEST(AyoayoFours, LastSeedMakingFourEndsTheMove) {
  State s = at(preset("ayoayo-fours"), "0,0,0,0,0,1/3,1,0,0,0,0/22,21/S");
  play(s, "6");
  EXPECT_EQ(s.position(), "0,0,0,0,0,0/0,1,0,0,0,0/26,21/N");
}

// S4:120: the player who has nothing to move loses; option end=25 follows S4:143.
TEST(AyoayoFours, NoMoveLosesOrCountsWithTheOption) {
  State s = at(preset("ayoayo-fours"), "1,0,0,0,0,0/0,0,0,0,0,0/23,24/N");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().winner, Player::South);
  State t = at(preset("ayoayo-fours", {{"end", "25"}}), "1,0,0,0,0,0/0,0,0,0,0,0/23,24/N");
  ASSERT_TRUE(t.is_over());
  EXPECT_TRUE(t.outcome().is_draw());  // South adds his seed: 24-24 (S4:143)
}

// ---------------------------------------------------------------- Nam-Nam (7)

// S4:374: the owner of a pit made four during the sowing takes it.
TEST(NamNam, OwnersFourDuringSowing) {
  State s = at(preset("namnam"), "1,2,0,0,0,3/3,0,0,0,0,5/16,18/S");
  play(s, "6");
  EXPECT_EQ(s.position(), "1,2,0,0,0,0/0,1,1,0,0,5/16,22/N");
}

// S4:376: the last seed's four goes to the mover whoever owns the pit, and the move ends.
TEST(NamNam, LastFourGoesToTheMover) {
  State s = at(preset("namnam"), "1,2,0,0,0,1/3,1,0,0,0,5/16,19/S");
  play(s, "6");
  EXPECT_EQ(s.position(), "1,2,0,0,0,0/0,1,0,0,0,5/20,19/N");
}

// S4:373: nothing special happens at the emptied pit: it gets a seed.
TEST(NamNam, OriginIsNotSkipped) {
  State s = at(preset("namnam"), "12,0,0,0,0,0/0,0,0,0,0,0/18,18/S");
  play(s, "1");
  EXPECT_EQ(s.position(), "1,1,1,1,1,1/1,1,1,1,1,1/18,18/N");
}

// Found by fuzz_sowing_invariants (tests/fuzz/regressions): a finished game's text, written
// after its last round was counted, counted that round again when read (round:116, won 58,39).
TEST(NamNam, AFinishedGameReadsBackAsWritten) {
  const std::string over = "0,0,0,0,0,0/0,0,0,0,0,0/0,48/N/owners:SNSNNSNNNNNN/round:115/won:58,38";
  State s = at(preset("namnam"), over.c_str());
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.position(), over);
  EXPECT_EQ(s.rounds_won(Player::North), 38);
}

// S4:378: a player whose pits are empty passes.
TEST(NamNam, EmptyPlayerPasses) {
  State s = at(preset("namnam"), "0,0,0,0,1,2/0,0,0,0,0,0/21,24/N");
  EXPECT_FALSE(s.is_over());
  EXPECT_EQ(s.to_move(), Player::South);
}

// S4:379-382 and A10: with eight seeds left, whoever takes the next four takes the last
// four; the round's winner fills his row and claims one of the loser's pits per extra four.
TEST(NamNam, EightSeedEndAndClaimedPits) {
  State s = at(preset("namnam"), "0,0,0,0,0,1/3,0,0,0,0,4/20,20/S");
  play(s, "6");
  ASSERT_EQ(s.phase(), State::Phase::Claim);
  EXPECT_EQ(s.to_move(), Player::South);
  EXPECT_EQ(s.store(Player::South), 28);
  EXPECT_EQ(legal(s), (std::vector<std::string>{"claim:1", "claim:2", "claim:3", "claim:4",
                                                "claim:5", "claim:6"}));
  play(s, "claim:3");
  EXPECT_EQ(s.position(),
            "4,4,4,4,4,4/4,4,4,4,4,4/0,0/N/owners:SSSSSSNNSNNN/round:2/starter:N/won:1,0");
  EXPECT_EQ(s.owner_of(s.rules().first_pit(Player::North) + 2), Player::South);
  // South now sows from North's pit 3 as his pit 9 (his path: 1-6, then North's 1-6).
  State t = s;
  play(t, "1");  // North first (rounds alternate)
  EXPECT_THAT(legal(t), ::testing::Contains("9"));
}

// A10: every capture is a four, so stores stay multiples of four and claims are exact.
TEST(NamNam, StoresStayMultiplesOfFour) {
  auto r = preset("namnam");
  Rng rng(7);
  for (int game = 0; game < 20; ++game) {
    TypedState<State> any(State::initial(*r), r);
    State::MoveList moves;
    for (int ply = 0; ply < 3000 && !any.typed().is_over(); ++ply) {
      const State& s = any.typed();
      if (s.phase() == State::Phase::Play) {
        EXPECT_EQ(s.store(Player::South) % 4, 0) << s.position();
        EXPECT_EQ(s.store(Player::North) % 4, 0) << s.position();
      }
      s.legal_moves(moves);
      any.play_typed(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
}

// S4:384: the game is won by holding every seed.
TEST(NamNam, AllSeedsWinTheGame) {
  State s = at(preset("namnam"), "0,0,0,0,0,0/0,0,0,0,0,0/48,0/S");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().winner, Player::South);
}

// ---------------------------------------------------------------- Kenyan Bao (10, 11)

// S4:391: 3 seeds in each of 16 pits.
TEST(KenyanBao, FortyEightSeeds) {
  EXPECT_EQ(preset("kenyan-bao")->total_seeds, 48);
}

// S4:394-395: the own store is sown; the 17th seed passes over the emptied pit.
TEST(KenyanBao, OwnStoreSownOriginSkipped) {
  State s = at(preset("kenyan-bao"), "17,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/10,13/S");
  play(s, "1");
  EXPECT_EQ(s.position(), "0,2,1,1,1,1,1,1/2,2,2,2,2,2,2,2/11,13/N");
}

// S4:396: the last seed in the own store gives another move.
TEST(KenyanBao, ExtraTurn) {
  State s = at(preset("kenyan-bao"), "3,3,3,3,3,3,3,1/3,3,3,3,3,3,3,3/2,0/S");
  play(s, "8");
  EXPECT_EQ(s.position(), "3,3,3,3,3,3,3,0/3,3,3,3,3,3,3,3/3,0/S");
}

// S4:397: ending in an empty pit of the near row takes the opposite pit.
TEST(KenyanBao, CaptureOpposite) {
  State s = at(preset("kenyan-bao"), "1,0,3,3,3,3,3,3/3,3,3,3,3,3,5,3/2,1/S");
  play(s, "1");
  EXPECT_EQ(s.position(), "0,1,3,3,3,3,3,3/3,3,3,3,3,3,0,3/7,1/N");
}

// S4:400-401: 25 wins at once; 24-24 is a draw.
TEST(KenyanBao, TwentyFiveWinsTwentyFourAllDraws) {
  State s = at(preset("kenyan-bao"), "1,0,0,0,0,0,0,0/0,0,0,0,0,0,4,0/22,21/S");
  play(s, "1");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().reason, EndReason::Threshold);
  EXPECT_EQ(s.outcome().winner, Player::South);
  State t = at(preset("kenyan-bao"), "1,0,0,0,0,0,0,0/0,0,0,0,0,0,1,0/22,24/S");
  play(t, "1");
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().scores, (std::array<int, 2>{24, 24}));
  EXPECT_TRUE(t.outcome().is_draw());
}

// S4:404, 407: 2 seeds in each of 16 pits, 32.
TEST(KenyanBaoLaps, ThirtyTwoSeeds) {
  EXPECT_EQ(preset("kenyan-bao-laps")->total_seeds, 32);
}

// S4:413: a single seed may start a move only when every non-empty pit holds one.
TEST(KenyanBaoLaps, SingletonRestriction) {
  EXPECT_EQ(legal(at(preset("kenyan-bao-laps"), "1,2,0,0,0,0,0,0/2,2,2,2,2,2,2,2/7,6/S")),
            (std::vector<std::string>{"2"}));
  EXPECT_EQ(legal(at(preset("kenyan-bao-laps"), "1,1,0,0,0,0,0,0/2,2,2,2,2,2,2,2/8,6/S")),
            (std::vector<std::string>{"1", "2"}));
}

// S4:411-412: laps while the last seed finds seeds; an own empty pit captures opposite.
TEST(KenyanBaoLaps, LapsThenCapture) {
  State s = at(preset("kenyan-bao-laps"), "0,1,0,0,0,0,0,0/2,2,2,2,2,2,1,2/8,8/S");
  play(s, "2");
  EXPECT_EQ(s.position(), "0,0,1,0,0,0,0,0/2,2,2,2,2,0,1,2/10,8/N");
  State t = at(preset("kenyan-bao-laps"), "0,1,1,0,0,0,0,0/2,2,2,2,2,2,1,2/8,7/S");
  play(t, "2");  // S3 1->2: lifted, S4 and S5 get one; S5 was empty: takes N4 (opposite)
  EXPECT_EQ(t.position(), "0,0,0,1,1,0,0,0/2,2,2,0,2,2,1,2/10,7/N");
}

// ---------------------------------------------------------------- Congklak (13)

// S0:26: 7, 8 or 9 pits with as many seeds: 98, 128 or 162 shells.
TEST(Congklak, BoardTotals) {
  EXPECT_EQ(preset("congklak")->total_seeds, 98);
  EXPECT_EQ(preset("congklak", {{"pits", "8"}})->total_seeds, 128);
  EXPECT_EQ(preset("congklak", {{"pits", "9"}})->total_seeds, 162);
}

// S0:26-27: clockwise, the own store on the left, a seed there gives another move.
TEST(Congklak, ClockwiseIntoOwnStoreMovesAgain) {
  State s = at(preset("congklak", {{"simultaneous_start", "false"}}),
               "1,7,7,7,7,7,7/7,7,7,7,7,7,7/3,3/S");
  play(s, "1");
  EXPECT_EQ(s.position(), "0,7,7,7,7,7,7/7,7,7,7,7,7,7/4,3/S");
}

// S0:27: an own empty pit takes the opposite pit and the capturing shell.
TEST(Congklak, CaptureWithTheCapturingShell) {
  State s = at(preset("congklak", {{"simultaneous_start", "false"}}),
               "0,1,7,7,7,7,7/7,7,7,7,7,7,5/8,7/S");
  play(s, "2");
  EXPECT_EQ(s.position(), "0,0,7,7,7,7,7/7,7,7,7,7,7,0/14,7/N");
}

// S4:290 and the RULES.md preface: the first move is one joint move in lock-step; the
// player whose sowing ended first moves next.
TEST(Congklak, SimultaneousStartInLockStep) {
  auto r = preset("congklak");
  State start = State::initial(*r);
  EXPECT_EQ(start.phase(), State::Phase::Joint);
  EXPECT_EQ(legal(start).size(), 49u);
  State s = at(r, "0,0,0,0,0,1,2/0,1,0,0,0,0,0/46,48/S/phase:joint");
  play(s, "7+2");  // North's one seed ends in his empty pit 1 at tick 1; South's at tick 2
  EXPECT_EQ(s.position(), "0,0,0,0,1,2,0/1,0,0,0,0,0,0/46,48/N");
  EXPECT_THROW(State::from_position(*preset("congklak", {{"simultaneous_start", "false"}}),
                                    "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S/phase:joint"),
               ParseError);
}

// The browser animates the lock-step from its trace: both hands' seeds in the order they
// fall, a new lap wherever seeds are lifted or captured, the last lap sown out to the new board.
TEST(Congklak, LockStepIsTracedForTheBrowser) {
  auto r = preset("congklak");
  Rng rng(7);
  for (int game = 0; game < 20; ++game) {
    State s = State::initial(*r);
    const auto moves = legal(s);
    SowTrace trace;
    {
      const SowTraceScope scope(&trace);
      play(s, moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    ASSERT_FALSE(trace.laps().empty());
    std::size_t drops = 0;
    for (const auto& lap : trace.laps()) drops += lap["pits"].size();
    EXPECT_GE(drops, 14u) << "both starting pits' seven seeds";
    nlohmann::json board = trace.laps().back()["board"];
    for (const auto& pit : trace.laps().back()["pits"]) {
      const std::string name = pit;
      if (name.starts_with("store:")) {
        auto& v = board["stores"][name == "store:S" ? 0 : 1];
        v = v.get<int>() + 1;
      } else {
        auto& v = board["rows"][name[0] == 'S' ? 0 : 1][std::stoi(name.substr(1)) - 1];
        v = v.get<int>() + 1;
      }
    }
    EXPECT_EQ(board["rows"], s.board_json()["rows"]) << trace.laps().dump();
    EXPECT_EQ(board["stores"], s.board_json()["stores"]);
  }
}

// S0:27 and S4:292 (section 13): a last seed in the own store gives another sowing, inside the
// simultaneous start too: the lock-step waits while that player alone chooses his next pit.
TEST(Congklak, ExtraSowingInsideTheSimultaneousStart) {
  auto r = preset("congklak");
  State s = at(r, "0,0,0,0,0,0,2/1,0,0,0,1,0,0/46,48/S/phase:joint");
  EXPECT_TRUE(s.joint_pending());
  play(s, "7+1");  // tick 1: North's one seed reaches his store; South holds one more seed
  EXPECT_FALSE(s.joint_pending());
  EXPECT_EQ(s.phase(), State::Phase::JointTurn);  // not a joint node for the searches
  EXPECT_EQ(s.to_move(), Player::North);
  EXPECT_EQ(legal(s), (std::vector<std::string>{"5"}));
  EXPECT_EQ(s.in_hand(), 1);
  EXPECT_EQ(s.position(),
            "0,0,0,0,0,1,0/0,0,0,0,1,0,0/46,49/N/phase:joint/lockstep:1,5,1,0,15,0,0");
  EXPECT_EQ(State::from_position(*r, s.position()).position(), s.position());
  EXPECT_EQ(s.board_json()["phase"], "joint_extra");
  // Tick 2: South's last seed falls in his empty pit 5 (the opposite pit is empty), North's
  // in his empty pit 4: both end at tick 2, South moves first.
  play(s, "5");
  EXPECT_EQ(s.position(), "0,0,0,0,1,1,0/0,0,0,1,0,0,0/46,49/S");
  // Both in their stores at the same tick: both choose again, blind (a joint move).
  State both = at(r, "1,0,0,0,0,1,0/1,0,0,0,0,3,0/46,46/S/phase:joint");
  play(both, "1+1");
  EXPECT_TRUE(both.joint_pending());
  EXPECT_EQ(legal(both), (std::vector<std::string>{"6+6"}));
  EXPECT_THROW(State::from_position(
                   *r, "0,0,0,0,0,1,0/0,0,0,0,1,0,0/46,49/N/phase:joint/lockstep:1,5,1,3,15,0,0"),
               ParseError);  // a sowing that ended holds no seeds
  EXPECT_THROW(State::from_position(
                   *r, "0,0,0,0,0,1,0/0,0,0,0,1,0,0/46,49/S/phase:joint/lockstep:1,5,1,0,15,0,0"),
               ParseError);  // North chooses: North is to move
}

// The blind choice as every front end sees it: halves per side, then "south+north".
TEST(Congklak, JointHalvesThroughAnyState) {
  auto game = make_game("congklak:pits=7");
  auto s = game->new_game();
  EXPECT_TRUE(s->joint_pending());
  EXPECT_EQ(s->joint_halves(Player::South).size(), 7u);
  EXPECT_EQ(s->joint_halves(Player::North),
            (std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7"}));
  s->play("3+5");
  EXPECT_FALSE(s->joint_halves(Player::South).empty() && s->joint_pending());
  EXPECT_FALSE(make_game("kalah")->new_game()->joint_pending());
}

// ---------------------------------------------------------------- Pallanguzhi (14)

// S0:29: 14 pits, 5 seeds each, 70 in all.
TEST(Pallanguzhi, SeventySeeds) {
  EXPECT_EQ(preset("pallanguzhi")->total_seeds, 70);
}

// S0:29: the pit after the empty one is taken with the pit opposite it.
TEST(Pallanguzhi, CaptureAfterTheEmptyPit) {
  State s = at(preset("pallanguzhi"), "1,2,0,3,3,3,3/3,3,3,7,3,3,3/15,15/S");
  play(s, "1");
  EXPECT_EQ(s.position(), "0,3,0,0,3,3,3/3,3,3,0,3,3,3/25,15/N");
}

// S0:29 exceptions: (c) two empty pits: nothing; (a) the empty pit is the last of a row, so
// the following pit faces it: that pit alone.
TEST(Pallanguzhi, CaptureExceptions) {
  State c = at(preset("pallanguzhi"), "1,2,0,0,3,3,3/3,3,3,7,3,3,3/18,15/S");
  play(c, "1");
  EXPECT_EQ(c.position(), "0,3,0,0,3,3,3/3,3,3,7,3,3,3/18,15/N");
  State a = at(preset("pallanguzhi"), "0,0,0,0,1,2,0/5,3,3,3,3,3,3/22,22/S");
  play(a, "5");
  EXPECT_EQ(a.position(), "0,0,0,0,0,3,0/0,3,3,3,3,3,3/27,22/N");
}

// S0:30: a pit of exactly four, even during the sowing, goes to its owner (pasu).
TEST(Pallanguzhi, PasuGoesToTheOwner) {
  State s = at(preset("pallanguzhi"), "1,0,0,0,0,0,2/3,0,0,0,0,0,0/29,35/S");
  play(s, "7");
  EXPECT_EQ(s.position(), "1,0,0,0,0,0,0/0,1,0,0,0,0,0/29,39/N");
}

// S0:30-31: the round ends when a row is empty; five per pit from the store, the pits that
// cannot be filled burn; the next round is started by the other player.
TEST(Pallanguzhi, RefillAndBurntPits) {
  State s = at(preset("pallanguzhi"), "0,0,0,0,0,0,2/3,0,0,0,0,0,0/30,35/S");
  play(s, "7");
  EXPECT_EQ(s.position(), "5,5,5,5,5,5,0/5,5,5,5,5,5,5/0,5/N/burnt:S7/round:2/starter:N/won:0,1");
  EXPECT_TRUE(s.burnt(6));
}

// S0:31: burnt pits never receive seeds in that round.
TEST(Pallanguzhi, BurntPitsAreSkipped) {
  State s = at(preset("pallanguzhi"), "5,5,5,5,5,2,0/5,5,5,5,5,5,5/3,5/S/burnt:S7");
  play(s, "6");
  EXPECT_EQ(s.position(), "7,0,0,6,6,1,0/7,0,1,7,0,7,7/16,5/N/burnt:S7");
}

// S0:31: a player who cannot fill a single pit has lost.
TEST(Pallanguzhi, AllPitsBurntLoses) {
  State s = at(preset("pallanguzhi"), "0,0,0,0,0,0,1/0,0,0,0,0,0,3/2,64/S");
  play(s, "7");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().winner, Player::North);
}

// ---------------------------------------------------------------- Toguz Korgool (15)

// S0:33-34: 9 pits, 9 korgools each, 162.
TEST(Toguz, OneHundredSixtyTwo) {
  EXPECT_EQ(preset("toguz")->total_seeds, 162);
}

// S0:34: the first stone goes back into its pit; a single stone moves on.
TEST(Toguz, FirstStoneBackIntoTheOrigin) {
  State s = State::initial(*preset("toguz"));
  play(s, "1");
  EXPECT_EQ(s.position(), "1,10,10,10,10,10,10,10,10/9,9,9,9,9,9,9,9,9/0,0/N");
  State t = at(preset("toguz"), "1,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/8,0/S");
  play(t, "1");
  EXPECT_EQ(t.position(), "0,10,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/8,0/N");
}

// S0:34, 36: an even count in an opponent's pit is taken; odd, or in one's own row, is not.
TEST(Toguz, EvenCaptureOnly) {
  State s = at(preset("toguz"), "9,9,9,9,9,9,9,9,2/9,9,9,9,9,9,9,9,9/4,3/S");
  play(s, "9");
  EXPECT_EQ(s.position(), "9,9,9,9,9,9,9,9,1/0,9,9,9,9,9,9,9,9/14,3/N");
  State t = at(preset("toguz"), "9,9,9,9,9,9,9,9,2/8,9,9,9,9,9,9,9,9/4,4/S");
  play(t, "9");
  EXPECT_EQ(t.position(), "9,9,9,9,9,9,9,9,1/9,9,9,9,9,9,9,9,9/4,4/N");
}

// A20 (IKTF): three in an opponent's pit makes it the mover's tuz, automatically.
TEST(Toguz, TuzIsAutomatic) {
  State s = at(preset("toguz"), "9,9,9,9,9,9,9,9,2/2,9,9,9,9,9,9,9,9/7,7/S");
  EXPECT_EQ(legal(s).size(), 9u);  // `7` is the only form of a move
  play(s, "9");
  EXPECT_EQ(s.position(), "9,9,9,9,9,9,9,9,1/0,9,9,9,9,9,9,9,9/10,7/N/tuz:N1");
  EXPECT_EQ(s.tuz(Player::South), s.rules().first_pit(Player::North));
}

// S0:35: every stone later sown into the tuz goes to its owner's kazan.
TEST(Toguz, StonesSownIntoTheTuzGoToItsOwner) {
  State s = at(preset("toguz"), "9,9,9,9,9,9,9,9,1/0,9,9,9,9,9,9,9,9/10,7/S/tuz:N1");
  play(s, "9");
  EXPECT_EQ(s.position(), "9,9,9,9,9,9,9,9,0/0,9,9,9,9,9,9,9,9/11,7/N/tuz:N1");
}

// S0:35 restrictions: never pit 9; one tuz per player; not the number of the opponent's tuz.
TEST(Toguz, TuzRestrictions) {
  State nine = at(preset("toguz"), "9,9,9,9,9,9,9,9,10/9,9,9,9,9,9,9,9,2/3,3/S");
  play(nine, "9");
  EXPECT_EQ(nine.position(), "9,9,9,9,9,9,9,9,1/10,10,10,10,10,10,10,10,3/3,3/N");
  State second = at(preset("toguz"), "9,9,9,9,9,9,9,9,2/2,0,9,9,9,9,9,9,9/11,12/S/tuz:N2");
  play(second, "9");
  EXPECT_EQ(second.position(), "9,9,9,9,9,9,9,9,1/3,0,9,9,9,9,9,9,9/11,12/N/tuz:N2");
  State same = at(preset("toguz"), "0,9,9,9,9,9,9,9,2/2,9,9,9,9,9,9,9,9/10,13/S/tuz:S1");
  play(same, "9");
  EXPECT_EQ(same.position(), "0,9,9,9,9,9,9,9,1/3,9,9,9,9,9,9,9,9/10,13/N/tuz:S1");
  EXPECT_THROW(at(preset("toguz"), "9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9/0,9/S/tuz:N9"), ParseError);
}

// S0:35 as an option: declaring the tuz is a move of its own, `9t` beside `9`.
TEST(Toguz, TuzChoiceIsAMove) {
  auto r = preset("toguz", {{"tuz", "choice"}});
  State s = at(r, "9,9,9,9,9,9,9,9,2/2,9,9,9,9,9,9,9,9/7,7/S");
  EXPECT_THAT(legal(s),
              ::testing::ElementsAre("1", "2", "2t", "3", "4", "5", "6", "7", "8", "9", "9t"));
  State declined = s;
  play(declined, "9");
  EXPECT_EQ(declined.position(), "9,9,9,9,9,9,9,9,1/3,9,9,9,9,9,9,9,9/7,7/N");
  play(s, "9t");
  EXPECT_EQ(s.position(), "9,9,9,9,9,9,9,9,1/0,9,9,9,9,9,9,9,9/10,7/N/tuz:N1");
  EXPECT_FALSE(State::initial(*preset("toguz")).parse_move("9t"));
}

// S0:36: 82 ends the game (the other resigns politely); 81-81 is a draw.
TEST(Toguz, EightyTwoWinsEightyOneAllDraws) {
  State s = at(preset("toguz"), "0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0/80,79/S");
  play(s, "9");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().reason, EndReason::Threshold);
  EXPECT_EQ(s.outcome().winner, Player::South);
  State t = at(preset("toguz"), "0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0/79,81/S");
  play(t, "9");
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().scores, (std::array<int, 2>{81, 81}));
  EXPECT_TRUE(t.outcome().is_draw());
}

// ---------------------------------------------------------------- Mangala (16)

// S0:39 (1): the opponent's store is sown; a move ending there captures nothing.
TEST(Mangala, OpponentsStoreIsSown) {
  State s = at(preset("mangala"), "0,0,4,4,4,9/4,4,4,4,4,4/0,3/S");
  play(s, "6");
  EXPECT_EQ(s.position(), "0,0,4,4,4,1/5,5,5,5,5,5/1,4/N");
}

// S0:39 (3): both captures count: the Kalah capture and the even count.
TEST(Mangala, BothCaptures) {
  State even = at(preset("mangala"), "4,4,4,4,4,3/3,4,4,4,4,4/0,2/S");
  play(even, "6");
  EXPECT_EQ(even.position(), "4,4,4,4,4,1/0,4,4,4,4,4/5,2/N");
  State kalah = at(preset("mangala"), "1,0,4,4,4,4/4,4,4,4,4,4/3,4/S");
  play(kalah, "1");
  EXPECT_EQ(kalah.position(), "0,0,4,4,4,4/4,4,4,4,0,4/8,4/N");
}

// S0:39: the game ends as soon as a player has 25.
TEST(Mangala, TwentyFiveEnds) {
  State s = at(preset("mangala"), "0,0,0,0,0,3/1,0,0,0,0,0/22,22/S");
  play(s, "6");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().reason, EndReason::Threshold);
  EXPECT_EQ(s.outcome().scores, (std::array<int, 2>{25, 22}));
}

// ---------------------------------------------------------------- La'b madjnuni (17)

// S4:33, 39: 98 seeds laid out by one player, at least two in every pit.
TEST(Madjnuni, SetupOfNinetyEightWithTwoInEveryPit) {
  auto r = preset("madjnuni");
  EXPECT_EQ(r->total_seeds, 98);
  State s = State::initial(*r);
  ASSERT_EQ(s.phase(), State::Phase::Setup);
  auto first = legal(s);
  EXPECT_EQ(first.size(), 71u);
  EXPECT_EQ(first.front(), "S1=2");
  EXPECT_EQ(first.back(), "S1=72");
  EXPECT_FALSE(s.parse_move("S2=5"));  // pits are laid out in order
  TypedState<State> any(s, r);
  EXPECT_THROW(any.play("S1=1"), IllegalMoveError);
  EXPECT_THAT([&] { any.play("S1=1"); },
              ::testing::ThrowsMessage<IllegalMoveError>(HasSubstr("S1=2")));
  play(s, "S1=9 S2=2 S3=11 S4=5 S5=3 S6=7 S7=8 N1=4 N2=6 N3=2 N4=13 N5=9 N6=7");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"N7=12"}));  // the last pit takes what is left
  play(s, "N7=12");
  EXPECT_EQ(s.phase(), State::Phase::Pie);
  EXPECT_EQ(s.to_move(), Player::North);
}

// S4:53 and A22b: turning the board round swaps the rows; the arranger still moves first.
TEST(Madjnuni, PieRuleAsWritten) {
  auto r = preset("madjnuni");
  State s = at(r, "9,2,11,5,3,7,8/4,6,2,13,9,7,12/0,0/N/phase:pie");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"keep", "swap"}));
  State kept = s;
  play(kept, "keep");
  EXPECT_EQ(kept.position(), "9,2,11,5,3,7,8/4,6,2,13,9,7,12/0,0/S");
  play(s, "swap");
  EXPECT_EQ(s.position(), "4,6,2,13,9,7,12/9,2,11,5,3,7,8/0,0/S");
}

// S4:41: no choice: the head (rightmost pit), or the nearest pit left of it with seeds.
TEST(Madjnuni, HeadPitIsTheOnlyMove) {
  EXPECT_EQ(legal(at(preset("madjnuni"), "3,0,5,0,0,0,0/7,7,7,7,7,7,7/20,21/S")),
            (std::vector<std::string>{"3"}));
}

// S4:45-47: 2 or 4 captures, with the pits further along that hold 2 or 4; option standard:
// each with its opposite pit, the series backwards (Culin, A22).
TEST(Madjnuni, TwoOrFourCapturesForwardOrStandard) {
  State s = at(preset("madjnuni"), "2,2,2,2,2,2,1/1,2,4,3,2,2,2/35,34/S");
  play(s, "7");
  EXPECT_EQ(s.position(), "2,2,2,2,2,2,0/0,0,0,3,2,2,2/43,34/N");
  State t =
      at(preset("madjnuni", {{"capture", "standard"}}), "2,2,2,2,2,2,1/1,2,4,3,2,2,2/35,34/S");
  play(t, "7");
  EXPECT_EQ(t.position(), "2,2,2,2,2,2,0/0,2,4,3,2,2,2/37,34/N");
}

// S4:42: 3, 5 or more is lifted and sown on until an empty pit or a capture.
TEST(Madjnuni, RelayOnThreeOrMore) {
  State s = at(preset("madjnuni"), "0,0,0,0,0,0,1/2,0,0,0,0,0,0/48,47/S");
  play(s, "7");  // N1 2->3: lifted, N2 N3 N4 one each; N4 was empty
  EXPECT_EQ(s.position(), "0,0,0,0,0,0,0/0,1,1,1,0,0,0/48,47/N");
}

// S4:49: a player with no seeds passes; if the reply gives him none, the game ends and the
// other takes what is left. S4:51: 50 wins, 49-49 draws.
TEST(Madjnuni, PassThenEnd) {
  State s = at(preset("madjnuni"), "0,0,0,0,0,0,0/0,0,0,0,0,1,2/48,47/S");
  EXPECT_EQ(s.to_move(), Player::North);
  EXPECT_THAT(s.position(), HasSubstr("passed:S"));
  play(s, "7");  // N7's two seeds reach South's pits 1 and 2
  EXPECT_EQ(s.to_move(), Player::South);
  State t = at(preset("madjnuni"), "0,0,0,0,0,0,0/0,0,0,0,1,0,0/49,48/S");
  play(t, "5");  // N5 -> N6: South still has nothing
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().scores, (std::array<int, 2>{49, 49}));
  EXPECT_TRUE(t.outcome().is_draw());
}

// S4:54 (option return_game): the return game, laid out by the other player; the captures of
// both games add up. Each game ends when the board is empty or a starved player cannot be fed
// (ruling R1: reaching 50 does not end it).
TEST(Madjnuni, ReturnGame) {
  auto r = preset("madjnuni", {{"return_game", "true"}});
  State s = at(r, "0,0,0,0,0,0,1/1,0,0,0,0,0,0/48,48/S");
  play(s, "7");  // the head's seed makes 2 in North's pit 1: the board is empty
  ASSERT_FALSE(s.is_over());
  EXPECT_EQ(s.phase(), State::Phase::Setup);
  EXPECT_EQ(s.to_move(), Player::North);  // the other player lays out the return game
  EXPECT_EQ(s.round(), 2);
  EXPECT_EQ(s.match_points(Player::South), 50);
  State t = at(r, "0,0,0,0,0,0,1/1,0,0,0,0,0,0/48,48/S/round:2/arranger:N/match:50,48");
  play(t, "7");
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().winner, Player::South);
  EXPECT_EQ(t.outcome().scores, (std::array<int, 2>{100, 96}));
  EXPECT_EQ(preset("madjnuni")->rounds, RoundKind::None);
  EXPECT_THAT(rules_text(*r), HasSubstr("after 2 rounds, more points wins"));
}

// ---------------------------------------------------------------- Leab el-akil (18)

// S4:60: the stones go into pits of one side and the corresponding pits of the other.
TEST(ElAkil, MirroredSetupOfSeventyTwo) {
  auto r = preset("el-akil");
  EXPECT_EQ(r->total_seeds, 72);
  State s = State::initial(*r);
  EXPECT_EQ(s.to_move(), Player::North);  // North lays out
  EXPECT_EQ(legal(s).size(), 37u);        // 0..36 in pit 1 of both rows
  play(s, "1=0 2=9 3=9 4=9 5=9");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"6=0"}));
  play(s, "6=0");
  EXPECT_EQ(s.position(), "0,9,9,9,9,0/0,9,9,9,9,0/0,0/S/phase:pie");
}

// Found by fuzz_position (tests/fuzz/regressions): a setup in progress the setup moves could
// not have made (rows that differ, pits beyond the laid ones filled, too few seeds left) was
// read, and its next move made a board of 64 seeds that could not be read back.
TEST(ElAkil, OnlyASetupTheMovesCouldMakeIsRead) {
  auto r = preset("el-akil");
  State s = at(r, "0,9,9,0,0,0/0,9,9,0,0,0/0,0/N/phase:setup/setup:3");
  EXPECT_EQ(legal(s).size(), 19u);  // 0..18 in pit 4, the 18 left then go in pits 5 and 6
  auto refused = [&](const char* text, const char* why) {
    try {
      State::from_position(*r, text);
      ADD_FAILURE() << text << " was read";
    } catch (const ParseError& e) {
      EXPECT_THAT(e.what(), HasSubstr(why)) << text;
    }
  };
  refused("0,0,0,0,8,0/0,0,0,0,0,0/0,0/N/phase:setup/setup:5", "different counts in the two rows");
  refused("0,9,9,0,0,1/0,9,9,0,0,1/0,0/N/phase:setup/setup:3", "only the first 3 pits");
  refused("0,9,9,9,9,0/0,9,9,9,9,0/0,0/N/phase:setup/setup:3", "only the first 3 pits");
  refused("0,0,0,0,8,0/0,0,0,0,8,0/0,0/S/phase:setup/setup:5", "the arranger (N)");
  refused("0,0,0,0,8,0/0,0,0,0,8,0/1,0/N/phase:setup/setup:5", "the stores are empty");
  refused("30,30,0,0,0,0/30,30,0,0,0,0/0,0/N/phase:setup/setup:2", "more than the 36");
}

// Option layout=free: any counts over the twelve pits, South's first.
TEST(ElAkil, FreeLayoutOption) {
  State s = State::initial(*preset("el-akil", {{"layout", "free"}}));
  auto first = legal(s);
  EXPECT_EQ(first.size(), 73u);
  EXPECT_EQ(first.front(), "S1=0");
}

// S4:61 and A22b: the non-arranger moves first; if he turns the board, the arranger does.
TEST(ElAkil, PieRuleGivesTheMoveToTheArranger) {
  auto r = preset("el-akil");
  State s = at(r, "0,9,9,9,9,0/0,9,9,9,9,0/0,0/S/phase:pie");
  State kept = s;
  play(kept, "keep");
  EXPECT_EQ(kept.to_move(), Player::South);
  play(s, "swap");
  EXPECT_EQ(s.to_move(), Player::North);
}

// S4:70-71: one stone on each side ends the round (each takes his); captures add up over the
// rounds, the layout passes to the other player, and 60 wins the set.
TEST(ElAkil, RoundsToSixty) {
  auto r = preset("el-akil");
  State s = at(r, "0,0,0,0,1,1/0,0,0,0,0,0/40,30/S");
  play(s, "6");  // S6 feeds North's pit 1: each side now holds one stone: the round ends
  EXPECT_EQ(s.phase(), State::Phase::Setup);
  EXPECT_EQ(s.to_move(), Player::South);  // the other player lays out the next round
  EXPECT_EQ(s.match_points(Player::South), 41);
  EXPECT_EQ(s.match_points(Player::North), 31);
  EXPECT_EQ(s.round(), 2);
  State t = at(r, "0,0,0,0,1,1/0,0,0,0,0,0/40,30/S/match:30,12");
  play(t, "6");
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().winner, Player::South);
  EXPECT_EQ(t.outcome().scores, (std::array<int, 2>{71, 43}));
}

// S4:65: a starving opponent must be fed.
TEST(ElAkil, MustFeed) {
  EXPECT_EQ(legal(at(preset("el-akil"), "3,0,0,0,0,1/0,0,0,0,0,0/40,28/S")),
            (std::vector<std::string>{"6"}));
}

// Lane (RULES.md 18, A23; option feeding=gift): the feeder's turn is one stone from any of his
// pits into the starving opponent's pit 1 (S4:65 literally is a feeding move, the default).
TEST(ElAkil, LanesGiftIntoThePitOne) {
  auto r = preset("el-akil", {{"feeding", "gift"}});
  State s = at(r, "3,0,0,0,0,1/0,0,0,0,0,0/40,28/S");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"g1", "g6"}));
  play(s, "g1");
  EXPECT_EQ(s.position(), "2,0,0,0,0,1/1,0,0,0,0,0/40,28/N");
  EXPECT_THAT(rules_text(*r), HasSubstr("into the opponent's pit 1"));
}

// Lane (RULES.md 18 [STANDARD], option score=difference): the round's winner scores the
// difference of the captures; S4:71's sum of captures is the default (RoundsToSixty).
TEST(ElAkil, DifferenceScoring) {
  auto r = preset("el-akil", {{"score", "difference"}});
  State s = at(r, "0,0,0,0,1,1/0,0,0,0,0,0/40,30/S");
  play(s, "6");  // the round ends 41-31
  EXPECT_EQ(s.match_points(Player::South), 10);
  EXPECT_EQ(s.match_points(Player::North), 0);
  EXPECT_THAT(rules_text(*r), HasSubstr("scores the difference"));
}

// Every finished round is kept (RULES.md preface: "a round's result and the match result are
// both kept"): the board JSON's `rounds` and the record's Rounds tag.
TEST(ElAkil, EveryRoundIsKept) {
  auto game = make_game("el-akil");
  auto s = game->from_position("0,0,0,0,1,1/0,0,0,0,0,0/40,30/S");
  EXPECT_TRUE(s->board_json()["rounds"].empty());
  s->play("6");
  const auto rounds = s->board_json()["rounds"];
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_EQ(rounds[0]["round"], 1);
  EXPECT_EQ(rounds[0]["scores"], nlohmann::json({41, 31}));
  EXPECT_EQ(rounds[0]["winner"], "south");
  EXPECT_EQ(s->clone()->board_json()["rounds"], rounds);
  const auto record = make_record(*game, "0,0,0,0,1,1/0,0,0,0,0,0/40,30/S", {{'S', "6"}}, *s, {});
  EXPECT_EQ(record.tag("Rounds"), "41-31");
}

// ---------------------------------------------------------------- Leab el-ghasheem (19)

// S4:72: every pit filled, at least four in each.
TEST(ElGhasheem, SetupWithFourInEveryPit) {
  State s = State::initial(*preset("el-ghasheem"));
  auto first = legal(s);
  EXPECT_EQ(first.front(), "S1=4");
  EXPECT_EQ(first.back(), "S1=28");
  EXPECT_EQ(legal(at(preset("el-ghasheem"), "4,9,5,7,6,4/8,4,6,5,4,10/0,0/S")),
            (std::vector<std::string>{"6"}));
}

// ---------------------------------------------------------------- Gabata (20)

// S4:340: 3 x 6 pits, three stones each; each owns his row and the right half of the middle.
TEST(Gabata, BoardAndOwnership) {
  auto r = preset("gabata", {{"start", "alternate"}});
  EXPECT_EQ(r->total_seeds, 54);
  State s = State::initial(*r);
  EXPECT_EQ(legal(s).size(), 9u);
  EXPECT_EQ(s.owner_of(r->pits + 5), Player::South);  // middle row, column 6
  EXPECT_EQ(s.owner_of(r->pits + 0), Player::North);  // middle row, column 1
}

// A25 (cyningstan's race opening, the default by ruling R5): both sow their first move at once,
// in lock-step; a sowing ending in an empty pit takes the other pits of its column.
TEST(Gabata, RaceOpening) {
  auto r = preset("gabata");
  EXPECT_EQ(legal(State::initial(*r)).size(), 81u);  // nine pits each
  State s = at(r, "1,0,0,0,2,0/0,0,0,0,0,0/1,0,0,0,0,0/24,26/S/phase:joint");
  play(s, "1+1");  // tick 1: South ends in S2 (column 2 empty); North in N2 takes S5 (column 5)
  EXPECT_EQ(s.position(), "0,1,0,0,0,0/0,0,0,0,0,0/0,1,0,0,0,0/24,28/S");
  EXPECT_THAT(rules_text(*r), HasSubstr("at once"));
}

// S4:340-341 (A25): one cycle; relay on occupied pits; an empty pit takes the other two pits
// of its column (option enemy: only the opponent's).
TEST(Gabata, CycleRelayAndColumnCapture) {
  State s = at(preset("gabata"), "0,0,0,0,0,4/0,0,0,0,0,0/1,0,0,0,0,0/25,24/S");
  play(s, "6");  // M6 M5 M4, then North's pit 1 (2): lifted, N2 N3; N3 was empty: column 4
  EXPECT_EQ(s.position(), "0,0,0,0,0,0/0,0,0,0,1,1/0,1,1,0,0,0/26,24/N");
  State t =
      at(preset("gabata", {{"capture", "enemy"}}), "0,0,0,0,0,4/0,0,0,0,0,0/1,0,0,0,0,0/25,24/S");
  play(t, "6");
  EXPECT_EQ(t.position(), "0,0,0,0,0,0/0,0,0,1,1,1/0,1,1,0,0,0/25,24/N");
}

// S4:342: the weaker lays out three per pit, the stronger fills the same pits and keeps the rest.
TEST(Gabata, RedistributionBetweenRounds) {
  State s = at(preset("gabata"), "1,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/29,24/N");
  EXPECT_EQ(s.position(), "3,3,3,3,3,3/3,3,0,0,3,3/3,3,3,3,3,3/6,0/N/round:2/starter:N/won:1,0");
}

// S4:343: whoever gathers every stone wins.
TEST(Gabata, AllStonesWin) {
  State s = at(preset("gabata"), "0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,54/S");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().winner, Player::North);
}

// ---------------------------------------------------------------- every preset

// The preset names are a public contract.
TEST(Presets, EveryNameIsAVariant) {
  for (const char* name :
       {"awale", "ayoayo", "ayoayo-fours", "namnam", "kenyan-bao", "kenyan-bao-laps", "congklak",
        "pallanguzhi", "toguz", "mangala", "madjnuni", "el-akil", "el-ghasheem", "gabata"}) {
    auto g = make_game(name);
    EXPECT_EQ(g->info().name, name);
    EXPECT_FALSE(g->rules_text().empty());
    EXPECT_FALSE(g->new_game()->legal_moves().empty()) << name;
  }
}

TEST(Presets, BadOptionsAreRefusedWithTheAllowedValues) {
  auto error_of = [](const std::string& spec) {
    try {
      make_game(spec);
    } catch (const VariantError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(error_of("congklak:pits=10"), HasSubstr("allowed values: 7, 8, 9"));
  EXPECT_THAT(error_of("toguz:tuz=owner"), HasSubstr("auto, choice"));
  EXPECT_THAT(error_of("gabata:capture=all"), HasSubstr("both, enemy"));
  EXPECT_THAT(error_of("madjnuni:seeds=5"), HasSubstr("allowed options: capture"));
  EXPECT_THAT(error_of("namnam:x=1"), HasSubstr("this variant has no options"));
}

// A sowing that never ends is detected and annuls the game, with the board as before it.
TEST(Presets, InfiniteSowingIsDetectedAndAnnuls) {
  // A 2x2 relay board (found by search: 1,2/3,2, pit 2 never ends).
  auto r = load_rules(R"(name = "loop"
[board]
pits = 2
seeds = 2
[sowing]
laps = "relay"
[end]
row_empty = "at_turn"
)",
                      "loop.toml", {});
  int found = 0;
  for (int a = 0; a <= 8; ++a)
    for (int b = 0; b <= 8 - a; ++b)
      for (int c = 0; c <= 8 - a - b; ++c) {
        const int d = 8 - a - b - c;
        const std::string pos = std::to_string(a) + "," + std::to_string(b) + "/" +
                                std::to_string(c) + "," + std::to_string(d) + "/0,0/S";
        State s = State::from_position(*r, pos);
        for (const auto& m : legal(s)) {
          State t = s;
          play(t, m);
          if (t.outcome().reason == EndReason::InfiniteSowing) {
            ++found;
            EXPECT_TRUE(t.is_over());
            EXPECT_TRUE(t.outcome().is_draw());
            EXPECT_EQ(t.position().substr(0, pos.size() - 1), pos.substr(0, pos.size() - 1));
          }
        }
      }
  EXPECT_GT(found, 0);
}

// Repeated positions end games whose rules say so (Zobrist history in TypedState): Kenyan
// Bao's stalemate is a draw (S4:401).
TEST(Presets, RepetitionEndsTheGameAsTheRulesetSays) {
  auto r = preset("kenyan-bao-laps");
  Rng rng(99);
  int cycles = 0;
  for (int game = 0; game < 400 && cycles < 3; ++game) {
    TypedState<State> any(State::initial(*r), r);
    State::MoveList moves;
    while (!any.typed().is_over()) {
      any.typed().legal_moves(moves);
      any.play_typed(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    if (any.typed().outcome().reason == EndReason::Cycle) {
      ++cycles;
      EXPECT_TRUE(any.typed().outcome().is_draw());
    }
  }
  EXPECT_GT(cycles, 0);
}

// Position fields of the general path are checked with a clear message.
TEST(Presets, BadPositionFieldsAreRefused) {
  auto r = preset("toguz");
  auto error_of = [&](const char* pos) {
    try {
      State::from_position(*r, pos);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(error_of("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/0,0/S/tux:N3"),
              HasSubstr("unknown field"));
  EXPECT_THAT(error_of("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/0,0/S/tuz:X3"), HasSubstr("not a pit"));
  EXPECT_THAT(error_of("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/0,0/S/burnt:S1"),
              HasSubstr("no burnt pits"));
  EXPECT_THAT(error_of("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/0,0/S/phase:setup"),
              HasSubstr("not a phase"));
}

}  // namespace
}  // namespace naqala::sowing
