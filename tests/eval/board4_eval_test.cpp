// The Bao and Omweso evaluations' capture features against the games' own moves, tuning them
// from self-play, and fitting their pit tables.
#include <gtest/gtest.h>

#include <array>
#include <string_view>

#include "core/error.h"
#include "core/rng.h"
#include "eval/bao_eval.h"
#include "eval/board4_table_fit.h"
#include "eval/board4_trained_eval.h"
#include "eval/omweso_eval.h"
#include "eval/tune.h"

namespace naqala::eval {
namespace {

// Whether some legal move of the mover takes seeds from the opponent's side.
template <class S>
bool some_move_captures(const S& s) {
  typename S::MoveList moves;
  s.legal_moves(moves);
  const Player you = opponent(s.to_move());
  for (const auto& m : moves) {
    S next = s;
    next.play(m);
    if (next.seeds_on_side(you) < s.seeds_on_side(you)) return true;
  }
  return false;
}

// Positions of seeded random games (after Omweso's setup by the engines' policy).
template <class S, class Visit>
void random_positions(const S& initial, int games, Visit visit) {
  Rng rng(7);
  for (int g = 0; g < games; ++g) {
    S s = initial;
    for (int ply = 0; ply < 200 && !s.is_over(); ++ply) {
      typename S::MoveList moves;
      s.legal_moves(moves);
      if constexpr (std::is_same_v<S, omweso::State>) {
        if (s.in_setup()) {
          s.play(s.spread_setup_move(&rng));
          continue;
        }
      }
      visit(s);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
}

TEST(BaoEval, CaptureNowAgreesWithTheMoves) {
  const auto rules = bao::make_rules("bao", {});
  const BaoEval eval;
  int positions = 0, with_capture = 0;
  random_positions(bao::State::initial(rules), 20, [&](const bao::State& s) {
    BaoEval::Features f;
    eval.features(s, f);
    const bool captures = some_move_captures(s);
    // A capture start is what the feature looks for, so they agree both ways (a takasia pit
    // is the one exception the feature does not see, and it only ever removes a capture).
    if (s.takasia_pit() < 0) {
      EXPECT_EQ(f[BaoEval::kCaptureNow] > 0, captures) << s.position();
    }
    EXPECT_EQ(f[BaoEval::kHand], s.hand(s.to_move()) - s.hand(opponent(s.to_move())));
    ++positions;
    with_capture += captures;
  });
  EXPECT_GT(positions, 500);
  EXPECT_GT(with_capture, 50);
}

// The evaluation's side counts (read with the captures looked up once per pit) equal the
// features' definitions computed plainly, pit by pit and direction by direction, with the
// shipped pit table, on positions of both stages.
TEST(BaoEval, FeaturesMatchTheirDefinitions) {
  using namespace board4;
  const auto rules = bao::make_rules("bao", {});
  BaoEval eval;
  const auto trained = board4_trained_eval("bao", BaoEval::kFeatures);
  ASSERT_TRUE(trained);
  eval.table = trained->table;
  int namua = 0, mtaji = 0;
  random_positions(bao::State::initial(rules), 20, [&](const bao::State& s) {
    const Player me = s.to_move();
    std::array<int, 2> material{}, front{}, mobile{}, capture{}, table{};
    for (int side = 0; side < 2; ++side) {
      const Player p = side == 0 ? me : opponent(me), o = opponent(p);
      for (int i = 0; i < kPits; ++i) {
        const int c = s.pit(p, i);
        material[side] += c;
        front[side] += is_front(i) ? c : 0;
        mobile[side] += c >= 2;
        table[side] += eval.table->value[PitTable::index(side, i, kPits, c)];
        if (s.hand(p) > 0) {
          if (is_front(i) && c > 0) capture[side] = std::max(capture[side], s.pit(o, facing(i)));
        } else if (c >= 2 && c < 16) {
          for (int dir : {CW, CCW}) {
            const int e = ((i + dir * c) % 16 + 16) % 16;
            if (is_front(e) && s.pit(p, e) > 0)
              capture[side] = std::max(capture[side], s.pit(o, facing(e)));
          }
        }
      }
    }
    BaoEval::Features f;
    eval.features(s, f);
    EXPECT_EQ(f[BaoEval::kMaterial], material[0] - material[1]) << s.position();
    EXPECT_EQ(f[BaoEval::kFrontRow], front[0] - front[1]) << s.position();
    EXPECT_EQ(f[BaoEval::kMobility], mobile[0] - mobile[1]) << s.position();
    EXPECT_EQ(f[BaoEval::kCaptureNow], capture[0]) << s.position();
    EXPECT_EQ(f[BaoEval::kCaptureThreat], capture[1]) << s.position();
    EXPECT_EQ(f[BaoEval::kPitTable], table[0] + table[1]) << s.position();
    (s.in_namua(me) ? namua : mtaji)++;
  });
  EXPECT_GT(namua, 100);
  EXPECT_GT(mtaji, 100);
}

TEST(OmwesoEval, CaptureNowMeansAMoveCaptures) {
  omweso::Rules rules;
  rules.name = "omweso";
  const OmwesoEval eval;
  int positions = 0, flagged = 0;
  random_positions(omweso::State::initial(rules), 6, [&](const omweso::State& s) {
    OmwesoEval::Features f;
    eval.features(s, f);
    if (f[OmwesoEval::kCaptureNow] > 0) {
      EXPECT_TRUE(some_move_captures(s)) << s.position();
      ++flagged;
    }
    ++positions;
  });
  EXPECT_GT(positions, 100);
  EXPECT_GT(flagged, 10);
}

TEST(Tune, BaoSelfPlayIsReproducible) {
  const auto rules = bao::make_rules("bao", {});
  TuneOptions o;
  o.games = 4;
  o.depth = 1;
  const BaoEval e;
  const auto a = tune_self_play(bao::State::initial(rules), e, e.weights, o);
  const auto b = tune_self_play(bao::State::initial(rules), e, e.weights, o);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.weights.size(), static_cast<std::size_t>(BaoEval::kFeatures));
  EXPECT_GT(a.positions, 40u);
  EXPECT_LE(a.rms_after, a.rms_before + 1e-6);
}

// Labels made by a pit table of 16 pits a side (plus the capture on offer) are what the
// four-row fit gives back: the fitted evaluation scores them within rounding, where the linear
// weights miss by seeds.
template <class Eval, class S>
void expect_fit_recovers_the_table(const S& initial, int games) {
  Eval truth;
  truth.weights.fill(0);
  truth.weights[Eval::kCaptureNow] = 80;
  truth.weights[Eval::kPitTable] = 1;
  PitTable t;
  t.pits = board4::kPits;
  Rng rng(11);
  for (int i = 0; i < 2 * board4::kPits * kTableCounts; ++i)
    t.value.push_back(static_cast<std::int16_t>(static_cast<int>(rng.below(601)) - 300));
  truth.table = std::make_shared<const PitTable>(t);
  std::vector<std::pair<S, double>> data;
  random_positions(initial, games, [&](const S& s) { data.emplace_back(s, truth(s) / 100.0); });
  const PitTableFit fit = fit_board4_table(data, Eval{}, 0.001, 0);
  EXPECT_EQ(fit.positions, data.size());
  EXPECT_GT(fit.positions, 1500u);
  EXPECT_GT(fit.rms_before, 1.0);
  EXPECT_LT(fit.rms_after, 0.05);
  EXPECT_EQ(fit.eval.weights.size(), static_cast<std::size_t>(Eval::kFeatures));
  EXPECT_EQ(fit.eval.weights[Eval::kPitTable], 1);
  EXPECT_NEAR(fit.eval.weights[Eval::kCaptureNow], 80, 1);
  // What the file holds plays the same values.
  const Board4Trained back = board4_trained(fit.eval, Eval::kFeatures);
  Eval played;
  std::copy(back.weights.begin(), back.weights.end(), played.weights.begin());
  played.table = back.table;
  for (std::size_t i = 0; i < data.size(); i += 97)
    EXPECT_NEAR(played(data[i].first) / 100.0, data[i].second, 0.2);
}

TEST(Board4TableFit, RecoversTheTableThatMadeTheLabels) {
  expect_fit_recovers_the_table<BaoEval>(bao::State::initial(bao::make_rules("bao", {})), 60);
  omweso::Rules rules;
  rules.name = "omweso";
  expect_fit_recovers_the_table<OmwesoEval>(omweso::State::initial(rules), 80);
}

// The preset's table plays the preset as it is and a choice of the options it serves, nothing
// else: not another option, not another preset whose name begins the same.
TEST(Board4TableFit, ThePresetsTableServesOnlyTheOptionsItNames) {
  constexpr std::array<std::string_view, 1> shared = {"namua_takasa"};
  EXPECT_TRUE(preset_table_serves("bao", "bao", shared));
  EXPECT_TRUE(preset_table_serves("bao:namua_takasa=any", "bao", shared));
  EXPECT_FALSE(preset_table_serves("bao:house_seeds=8", "bao", shared));
  EXPECT_FALSE(preset_table_serves("bao:namua_takasa=any,house_seeds=8", "bao", shared));
  EXPECT_FALSE(preset_table_serves("bao:house_seeds=8,namua_takasa=any", "bao", shared));
  EXPECT_FALSE(preset_table_serves("bao-kujifunza", "bao", shared));
  EXPECT_FALSE(preset_table_serves("bao:namua_takasa=any", "bao", {}));
  EXPECT_TRUE(preset_table_serves("omweso", "omweso", {}));
}

// Bao ships its table (data/bao/eval.txt) and plays it: the value is the linear features' plus
// the table's entries of the position. Bao la kujifunza and Omweso ship none.
TEST(Board4TableFit, BaoPlaysTheFileItShips) {
  const auto shipped = board4_trained_eval("bao", BaoEval::kFeatures);
  ASSERT_TRUE(shipped.has_value());
  ASSERT_NE(shipped->table, nullptr);
  EXPECT_EQ(shipped->weights[BaoEval::kPitTable], 1);
  EXPECT_FALSE(board4_trained_eval("bao-kujifunza", BaoEval::kFeatures).has_value());
  EXPECT_FALSE(board4_trained_eval("omweso", OmwesoEval::kFeatures).has_value());
  BaoEval played;
  std::copy(shipped->weights.begin(), shipped->weights.end(), played.weights.begin());
  played.table = shipped->table;
  BaoEval linear = played;
  linear.table = nullptr;
  const auto rules = bao::make_rules("bao", {});
  int positions = 0;
  random_positions(bao::State::initial(rules), 2, [&](const bao::State& s) {
    int sum = 0;
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < board4::kPits; ++i) {
        const Player p = side ? opponent(s.to_move()) : s.to_move();
        sum += shipped->table->value[PitTable::index(side, i, board4::kPits, s.pit(p, i))];
      }
    EXPECT_EQ(played(s), std::clamp(linear(s) + sum, -search::kWin / 4, search::kWin / 4));
    ++positions;
  });
  EXPECT_GT(positions, 20);
}

// A file of another evaluation's weights, or of a two-row board, is refused.
TEST(Board4TableFit, RefusesAFileThatDoesNotFit) {
  TrainedSowingEval e;
  e.weights.assign(BaoEval::kFeatures, 0);
  e.table.pits = board4::kPits;
  e.table.value.assign(2 * board4::kPits * kTableCounts, 0);
  EXPECT_NO_THROW(board4_trained(e, BaoEval::kFeatures));
  EXPECT_THROW(board4_trained(e, OmwesoEval::kFeatures), Error);
  e.table.pits = 6;
  EXPECT_THROW(board4_trained(e, BaoEval::kFeatures), Error);
}

}  // namespace
}  // namespace naqala::eval
