// The rulings of the independent audit of the two-row presets (docs/games/*.md, "Decisions"):
// each test starts from the position the audit gave and checks what the ruling decides.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/rng.h"
#include "games/sowing/family.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

using ::testing::HasSubstr;
using testing::legal;
using ::testing::Not;
using testing::play;
using testing::preset;

State at(const char* game, const char* position, const OptionValues& options = {}) {
  return State::from_position(*preset(game, options), position);
}

// Plays the first legal move until the game is over.
void play_out(State& s) {
  for (int ply = 0; ply < 10000 && !s.is_over(); ++ply) {
    State::MoveList moves;
    s.legal_moves(moves);
    ASSERT_FALSE(moves.empty()) << s.position();
    s.play(moves[0]);
  }
  ASSERT_TRUE(s.is_over());
}

// R1 (docs/games/madjnuni.md): reaching 50 does not end the game; the count is made when the
// board empties or a starved player cannot be fed, and every seed counts.
TEST(Rulings, R1MadjnuniFiftyDoesNotEndTheGame) {
  State s = at("madjnuni", "0,37,0,0,0,0,0/1,0,0,0,0,0,0/48,12/S");
  play(s, "2");
  ASSERT_FALSE(s.is_over()) << s.position();
  EXPECT_GE(s.store(Player::South), 50);
  EXPECT_EQ(s.to_move(), Player::North);
  EXPECT_EQ(legal(s), (std::vector<std::string>{"6"}));
  play_out(s);
  const auto scores = s.outcome().scores;
  EXPECT_EQ(scores[0] + scores[1], 98);  // every seed is counted
  EXPECT_THAT(rules_text(*preset("madjnuni")), Not(HasSubstr("as soon as a store holds")));
}

// R2 (docs/games/el-akil.md, el-ghasheem.md): a player emptied by a capture passes, and the
// other must feed him if a move reaches his side.
TEST(Rulings, R2EmptiedPlayerPassesAndMustBeFed) {
  State s = at("el-akil", "0,0,0,3,0,1/1,0,0,0,0,0/33,34/S");
  play(s, "6");  // the seed makes 2 in North's pit 1: captured, North has nothing
  ASSERT_FALSE(s.is_over()) << s.position();
  EXPECT_EQ(s.to_move(), Player::South);  // North passed
  EXPECT_EQ(legal(s), (std::vector<std::string>{"4"}));
  State g = at("el-ghasheem", "0,0,0,0,3,1/1,0,0,0,0,0/33,34/S");
  play(g, "6");
  ASSERT_FALSE(g.is_over()) << g.position();
  EXPECT_EQ(g.to_move(), Player::South);
  EXPECT_EQ(legal(g), (std::vector<std::string>{"5"}));
  // When no move of his reaches the starved player, the round ends: each takes his side.
  State t = at("el-akil", "1,0,0,0,0,1/1,0,0,0,0,0/35,34/S");
  play(t, "6");  // North passes; South's pit 1 cannot reach him: each takes his side
  EXPECT_EQ(t.round(), 2);
  EXPECT_EQ(t.last_round_score(Player::South), 38);
  EXPECT_EQ(t.last_round_score(Player::North), 34);
}

// R3 (docs/games/el-akil.md): a feeding move throws at least one stone onto his side, even if
// it captures it back.
TEST(Rulings, R3FeedingThrowsAStoneOntoHisSide) {
  EXPECT_EQ(legal(at("el-akil", "2,1,2,6,1,6/0,0,0,0,0,0/30,24/S")),
            (std::vector<std::string>{"1", "2", "4", "5", "6"}));
  EXPECT_THAT(rules_text(*preset("el-akil")), HasSubstr("at least one"));
}

// R4 (docs/games/namnam.md): with 8 seeds on the board, whoever captures the next 4 (the
// owner, in the middle of the other's sowing) also takes the last 4, those still in the
// sower's hand included, and the round ends at once.
TEST(Rulings, R4NamNamLastEightCheckedAtEveryCapture) {
  State s = at("namnam", "3,3,0,0,0,0/0,0,0,0,0,2/16,24/N");
  play(s, "6");  // S1 makes 4: South's, with 8 on the board; he takes S2's 3 and the hand's 1
  EXPECT_EQ(s.last_round_score(Player::South), 24);
  EXPECT_EQ(s.last_round_score(Player::North), 24);
  EXPECT_EQ(s.round(), 2);
  EXPECT_EQ(s.position().substr(0, 25), "4,4,4,4,4,4/4,4,4,4,4,4/0");
}

