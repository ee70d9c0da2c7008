// Random-game invariants for every sowing preset: seeds are conserved across pits, stores and
// rounds; every position written reads back the same; games end.
#include <gtest/gtest.h>

#include "core/rng.h"
#include "games/typed_state.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

using testing::preset;

struct Case {
  const char* name;
  OptionValues options;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> list = {
      {"kalah", {}},
      {"oware", {}},
      {"bantumi", {}},
      {"awale", {}},
      {"awale", {{"feeding", "gift"}, {"capture", "after_1_3"}}},
      {"ayoayo", {}},
      {"ayoayo-fours", {}},
      {"ayoayo-fours", {{"end", "25"}}},
      {"namnam", {}},
      {"kenyan-bao", {}},
      {"kenyan-bao-laps", {}},
      {"congklak", {}},
      {"congklak", {{"pits", "9"}}},
      {"congklak", {{"simultaneous_start", "false"}, {"pits", "8"}}},
      {"pallanguzhi", {}},
      {"toguz", {}},
      {"toguz", {{"tuz", "choice"}}},
      {"mangala", {}},
      {"madjnuni", {}},
      {"madjnuni", {{"capture", "standard"}}},
      {"el-akil", {}},
      {"el-akil", {{"pit", "rightmost"}, {"opposite", "true"}}},
      {"el-akil", {{"layout", "free"}}},
      {"el-ghasheem", {}},
      {"gabata", {}},
      {"gabata", {{"capture", "enemy"}}},
      {"gabata", {{"start", "alternate"}}},
      {"el-akil", {{"feeding", "gift"}, {"score", "difference"}}},
      {"madjnuni", {{"return_game", "true"}}},
  };
  return list;
}

int seeds_total(const State& s) {
  const Rules& r = s.rules();
  int sum = 0;
  for (int h = 0; h < r.holes; ++h) sum += s.seeds(h);
  return sum + s.in_hand();  // a paused lock-step (Congklak's start) holds seeds in hand
}

class Invariants : public ::testing::TestWithParam<Case> {};

TEST_P(Invariants, RandomGamesConserveSeedsRoundTripAndEnd) {
  auto rules = preset(GetParam().name, GetParam().options);
  Rng rng(20261123);
  int finished = 0;
  for (int game = 0; game < 60; ++game) {
    TypedState<State> any(State::initial(*rules), rules);
    State::MoveList moves;
    int plies = 0;
    for (; !any.typed().is_over() && plies < 20000; ++plies) {
      const State& s = any.typed();
      if (s.phase() == State::Phase::Setup)
        ASSERT_LE(seeds_total(s), rules->total_seeds) << s.position();
      else
        ASSERT_EQ(seeds_total(s), rules->total_seeds) << s.position();
      // The text form reads back as the same position.
      if (plies % 7 == 0) {
        State back = State::from_position(*rules, s.position());
        ASSERT_EQ(back.position(), s.position());
        ASSERT_EQ(back.hash(), s.hash()) << s.position();
      }
      s.legal_moves(moves);
      ASSERT_FALSE(moves.empty()) << "no legal move in a game that is not over: " << s.position();
      const auto m = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
      // Every listed move formats and parses back to itself.
      ASSERT_EQ(s.parse_move(s.format_move(m)), m) << s.format_move(m) << " in " << s.position();
      any.play_typed(m);
    }
    const State& s = any.typed();
    ASSERT_TRUE(s.is_over()) << GetParam().name << " game " << game << " still going after "
                             << plies << " plies: " << s.position();
    if (s.outcome().reason != EndReason::InfiniteSowing) {
      ASSERT_EQ(seeds_total(s), rules->total_seeds);
      ++finished;
    }
  }
  EXPECT_GT(finished, 0);
}

INSTANTIATE_TEST_SUITE_P(AllPresets, Invariants, ::testing::ValuesIn(cases()),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           for (auto& [k, v] : info.param.options) n += "_" + k + "_" + v;
                           for (auto& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace naqala::sowing
