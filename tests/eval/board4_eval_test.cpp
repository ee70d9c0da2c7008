// The Bao and Omweso evaluations' capture features against the games' own moves, and tuning
// them from self-play.
#include <gtest/gtest.h>

#include "core/rng.h"
#include "eval/bao_eval.h"
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
          s.play(setup_move(s, &rng));
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

}  // namespace
}  // namespace naqala::eval