// R5 (docs/games/gabata.md): the race opening is the default; start=alternate stays.
TEST(Rulings, R5GabataRaceOpeningByDefault) {
  EXPECT_EQ(legal(State::initial(*preset("gabata"))).size(), 81u);
  EXPECT_EQ(legal(State::initial(*preset("gabata", {{"start", "alternate"}}))).size(), 9u);
  const std::string text = rules_text(*preset("gabata"));
  EXPECT_THAT(text, HasSubstr("fills the same pits"));
  EXPECT_THAT(text, Not(HasSubstr("mirror")));
}

// R13 (docs/games/README.md): a move whose sowing never ends may not be chosen while another
// move exists; only when every move is endless is the game annulled.
TEST(Rulings, R13EndlessSowingIsNotAMoveWhileAnotherExists) {
  State s = at("pallanguzhi", "3,8,3,6,7,2,7/3,2,0,0,0,0,0/26,3/N/burnt:N3,N4,N5,N6,N7");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"2"}));
  // The 2x2 relay board: 1,2/3,2, South's pit 2 never ends; his pit 1 does.
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
  int only_endless = 0, filtered = 0;
  for (int a = 0; a <= 8; ++a)
    for (int b = 0; b <= 8 - a; ++b)
      for (int c = 0; c <= 8 - a - b; ++c) {
        const int d = 8 - a - b - c;
        const std::string pos = std::to_string(a) + "," + std::to_string(b) + "/" +
                                std::to_string(c) + "," + std::to_string(d) + "/0,0/S";
        State t = State::from_position(*r, pos);
        if (t.is_over()) continue;
        const auto moves = legal(t);
        int endless = 0;
        for (const auto& m : moves) {
          State u = t;
          play(u, m);
          if (u.outcome().reason == EndReason::InfiniteSowing) ++endless;
        }
        if (endless) {
          EXPECT_EQ(endless, static_cast<int>(moves.size())) << pos;  // only when all are
          ++only_endless;
        }
        const int sowable = (a > 0) + (b > 0);
        if (static_cast<int>(moves.size()) < sowable) ++filtered;
      }
  EXPECT_GT(only_endless, 0);
  EXPECT_GT(filtered, 0);
}

// Rules::max_laps (R13, docs/games/README.md): a sowing of more laps than the cap is endless,
// which bounds every move of a user's relay without captures (cycles of millions of laps).
// Lowered here on the 2x2 relay, where South's pit 1 ends after a few laps (pit 2 never ends).
TEST(Rulings, ASowingOfMoreThanTheLapCapIsEndless) {
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
  const char* pos = "1,2/3,2/0,0/S";
  EXPECT_EQ(r->max_laps, 10000);
  EXPECT_EQ(legal(State::from_position(*r, pos)), (std::vector<std::string>{"1"}));
  // The least cap under which pit 1 is still a move is its sowing's laps.
  int laps = 0;
  for (int cap = 1; cap <= 50 && laps == 0; ++cap) {
    auto capped = std::make_shared<Rules>(*r);
    capped->max_laps = cap;
    State t = State::from_position(*capped, pos);
    if (legal(t) == std::vector<std::string>{"1"}) {
      laps = cap;
      continue;
    }
    // Both endless under this cap: either may be played, and the game is annulled.
    EXPECT_EQ(legal(t), (std::vector<std::string>{"1", "2"})) << cap;
    play(t, "1");
    EXPECT_EQ(t.outcome().reason, EndReason::InfiniteSowing) << cap;
  }
  EXPECT_GE(laps, 2);  // a relay, cut at each cap below its length
  State full = State::from_position(*r, pos);
  play(full, "1");
  EXPECT_NE(full.outcome().reason, EndReason::InfiniteSowing);

  // A user's relay without captures or stores: every move ends or is endless within the cap,
  // so random play goes on ply after ply (it used to sow for seconds a move).
  auto forever = load_rules(R"(name = "no captures"
[board]
pits = 6
seeds = 4
[sowing]
stores = "none"
laps = "relay"
[capture]
kind = ["none"]
)",
                            "no-captures.toml", {});
  State g = State::initial(*forever);
  Rng rng(7);
  int plies = 0;
  for (; plies < 40 && !g.is_over(); ++plies) {
    State::MoveList moves;
    g.legal_moves(moves);
    ASSERT_FALSE(moves.empty()) << g.position();
    g.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
  }
  EXPECT_GT(plies, 0);
}

