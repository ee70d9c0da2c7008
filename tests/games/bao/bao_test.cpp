// Bao la Kiswahili and Bao la Kujifunza: worked steps from the seeds (S4 = seeds/004, S0 =
// seeds/000), hand-checked positions for every special rule, random-game invariants, and the
// engine against the independent reference mover of reference_bao.h.
#include "games/bao/bao.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "core/zobrist.h"
#include "games/registry.h"
#include "games/sow_trace.h"
#include "tests/games/bao/reference_bao.h"
#include "tests/games/board4/four_row_test_util.h"

namespace naqala::bao {
namespace {

using board4::CCW;
using board4::CW;

struct Fixture {
  Rules rules;
  explicit Fixture(const std::string& preset,
                   std::vector<std::pair<std::string, std::string>> opts = {})
      : rules(make_rules(preset, opts)) {}
  State at(const std::string& pos) const { return State::from_position(rules, pos); }
};

using namespace board4::testing;  // legal, play, after, total, engine_perft, ...

reference::Pos to_reference(const State& s);

// ---- The start (S4:192, S0:19) ----

TEST(Bao, StartPositionS4_192) {
  Fixture f("bao");
  const State s = State::initial(f.rules);
  EXPECT_EQ(s.position(),
            "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/22,22/SN/S/-");
  EXPECT_EQ(total(s), 64);
  // No capture is possible; the house is kept out of the takasa while other pits can take it.
  EXPECT_EQ(legal(s), (std::vector<std::string>{"f1<", "f1>", "g1<", "g1>"}));
}

TEST(Bao, MalawiHouseOf8S4_192) {
  Fixture f("bao", {{"house_seeds", "8"}});
  const State s = State::initial(f.rules);
  EXPECT_EQ(s.position(),
            "0,0,0,0,8,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,8,2,2,0/0,0,0,0,0,0,0,0/20,20/SN/S/-");
}

// ---- Namua ----

TEST(Bao, NamuaTakasaEitherDirectionS4_196) {
  Fixture f("bao");
  const State s = State::initial(f.rules);
  // g1 gets the hand seed (3) and is sown toward the left: f1, e1, d1 (empty: stop).
  EXPECT_EQ(after(s, "g1<"),
            "0,0,0,1,7,3,0,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/21,22/SN/N/-");
  // ...or toward the right, round the corner into the back row: h1, h2, g2.
  EXPECT_EQ(after(s, "g1>"),
            "0,0,0,0,6,2,0,1/0,0,0,0,0,0,1,1/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/21,22/SN/N/-");
}

TEST(Bao, NamuaCaptureKichwaChoiceS4_197_200) {
  Fixture f("bao");
  const State s =
      f.at("0,0,1,0,6,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,3,0,0/2,2,2,2,2,1,1,1/10,9/SN/S/-");
  // c1 faces North's f... F1 (3 seeds): capture is compulsory, the centre lets South choose the
  // kichwa.
  EXPECT_EQ(legal(s), (std::vector<std::string>{"c1<", "c1>"}));
  // Left kichwa, rightwards: a1 b1 c1(3), then c1 relays: d1 e1 f1 (empty: stop).
  EXPECT_EQ(after(s, "c1>"),
            "1,1,0,1,7,1,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,0,0,0/2,2,2,2,2,1,1,1/9,9/SN/N/-");
  // Right kichwa, leftwards: h1 g1 f1 (empty: stop).
  EXPECT_EQ(after(s, "c1<"),
            "0,0,2,0,6,1,1,1/2,2,2,2,2,2,2,2/0,0,0,0,6,0,0,0/2,2,2,2,2,1,1,1/9,9/SN/N/-");
}

TEST(Bao, CaptureFromKimbiUsesNearestKichwaS4_191) {
  Fixture f("bao");
  // b1 (a kimbi) faces North's G1: only the left kichwa, so only one move; the
  // direction may be left out when writing it.
  const State s =
      f.at("0,1,0,0,6,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,0,3,0/2,2,2,2,2,2,2,0/9,9/SN/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"b1>"}));
  auto m = s.parse_move("b1");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(s.format_move(*m), "b1>");
  // a1 b1(3: was 2) c1 -> c1 was empty: stop.
  EXPECT_EQ(after(s, "b1"),
            "1,3,1,0,6,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,0,0,0/2,2,2,2,2,2,2,0/8,9/SN/N/-");
}

TEST(Bao, SingleCapturedSeedIntoEmptyKichwaStopsS4_202) {
  Fixture f("bao");
  // b1 faces G1 holding one seed: it goes into the empty left kichwa and the move stops.
  const State s =
      f.at("0,1,0,0,6,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,0,1,0/2,2,2,2,2,2,2,2/9,9/SN/S/-");
  EXPECT_EQ(after(s, "b1>"),
            "1,2,0,0,6,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,0,0,0/2,2,2,2,2,2,2,2/8,9/SN/N/-");
}

TEST(Bao, CaptureStoppingInHouseMayStopOrSowS4_232) {
  Fixture f("bao");
  const std::string pos =
      "0,0,1,0,6,0,0,0/0,0,0,0,0,0,0,4/0,0,0,0,6,4,0,0/2,2,2,2,2,2,2,2/14,13/SN/S/-";
  const State s = f.at(pos);
  EXPECT_EQ(legal(s), (std::vector<std::string>{"c1<", "c1<+", "c1>"}));
  // The four captured seeds run h1 g1 f1 e1 and stop in the house...
  EXPECT_EQ(after(s, "c1<"),
            "0,0,2,0,7,1,1,1/0,0,0,0,0,0,0,4/0,0,0,0,6,0,0,0/2,2,2,2,2,2,2,2/13,13/SN/N/-");
  // ...or the house is sown on (d1 c1 b1 a1 a2 b2 c2) and is a house no more.
  EXPECT_EQ(after(s, "c1<+"),
            "1,1,3,1,0,1,1,1/1,1,1,0,0,0,0,4/0,0,0,0,6,0,0,0/2,2,2,2,2,2,2,2/13,13/N/N/-");
  // In "some versions" the stop is forced (option house_stop=forced).
  Fixture forced("bao", {{"house_stop", "forced"}});
  EXPECT_EQ(legal(forced.at(pos)), (std::vector<std::string>{"c1<", "c1>"}));
}

TEST(Bao, TakasaStopsInTheHouseS4_231) {
  Fixture f("bao");
  const State s =
      f.at("0,0,0,0,6,0,1,0/2,2,2,2,2,2,2,2/0,0,0,0,6,2,2,0/2,2,2,2,2,2,2,2/8,7/SN/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"g1<", "g1>"}));
  // g1 (2) -> f1, e1: the takasa ends in the house.
  EXPECT_EQ(after(s, "g1<"),
            "0,0,0,0,7,1,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,2,2,0/2,2,2,2,2,2,2,2/7,7/SN/N/-");
  // The other way relays through the back row: h1 h2(3); g2 f2 e2(3); d2 c2 b2(3); a2 a1 b1.
  EXPECT_EQ(after(s, "g1>"),
            "1,1,0,0,6,0,0,1/3,0,3,3,0,3,3,0/0,0,0,0,6,2,2,0/2,2,2,2,2,2,2,2/7,7/SN/N/-");
}

TEST(Bao, TraceShowsEveryRelayLap) {
  // The browser's animation (games/sow_trace.h) sees every lap of the takasa g1> above.
  Fixture f("bao");
  const State s =
      f.at("0,0,0,0,6,0,1,0/2,2,2,2,2,2,2,2/0,0,0,0,6,2,2,0/2,2,2,2,2,2,2,2/8,7/SN/S/-");
  SowTrace trace;
  {
    const SowTraceScope scope(&trace);
    State t = s;
    play(t, "g1>");
  }
  ASSERT_EQ(trace.laps().size(), 4u) << trace.laps().dump();
  EXPECT_EQ(trace.laps()[0]["pits"], nlohmann::json({"h1", "h2"}));
  EXPECT_EQ(trace.laps()[1]["pits"], nlohmann::json({"g2", "f2", "e2"}));
  EXPECT_EQ(trace.laps()[2]["pits"], nlohmann::json({"d2", "c2", "b2"}));
  EXPECT_EQ(trace.laps()[3]["pits"], nlohmann::json({"a2", "a1", "b1"}));
}

TEST(Bao, HouseGivesOnlyTwoSeedsS4_230) {
  Fixture f("bao");
  // The house is the only front pit that can take the hand seed: it gives two seeds.
  const State s =
      f.at("0,0,0,0,6,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,2,2,0/2,2,2,2,2,2,2,2/8,8/SN/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"e1<", "e1>"}));
  EXPECT_EQ(after(s, "e1<"),
            "0,0,1,1,5,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,2,2,0/2,2,2,2,2,2,2,2/7,8/SN/N/-");
}

TEST(Bao, CompulsoryCaptureOverTakasaS4_207) {
  Fixture f("bao");
  // g1 (2) could takasa, but c1 can capture: only the capture is legal.
  const State s =
      f.at("0,0,1,0,6,0,2,0/2,2,2,2,2,2,2,2/0,0,0,0,6,3,0,0/2,2,2,2,2,1,1,1/8,9/SN/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"c1<", "c1>"}));
}

TEST(Bao, HouseImmuneOptionS4_224) {
  // North's house E1 faces South's d1. By default it can be captured (and stops being a house).
  const std::string pos =
      "0,0,0,1,6,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,0,0,0/2,2,2,2,2,2,2,2/10,9/SN/S/-";
  Fixture standard("bao");
  EXPECT_EQ(legal(standard.at(pos)), (std::vector<std::string>{"d1<", "d1>"}));
  EXPECT_EQ(after(standard.at(pos), "d1<"),
            "0,0,1,3,7,1,1,1/2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2/9,9/S/N/-");
  // With house_immune the seed opposite the house is a takasa.
  Fixture immune("bao", {{"house_immune", "true"}});
  EXPECT_EQ(legal(immune.at(pos)), (std::vector<std::string>{"d1<", "d1>"}));
  EXPECT_EQ(after(immune.at(pos), "d1<"),
            "0,1,1,0,6,0,0,0/2,2,2,2,2,2,2,2/0,0,0,0,6,0,0,0/2,2,2,2,2,2,2,2/9,9/SN/N/-");
}

// ---- Mtaji ----

TEST(Bao, MtajiCaptureFromBackRowAndEmptyFrontRowLossS4_212) {
  Fixture f("bao");
  const State s = f.at("0,0,1,0,0,0,0,2/3,0,0,0,0,0,0,0/0,0,0,0,0,2,0,0/7,7,7,7,7,7,7,7/0,0/-/S/-");
  // Only a2's first sowing (clockwise, round to a1 b1 c1) ends in a capture.
  EXPECT_EQ(legal(s), (std::vector<std::string>{"a2<"}));
  State t = s;
  play(t, "a2<");
  // Captured 2 from the left kichwa rightwards: a1 b1. North's front row is now empty, so
  // the move ends there (R12: b1 would have relayed on to c1 d1).
  EXPECT_EQ(t.position(),
            "2,2,2,0,0,0,0,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/7,7,7,7,7,7,7,7/0,0/-/N/-");
  // North's front row is empty: he has lost (S4:257, S0:19).
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().winner, Player::South);
  EXPECT_EQ(t.outcome().reason, EndReason::RowEmpty);
}

TEST(Bao, DirectionChangesAtTheOppositeKimbiS4_205) {
  Fixture f("bao");
  const State s = f.at("0,1,0,0,0,0,0,1/0,3,0,0,0,0,0,0/2,0,1,0,0,0,8,0/6,6,6,6,6,6,6,6/0,0/-/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"b2<"}));
  // b2 -> a2 a1 b1 captures G1 (8): sown rightwards from a1 to h1, which captures A1 (2):
  // sown leftwards from h1 (direction changed), then relays g1, e1, c1, a1 leftwards.
  EXPECT_EQ(after(s, "b2<"),
            "0,4,0,2,0,2,0,3/2,1,1,0,0,0,0,0/0,0,1,0,0,0,0,0/6,6,6,6,6,6,6,6/0,0/-/N/-");
}

TEST(Bao, RuleOf16S4_241) {
  // c1 (15) sown leftwards ends in d1... no: c1 sown counter-clockwise ends in d1 facing E1.
  const std::string pos15 =
      "0,0,15,1,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,3,0,0,0/5,5,5,5,5,5,5,10/0,0/-/S/-";
  Fixture sixteen("bao");
  EXPECT_EQ(legal(sixteen.at(pos15)), (std::vector<std::string>{"c1<"}));
  // S0:22's rule of 15: the same move cannot capture, so both takasa directions are open.
  Fixture fifteen("bao", {{"no_capture_from", "15"}});
  EXPECT_EQ(legal(fifteen.at(pos15)), (std::vector<std::string>{"c1<", "c1>"}));
  // A pit of 17 never captures under the rule of 16 either.
  const State s17 =
      sixteen.at("0,0,17,1,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,3,0,0,0/5,5,5,5,5,6,6,6/0,0/-/S/-");
  EXPECT_EQ(legal(s17), (std::vector<std::string>{"c1<", "c1>"}));
  State t = s17;
  play(t, "c1>");
  EXPECT_EQ(t.pit(Player::North, board4::front(4)), 3);  // E1 untouched
  EXPECT_EQ(total(t), 64);
}

TEST(Bao, TakasaFromFrontRowFirstAndLoneKichwaTowardCentreS4_216_219) {
  Fixture f("bao");
  // No capture; a front pit of 2+ exists, so back-row pits may not start.
  const State s = f.at("0,0,0,2,0,0,0,0/5,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/7,7,7,7,7,7,7,8/0,0/-/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"d1<", "d1>"}));
  const State k = f.at("3,0,0,0,0,0,0,0/5,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0/7,7,7,7,7,7,7,6/0,0/-/S/-");
  // a1 is the only occupied front pit: it must be sown toward the centre.
  EXPECT_EQ(legal(k), (std::vector<std::string>{"a1>"}));
  const State b = f.at("1,0,0,0,0,0,0,1/5,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0/7,7,7,7,7,7,7,7/0,0/-/S/-");
  // Front pits are singletons: the back row plays.
  EXPECT_EQ(legal(b), (std::vector<std::string>{"a2<", "a2>"}));
}

TEST(Bao, TakasiaS4_244_250) {
  Fixture f("bao");
  const State s =
      f.at("0,0,2,0,0,0,0,0/0,3,0,0,0,0,0,0/1,0,0,0,0,0,2,0/56,0,0,0,0,0,0,0/0,0/-/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"c1<", "c1>"}));
  // After c1< South threatens only G1 (b2 clockwise ends in b1) and North threatens nothing:
  // G1 is takasia, so North may not start from it and must play his back row.
  State t = s;
  play(t, "c1<");
  EXPECT_EQ(t.position(),
            "1,1,0,0,0,0,0,0/0,3,0,0,0,0,0,0/1,0,0,0,0,0,2,0/56,0,0,0,0,0,0,0/0,0/-/N/G1");
  EXPECT_EQ(legal(t), (std::vector<std::string>{"A2<", "A2>"}));
  // Without the rule, G1 is North's only front takasa.
  Fixture off("bao", {{"takasia", "false"}});
  State u = off.at(s.position());
  play(u, "c1<");
  EXPECT_EQ(legal(u), (std::vector<std::string>{"G1<", "G1>"}));
  // c1> threatens nothing: no takasia.
  EXPECT_EQ(after(s, "c1>"),
            "0,0,0,1,1,0,0,0/0,3,0,0,0,0,0,0/1,0,0,0,0,0,2,0/56,0,0,0,0,0,0,0/0,0/-/N/-");
  // The position round-trips with its takasia pit.
  EXPECT_EQ(f.at(t.position()).position(), t.position());
}

// The rows of a position (the hands and what follows left out).
std::string rows_of(const std::string& pos) {
  std::string out;
  int slashes = 0;
  for (char c : pos) {
    if (c == '/' && ++slashes == 4) break;
    out += c;
  }
  return out;
}

TEST(Bao, TakasiaThirdClauseHouseTaxS4_246) {
  // S4:246 (A14b): the takasiaed player's move from the house that does not reach the takasia
  // pit in its first sowing is interrupted. South's g1 is takasia; his only move is the house
  // tax (S4:236, option house_rules_in_mtaji).
  Fixture f("bao", {{"house_rules_in_mtaji", "true"}});
  const State s =
      f.at("0,0,1,0,6,0,2,0/0,0,0,0,0,0,0,0/7,7,7,7,7,7,7,6/0,0,0,0,0,0,0,0/0,0/S/S/g1");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"e1<", "e1>"}));
  // e1< sows two seeds into d1, c1: g1 not reached, so the move ends though c1 is occupied
  // (a relay would lift c1 and go on to b1, a1).
  EXPECT_EQ(rows_of(after(s, "e1<")),
            "0,0,2,1,4,0,2,0/0,0,0,0,0,0,0,0/7,7,7,7,7,7,7,6/0,0,0,0,0,0,0,0");
  // e1> sows f1, g1: it reaches the takasia pit, where a sowing stops anyway.
  EXPECT_EQ(rows_of(after(s, "e1>")),
            "0,0,1,0,4,1,3,0/0,0,0,0,0,0,0,0/7,7,7,7,7,7,7,6/0,0,0,0,0,0,0,0");
}

TEST(Bao, FrontRowNeverEmptyEvenMomentarilyS4_219) {
  // S4:219: in mtaji the front row may not be empty even for a moment. Only the lone kichwa
  // needs a rule (sow it toward the centre): a later lift of a front pit always follows a lap
  // of 2+ seeds whose second-last seed went into the front pit just before it. Checked seed by
  // seed with the reference mover on every legal mtaji decision of random games.
  Fixture f("bao");
  Rng rng(21);
  int checked = 0;
  for (int g = 0; g < 300; ++g) {
    State s = State::initial(f.rules);
    while (!s.is_over()) {
      if (!s.in_namua(s.to_move())) {
        const reference::Pos p = to_reference(s);
        for (const auto& d : reference::decisions(p)) {
          reference::Mover m(p);
          m.play(d);
          EXPECT_FALSE(m.front_row_emptied()) << s.position();
          ++checked;
        }
      }
      State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(Bao, NoMoveLosesS4_258) {
  Fixture f("bao");
  const State s = f.at("1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/4,4,4,4,4,4,4,4/2,2,2,2,2,2,2,2/0,0/-/S/-");
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().reason, EndReason::NoMove);
  EXPECT_EQ(s.outcome().winner, Player::North);
}

// ---- Bao la Kujifunza ----

TEST(BaoKujifunza, StartS4_421) {
  Fixture f("bao-kujifunza");
  const State s = State::initial(f.rules);
  EXPECT_EQ(s.position(),
            "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,0/-/S/-");
  EXPECT_EQ(legal(s).size(), 16u);  // every first sowing that ends in the front row captures
}

TEST(BaoKujifunza, CaptureChainS4_427_440) {
  Fixture f("bao-kujifunza");
  const State s = State::initial(f.rules);
  // a1 rightwards: b1 c1 captures F1 (centre, sown clockwise from a1); b1 captures G1 (kimbi,
  // from a1); relays to g1 which captures B1 (kimbi: from h1 leftwards); relays through c1,
  // the back row, to h1 which captures A1; the last seed falls into the empty g1.
  EXPECT_EQ(after(s, "a1>"),
            "3,1,0,4,4,4,1,5/3,3,0,3,3,0,3,3/0,0,2,2,2,0,0,2/2,2,2,2,2,2,2,2/0,0/-/N/-");
}

TEST(BaoKujifunza, KutakataRestrictionsS4_443_446) {
  Fixture f("bao-kujifunza");
  // No capture anywhere; front pits with 2+ come first (not the back row, not singletons).
  const State s = f.at("0,0,0,3,0,0,0,1/4,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/7,7,7,7,7,7,7,6/0,0/-/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"d1<", "d1>"}));
}

// ---- Notation and bad input ----

TEST(Bao, BadMovesAndPositionsAreRefusedWithReasons) {
  auto game = make_game("bao");
  auto s = game->new_game();
  EXPECT_THROW(s->play("z9"), ParseError);
  EXPECT_THROW(s->play("a1<"), IllegalMoveError);  // a1 is empty
  EXPECT_THROW(s->play("G1<"), IllegalMoveError);  // North's pit
  try {
    s->play("e1<");  // the house while other pits can take the seed
    FAIL();
  } catch (const IllegalMoveError& e) {
    EXPECT_NE(std::string(e.what()).find("f1<"), std::string::npos);
  }
  EXPECT_NO_THROW(s->play("g1<*"));  // annotations are accepted
  auto bad = [&](const std::string& pos, const std::string& needle) {
    try {
      game->from_position(pos);
      ADD_FAILURE() << pos;
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  bad("0,0,0", "7 or 8 fields");
  bad("0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/22,21/SN/S/-", "63 seeds");
  bad("0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0/22,22/SN/S/-", "8 counts");
  bad("0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/22,22/SN/X/-", "S or N");
  bad("0,0,0,0,0,2,2,0/0,0,0,0,6,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/22,22/SN/S/-",
      "empty nyumba");
  bad("0,0,0,0,6,2,2,x/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/22,22/SN/S/-",
      "whole number");
  EXPECT_THROW(make_game("bao:house_seeds=7"), VariantError);
  EXPECT_THROW(make_game("bao:colour=red"), VariantError);
  EXPECT_THROW(make_game("bao-kujifunza:takasia=false"), VariantError);
  EXPECT_EQ(make_game("bao:house_seeds=8,takasia=false")->spec(),
            "bao:house_seeds=8,takasia=false");
  EXPECT_EQ(make_game("bao:takasia=true")->spec(), "bao");
}

TEST(Bao, NotationRoundTripsForEveryLegalMove) {
  Fixture f("bao");
  Rng rng(7);
  for (int g = 0; g < 50; ++g) {
    State s = State::initial(f.rules);
    while (!s.is_over()) {
      State::MoveList moves;
      s.legal_moves(moves);
      for (auto m : moves) {
        auto back = s.parse_move(s.format_move(m));
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(*back, m) << s.format_move(m);
      }
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
}

// ---- The two rulings (docs/games/bao.md, R11 and R12) ----

// R11: a namua takasa of a player whose nyumba no longer functions puts the seed into a front
// pit of 2+ seeds, a single seed only when there is none. Perft from the start agrees with two
// independent Bao programs (the restriction everywhere, the house counted or not, gives 30 at
// depth 3 instead of 38); namua_takasa=any is the literal "any non-empty pit".
TEST(Bao, NamuaTakasaFromASingleSeedOnlyWithoutPitsOfTwoR11) {
  Fixture f("bao");
  const State s = State::initial(f.rules);
  const std::uint64_t restricted[] = {4, 14, 38, 124, 405, 1430, 5657};
  for (int d = 1; d <= 7; ++d) EXPECT_EQ(engine_perft(s, d), restricted[d - 1]) << d;
  Fixture literal("bao", {{"namua_takasa", "any"}});
  const State t = State::initial(literal.rules);
  EXPECT_EQ(engine_perft(t, 5), 405u);
  EXPECT_EQ(engine_perft(t, 6), 1434u);
  EXPECT_EQ(engine_perft(t, 7), 5685u);
  // No capture for South (North's only front seeds, in H1, face the empty a1). Without a
  // house, c1 and f1 (one seed) yield to d1 and e1 (3 and 6).
  const std::string rows = "0,0,1,3,6,1,0,0/2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,6/3,2,2,2,2,2,2,2/7,7";
  EXPECT_EQ(legal(f.at(rows + "/-/S/-")), (std::vector<std::string>{"d1<", "d1>", "e1<", "e1>"}));
  EXPECT_EQ(legal(literal.at(rows + "/-/S/-")),
            (std::vector<std::string>{"c1<", "c1>", "d1<", "d1>", "e1<", "e1>", "f1<", "f1>"}));
  // With the functional house (e1), every non-empty pit but the house.
  EXPECT_EQ(legal(f.at(rows + "/S/S/-")),
            (std::vector<std::string>{"c1<", "c1>", "d1<", "d1>", "f1<", "f1>"}));
  // Only single seeds in front: each may take it.
  EXPECT_EQ(
      legal(f.at("0,0,1,1,0,1,0,0/2,2,2,2,8,2,2,2/0,0,0,0,0,0,0,6/3,2,2,2,2,2,2,2/8,8/-/S/-")),
      (std::vector<std::string>{"c1<", "c1>", "d1<", "d1>", "f1<", "f1>"}));
  EXPECT_THROW(Fixture("bao", {{"namua_takasa", "some"}}), VariantError);
}

// R12: a capture that empties the opponent's front row wins at once, even when the sowing of
// the captured seeds would relay for ever (before the ruling such games were annulled). The
// positions were found by search among random ones: b1> (Kiswahili, mtaji) and d1>
// (Kujifunza) take North's last front seeds and then relay endlessly.
TEST(Bao, CaptureEmptyingTheFrontRowWinsEvenIfTheSowingIsEndlessR12) {
  Fixture f("bao");
  const State s = f.at("5,2,4,3,3,4,1,2/1,2,5,2,5,4,5,1/0,0,0,0,3,0,0,0/3,2,0,2,1,2,1,1/0,0/-/S/-");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"b1>"}));
  State t = s;
  play(t, "b1>");
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().reason, EndReason::RowEmpty);
  EXPECT_EQ(t.outcome().winner, Player::South);
  EXPECT_EQ(total(t), 64);
  EXPECT_EQ(t.to_move(), Player::North);  // the loser's turn, as after any won game
  // The finished position reads back as the same finished game.
  const State back = f.at(t.position());
  EXPECT_TRUE(back.is_over());
  EXPECT_EQ(back.outcome().winner, Player::South);
}

TEST(BaoKujifunza, CaptureEmptyingTheFrontRowWinsEvenIfTheSowingIsEndlessR12) {
  Fixture f("bao-kujifunza");
  const State s = f.at("2,3,1,4,3,1,5,3/1,0,3,2,5,0,3,4/2,0,0,0,0,0,0,0/3,2,5,2,1,2,4,3/0,0/-/S/-");
  State t = s;
  play(t, "d1>");
  ASSERT_TRUE(t.is_over());
  EXPECT_EQ(t.outcome().reason, EndReason::RowEmpty);
  EXPECT_EQ(t.outcome().winner, Player::South);
  EXPECT_EQ(total(t), 64);
}

// ---- Random games and the reference mover ----

reference::Pos to_reference(const State& s) {
  reference::Pos p;
  p.kujifunza = s.rules().game == Game::Kujifunza;
  for (int who = 0; who < 2; ++who) {
    const Player pl = who ? Player::North : Player::South;
    for (int col = 0; col < 8; ++col) {
      p.pit[who][0][col] = s.pit(pl, board4::front(col));
      p.pit[who][1][col] = s.pit(pl, board4::back(col));
    }
    p.hand[who] = s.hand(pl);
    p.house[who] = s.house(pl);
  }
  p.mover = index(s.to_move());
  p.takasia_col = s.takasia_pit() >= 0 ? board4::column(s.takasia_pit()) : -1;
  return p;
}

void random_games(const std::string& preset, int games, std::uint64_t seed, bool check_reference) {
  Fixture f(preset);
  Rng rng(seed);
  int annulled = 0;
  for (int g = 0; g < games; ++g) {
    State s = State::initial(f.rules);
    int plies = 0;
    bool was_namua = true;
    while (!s.is_over()) {
      ASSERT_EQ(total(s), 64) << s.position();
      // The stage changes exactly when the hands are empty.
      const bool namua = s.in_namua(s.to_move());
      if (!was_namua) {
        ASSERT_FALSE(namua);
      }
      was_namua = namua;
      if (check_reference) {
        ASSERT_EQ(engine_successors(s), reference::successors(to_reference(s))) << s.position();
      }
      State::MoveList moves;
      s.legal_moves(moves);
      ASSERT_FALSE(moves.empty()) << s.position();
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      ASSERT_LT(++plies, 5000) << "game does not end";
    }
    EXPECT_EQ(total(s), 64);
    if (s.outcome().reason == EndReason::InfiniteSowing)
      ++annulled;
    else
      EXPECT_TRUE(s.outcome().winner.has_value());  // no draws in Bao
  }
  // S4:253-255 says an endless sowing never happens in Bao. Within one move it can (no hand
  // seed is added during a move): about one random game in 4000 has one, namua or mtaji
  // (docs/games/bao.md). It is detected exactly and annuls the game; it stays rare.
  EXPECT_LE(annulled * 200, games);
}

TEST(Bao, RandomGamesKeep64SeedsAndEnd) {
  random_games("bao", 2000, 1, false);
}
TEST(Bao, EngineMatchesReferenceMoverInRandomGames) {
  random_games("bao", 150, 2, true);
}
TEST(BaoKujifunza, RandomGamesKeep64SeedsAndEnd) {
  random_games("bao-kujifunza", 2000, 3, false);
}
TEST(BaoKujifunza, EngineMatchesReferenceMoverInRandomGames) {
  random_games("bao-kujifunza", 150, 4, true);
}

std::uint64_t reference_perft(const reference::Pos& p, int depth) {
  if (depth == 0) return 1;
  std::uint64_t n = 0;
  for (const auto& d : reference::decisions(p)) {
    reference::Mover m(p);
    m.play(d);
    reference::Pos next = m.result();
    next.mover = 1 - p.mover;
    if (!next.kujifunza && m.was_takasa()) reference::apply_takasia(next);
    // A finished game is not expanded: empty front row or no move.
    bool front = false, move = next.hand[next.mover] > 0;
    for (int c = 0; c < 8; ++c) front = front || next.pit[next.mover][0][c] > 0;
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 8; ++c)
        move = move || (next.pit[next.mover][r][c] >= 2 && !(r == 0 && c == next.takasia_col));
    n += depth == 1 ? 1 : (front && move ? reference_perft(next, depth - 1) : 0);
  }
  return n;
}

TEST(Bao, PerftMatchesReference) {
  Fixture f("bao");
  const State s = State::initial(f.rules);
  for (int d = 1; d <= 5; ++d)
    EXPECT_EQ(engine_perft(s, d), reference_perft(to_reference(s), d)) << d;
  EXPECT_EQ(engine_perft(s, 1), 4u);
  // And from a mtaji position.
  const State m =
      f.at("2,0,3,1,2,0,1,2/1,2,0,3,0,2,0,1/3,1,0,2,2,1,0,2/2,3,1,0,2,4,3,18/0,0/-/S/-");
  for (int d = 1; d <= 4; ++d)
    EXPECT_EQ(engine_perft(m, d), reference_perft(to_reference(m), d)) << d;
}

// The order of the legal moves, node by node to `depth` plies: FNV-1a over their texts.
std::uint64_t move_order_fingerprint(const State& s, int depth,
                                     std::uint64_t h = 0xcbf29ce484222325) {
  State::MoveList moves;
  s.legal_moves(moves);
  for (auto m : moves)
    for (const char c : s.format_move(m) + "\n")
      h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  if (depth == 1) return h;
  for (auto m : moves) {
    State t = s;
    t.play(m);
    if (!t.is_over()) h = move_order_fingerprint(t, depth - 1, h);
  }
  return h;
}

TEST(Bao, PerftAndMoveOrderFromPositionsOfBothStagesArePinned) {
  // Positions of bao:namua_takasa=any games (every 6th ply of engine play; docs/engines.md,
  // "Bao's speed, stop 41"): the counts naqala perft gave before the move code was made faster,
  // and the order the moves are generated in (which the search's trees depend on), as the
  // engine pipe of that build listed them.
  Fixture f("bao", {{"namua_takasa", "any"}});
  struct Pinned {
    const char* position;
    int depth;
    std::uint64_t positions;
  };
  const Pinned pinned[] = {
      {"0,1,3,6,0,7,1,0/2,0,1,3,1,2,0,3/0,1,1,3,1,2,1,0/1,2,0,2,3,1,0,2/7,7/-/S/-", 7, 220366},
      {"0,2,8,0,2,0,4,1/2,2,2,0,2,1,1,2/0,1,11,2,0,1,6,0/0,1,1,0,2,0,2,0/4,4/-/S/-", 7, 246114},
      {"1,0,7,0,20,3,0,0/1,1,0,0,0,0,1,1/2,0,4,2,1,2,3,1/3,1,3,1,2,0,1,1/1,1/S/S/-", 8, 39321},
      {"4,2,3,0,4,0,0,1/5,3,4,1,0,4,2,1/1,5,2,1,0,0,4,0/1,2,1,3,4,2,1,3/0,0/-/S/-", 9, 61434},
      {"0,0,0,0,11,7,1,1/1,3,4,1,0,4,2,1/1,1,2,1,3,1,4,0/1,0,1,5,1,0,1,6/0,0/-/S/-", 8, 5421},
      {"0,6,0,2,0,5,3,1/1,3,0,1,2,5,3,2/0,1,1,1,1,3,4,6/1,0,1,0,2,1,0,8/0,0/-/S/-", 8, 23051},
      {"1,1,13,5,6,6,1,4/1,2,6,0,3,1,1,0/1,1,1,0,0,0,0,0/0,1,1,1,3,1,1,2/0,0/-/S/-", 8, 11560},
      {"2,5,4,5,1,4,1,6/1,0,11,0,7,0,2,3/1,1,1,0,0,0,0,1/1,0,0,0,2,2,0,3/0,0/-/S/-", 9, 23547},
      {"2,0,0,0,0,0,0,0/0,0,0,5,3,0,1,1/1,4,1,5,1,7,5,6/1,6,3,2,0,3,4,3/0,0/-/S/-", 11, 19417},
  };
  for (const auto& p : pinned) EXPECT_EQ(engine_perft(f.at(p.position), p.depth), p.positions);
  EXPECT_EQ(move_order_fingerprint(f.at(pinned[0].position), 3), 0x659028283f97dc11ULL);
  EXPECT_EQ(move_order_fingerprint(f.at(pinned[2].position), 3), 0xf629ee1af6e619c9ULL);
  EXPECT_EQ(move_order_fingerprint(f.at(pinned[3].position), 4), 0x691539885a2a514aULL);
  EXPECT_EQ(move_order_fingerprint(f.at(pinned[7].position), 4), 0x899bac57a23af17fULL);
}

// State::hash as it was written before its keys were laid out flat (d0518bd): the Zobrist
// table's key of every pit and hand, the houses and the takasia pit as features, the side.
std::uint64_t table_hash(const State& s) {
  static const ZobristTable z(34, 64, 20, 0xba0ba0ULL);
  std::uint64_t h = 0;
  for (const Player p : {Player::South, Player::North}) {
    for (int r = 0; r < 16; ++r) h ^= z.key(index(p) * 16 + r, s.pit(p, r));
    h ^= z.key(32 + index(p), s.hand(p));
    if (s.house(p)) h ^= z.feature(index(p));
  }
  if (s.takasia_pit() >= 0) h ^= z.feature(2 + s.takasia_pit());
  if (s.to_move() == Player::North) h ^= z.side();
  return h;
}

TEST(Bao, HashIsTheZobristTablesKeys) {
  // Every position of 60 random games (both stages, houses, takasia pits) hashes as before.
  Fixture f("bao");
  Rng rng(5);
  int takasia = 0;
  for (int g = 0; g < 60; ++g) {
    State s = State::initial(f.rules);
    while (!s.is_over()) {
      ASSERT_EQ(s.hash(), table_hash(s)) << s.position();
      takasia += s.takasia_pit() >= 0;
      State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
  EXPECT_GT(takasia, 0);
}

TEST(BaoKujifunza, PerftMatchesReference) {
  Fixture f("bao-kujifunza");
  const State s = State::initial(f.rules);
  for (int d = 1; d <= 4; ++d)
    EXPECT_EQ(engine_perft(s, d), reference_perft(to_reference(s), d)) << d;
}

// A naive relay that remembers every state it has been in: ends (returns the pits) or repeats.
std::optional<std::array<int, 16>> naive_relay(std::array<int, 16> ring, int start, int dir) {
  std::set<std::pair<std::array<int, 16>, int>> seen;
  int n = ring[start], r = start;
  ring[start] = 0;
  while (true) {
    for (int k = 0; k < n; ++k) {
      r = (r + dir + 16) % 16;
      ++ring[r];
    }
    if (ring[r] == 1) return ring;
    if (!seen.insert({ring, r}).second) return std::nullopt;
    n = ring[r];
    ring[r] = 0;
  }
}

TEST(BaoKujifunza, EndlessRelayIsDetectedExactlyAndAnnuls) {
  // Kutakata moves on random crowded rows (North's front row empty: nothing to capture),
  // each checked against the naive relay. Some never end: the engine must say so, not loop.
  Fixture f("bao-kujifunza");
  Rng rng(11);
  int endless = 0, checked = 0;
  for (int trial = 0; trial < 3000 && (endless < 3 || checked < 500); ++trial) {
    std::array<int, 16> ring{};
    const int seeds = 24 + static_cast<int>(rng.below(16));
    for (int k = 0; k < seeds; ++k) ++ring[rng.below(16)];
    bool front = false;
    for (int r = 8; r < 16; ++r) front = front || ring[r] > 0;
    if (!front) continue;
    std::string pos;
    for (int i = 0; i < 8; ++i) pos += (i ? "," : "") + std::to_string(ring[board4::front(i)]);
    pos += "/";
    for (int i = 0; i < 8; ++i) pos += (i ? "," : "") + std::to_string(ring[board4::back(i)]);
    const int rest = 64 - seeds;
    pos += "/0,0,0,0,0,0,0,0/";
    for (int i = 0; i < 8; ++i) pos += (i ? "," : "") + std::to_string(rest / 8 + (i < rest % 8));
    pos += "/0,0/-/S/-";
    const State s = f.at(pos);
    State::MoveList moves;
    s.legal_moves(moves);
    for (auto m : moves) {
      State t = s;
      t.play(m);
      const auto naive = naive_relay(ring, m.pit, m.dir);
      ++checked;
      if (!naive) {
        ++endless;
        EXPECT_EQ(t.outcome().reason, EndReason::InfiniteSowing) << pos << " " << s.format_move(m);
        EXPECT_FALSE(t.outcome().winner.has_value());
        EXPECT_EQ(total(t), 64);
      } else {
        ASSERT_FALSE(t.is_over() && t.outcome().reason == EndReason::InfiniteSowing) << pos;
        for (int r = 0; r < 16; ++r) EXPECT_EQ(t.pit(Player::South, r), (*naive)[r]) << pos;
      }
    }
  }
  EXPECT_GE(endless, 1) << "no endless relay found to test";
}

// A plain relay that remembers every state: how it ends, the pits, the last pit, the seeds.
struct NaiveRelay {
  board4::RelayEnd end;
  std::array<std::uint8_t, 16> pits;
  int last;
  std::uint64_t steps = 0;
};
NaiveRelay naive_relay_with_stops(std::array<std::uint8_t, 16> ring, int e, int dir,
                                  std::uint16_t special) {
  std::set<std::pair<std::array<std::uint8_t, 16>, int>> seen;
  std::uint64_t steps = 0;
  while (true) {
    const int n = ring[e];
    ring[e] = 0;
    for (int k = 0; k < n; ++k) {
      e = (e + dir + 16) % 16;
      ++ring[e];
    }
    steps += static_cast<std::uint64_t>(n);
    if (ring[e] == 1) return {board4::RelayEnd::Empty, ring, e, steps};
    if (special >> e & 1) return {board4::RelayEnd::Special, ring, e, steps};
    if (!seen.insert({ring, e}).second) return {board4::RelayEnd::Endless, ring, e, steps};
  }
}

// With the plain first laps (board4::kPlainRelayLaps) and with the cycle finding from the first
// lap on: the same relay.
void expect_relay_as_naive(const std::array<std::uint8_t, 16>& ring, int start, int dir,
                           std::uint16_t special) {
  const NaiveRelay want = naive_relay_with_stops(ring, start, dir, special);
  for (const int plain : {board4::kPlainRelayLaps, 0}) {
    auto got = ring;
    int e = start;
    std::uint64_t steps = 0;
    ASSERT_EQ(board4::relay(got, e, dir, special, steps, board4::kMaxRelayLaps, plain), want.end)
        << plain;
    if (want.end == board4::RelayEnd::Endless) continue;
    EXPECT_EQ(got, want.pits) << plain;
    EXPECT_EQ(e, want.last) << plain;
    EXPECT_EQ(steps, want.steps) << plain;
  }
}

TEST(Board4, RelayMatchesANaiveRelayWithStopPits) {
  // board4::relay against a plain sowing that remembers every state, on random rings with
  // random stop pits: the same end, pits, last pit and seeds dropped.
  Rng rng(31);
  for (int trial = 0; trial < 100000; ++trial) {
    std::array<std::uint8_t, 16> ring{};
    const int seeds = 20 + static_cast<int>(rng.below(20));
    for (int k = 0; k < seeds; ++k) ++ring[rng.below(16)];
    const int start = static_cast<int>(rng.below(16));
    if (ring[start] < 2) continue;
    const int dir = rng.below(2) ? CCW : CW;
    const auto special = static_cast<std::uint16_t>((1u << rng.below(16) | 1u << rng.below(16)) &
                                                    ~(1u << start) & (rng.below(3) ? 0xffff : 0));
    expect_relay_as_naive(ring, start, dir, special);
  }
}

TEST(Board4, RelayCutAfterMaxLapsIsTheSameWithOrWithoutPlainLaps) {
  // An endless relay cut after 3 laps (within the plain laps: OverTime) or let run 40 (past
  // them: proven endless first): the same end, pits, last pit and seeds whether the first laps
  // are plain or not.
  const std::array<std::uint8_t, 16> ring{1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 0, 1, 0, 2};
  for (const std::uint64_t cap : {3u, 40u}) {
    auto plain = ring, brent = ring;
    int e_plain = 11, e_brent = 11;
    std::uint64_t s_plain = 0, s_brent = 0;
    const auto end = board4::relay(plain, e_plain, CCW, 0, s_plain, cap);
    EXPECT_EQ(end, cap == 3 ? board4::RelayEnd::OverTime : board4::RelayEnd::Endless);
    EXPECT_EQ(board4::relay(brent, e_brent, CCW, 0, s_brent, cap, 0), end) << cap;
    EXPECT_EQ(plain, brent) << cap;
    EXPECT_EQ(e_plain, e_brent) << cap;
    EXPECT_EQ(s_plain, s_brent) << cap;
    EXPECT_GT(s_plain, 0u);
  }
}

TEST(Board4, RelayJumpsToAStopPitOnlyATurnedStretchReaches) {
  // An endless relay whose stretch between two turned repeats never lands in b2 (ring 1),
  // while a turned copy of it does: relay proves the turn and jumps straight to that landing.
  const std::array<std::uint8_t, 16> ring{1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 0, 1, 0, 2};
  auto t = ring;
  int e = 11;
  std::uint64_t steps = 0;
  EXPECT_EQ(board4::relay(t, e, CCW, 0, steps), board4::RelayEnd::Endless);
  t = ring, e = 11;
  EXPECT_EQ(board4::relay(t, e, CCW, 0, steps, board4::kMaxRelayLaps, 0),
            board4::RelayEnd::Endless);
  expect_relay_as_naive(ring, 11, CCW, 1u << 1);
  EXPECT_EQ(naive_relay_with_stops(ring, 11, CCW, 1u << 1).end, board4::RelayEnd::Special);
}

}  // namespace
}  // namespace naqala::bao