// R10 (docs/games/kenyan-bao.md): the capturing seed stays in its pit; the text says so.
TEST(Rulings, R10KenyanBaoTextKeepsTheCapturingSeed) {
  const std::string text = rules_text(*preset("kenyan-bao"));
  EXPECT_THAT(text, Not(HasSubstr("takes that seed")));
  EXPECT_THAT(text, HasSubstr("the capturing seed stays"));
  State s = at("kenyan-bao", "0,0,0,0,1,0,0,0/0,0,5,0,0,0,0,0/20,22/S");
  play(s, "5");  // S5 -> S6, empty: takes N3's 5 (opposite S6), the seed stays
  EXPECT_EQ(s.store(Player::South), 25);
}

// R6 (docs/games/pallanguzhi.md): the pasu is compulsory and immediate; the text says so.
TEST(Rulings, R6PallanguzhiPasuIsCompulsory) {
  EXPECT_THAT(rules_text(*preset("pallanguzhi")), HasSubstr("compulsory and immediate"));
}

// R7 (docs/games/congklak.md): the game ends when the player to move has no seeds, not as soon
// as a row is empty: the other may still feed him.
TEST(Rulings, R7CongklakEndsWhenThePlayerToMoveHasNoSeeds) {
  EXPECT_FALSE(at("congklak", "0,0,0,0,0,0,14/0,0,0,0,0,0,0/40,44/S").is_over());
  State s = at("congklak", "0,0,0,0,0,0,14/0,0,0,0,0,0,0/40,44/N");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().scores, (std::array<int, 2>{54, 44}));
}

// R8 (docs/games/bantumi.md): one move empties both rows and the stores are equal: the mover
// wins, his row having emptied first.
TEST(Rulings, R8BantumiBothRowsEmptiedTheMoverWins) {
  State s = at("bantumi", "1,0,0,0,0,0/0,0,0,0,3,0/20,24/S");
  play(s, "1");  // S2 was empty: it takes N5's three with the capturing seed, 24-24
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().scores, (std::array<int, 2>{24, 24}));
  EXPECT_EQ(s.outcome().winner, Player::South);
}

// R9 (docs/games/namnam.md): the first repeated position ends the round, each taking his side;
// the totals need not be multiples of four: the winner claims floor((W - 24) / 4) pits, his
// spare seeds go into his pit 1, the loser's last pit is short.
TEST(Rulings, R9RepetitionEndsTheRoundAndNamNamClaimsRoundDown) {
  State s = at("namnam", "1,0,0,0,0,0/2,0,0,0,0,0/29,16/S");
  s.end_by_cycle();  // what the game's repetition tracker does at the first repetition
  ASSERT_FALSE(s.is_over());
  EXPECT_EQ(s.last_round_score(Player::South), 30);
  EXPECT_EQ(s.last_round_score(Player::North), 18);
  ASSERT_EQ(s.phase(), State::Phase::Claim);
  EXPECT_EQ(legal(s).size(), 6u);  // one pit: (30 - 24) / 4 = 1
  play(s, "claim:3");
  EXPECT_EQ(s.position().substr(0, 24), "6,4,4,4,4,4/4,4,4,4,4,2/");
  EXPECT_EQ(s.owner_of(s.rules().first_pit(Player::North) + 2), Player::South);
  // Congklak: the repetition ends the game, each taking the seeds on his side.
  State c = at("congklak", "0,0,0,0,0,0,14/0,0,0,0,3,0,0/40,41/S");
  c.end_by_cycle();
  ASSERT_TRUE(c.is_over());
  EXPECT_EQ(c.outcome().scores, (std::array<int, 2>{54, 44}));
  for (const char* game : {"namnam", "pallanguzhi", "gabata", "congklak"})
    EXPECT_THAT(rules_text(*preset(game)), HasSubstr("repeat")) << game;
}

}  // namespace
}  // namespace naqala::sowing
