// Resignation offers and answers from the evaluation.
#include "engine/backgammon_resign.h"

#include <algorithm>

#include "eval/backgammon_cube.h"
#include "eval/backgammon_evaluator.h"
#include "eval/backgammon_met.h"
#include "games/backgammon/family.h"
#include "search/backgammon_ply.h"

namespace naqala::bgresign {

namespace {

using backgammon::Phase;
using backgammon::State;
using bgcube::Access;
using bgnet::Probs;

// Playing on must beat the resignation by more than this (points per cube, or match-winning
// chance) before the player on roll keeps playing; and an answerer accepts an offer that
// gives him up to `kAcceptTolerance` less than playing on (rounding of the chances).
constexpr double kOfferMargin = 0.002;
constexpr double kAcceptTolerance = 0.001;

Access flipped(Access a) {
  return a == Access::Mine ? Access::Theirs : a == Access::Theirs ? Access::Mine : Access::Centred;
}

// The match score of `me`, when the match equity table covers it.
std::optional<bgmet::Score> match_score(const State& s, Player me) {
  auto sc = bgmet::score_of(s);  // for the player on roll
  if (sc && me != s.on_roll()) sc = bgmet::Score{sc->opp_away, sc->away, sc->post_crawford};
  return sc;
}

// The MWC of `me` on roll before his roll with chances `p`, the cube where `access` says.
double mwc_on_roll(const State& s, const bgmet::Score& sc, const Probs& p, Access access,
                   const bgcube::Stage& stage) {
  const bgmet::Table& met = bgmet::table();
  // A dead cube: no cube, the Crawford game, or a game one side cannot lose (the table's live
  // cube model, made for chances in between, is off by a few hundredths at the ends).
  const bool decided = p[Probs::Win] < 1e-4f || p[Probs::Win] > 1 - 1e-4f;
  if (!s.rules().cube || s.crawford_game() || decided) {
    // Each result's score; the next game is post-Crawford after the Crawford game.
    const bool post = sc.post_crawford || s.crawford_game();
    const int c = s.cube();
    const auto v = [&](int mine, int theirs) {
      return met.next(sc.away - mine, sc.opp_away - theirs, post);
    };
    return (p[Probs::Win] - p[Probs::WinGammon]) * v(c, 0) +
           (p[Probs::WinGammon] - p[Probs::WinBackgammon]) * v(2 * c, 0) +
           p[Probs::WinBackgammon] * v(3 * c, 0) +
           (1 - p[Probs::Win] - p[Probs::LoseGammon]) * v(0, c) +
           (p[Probs::LoseGammon] - p[Probs::LoseBackgammon]) * v(0, 2 * c) +
           p[Probs::LoseBackgammon] * v(0, 3 * c);
  }
  const bgcube::Decision d = bgcube::match_decision(p, sc, s.cube(), access, stage);
  if (access == Access::Theirs || !d.should_double) return d.no_double;
  return std::min(d.double_take, d.double_pass);
}

// The value to `me`, on roll before his roll with chances `p` (the board `b`, his side first).
double value_on_roll(const State& s, Player me, const Probs& p, const backgammon::Board& b) {
  const bgcube::Stage stage = bgcube::stage_of(b);
  Access access = bgcube::access_of(s);  // as the player on roll in `s` sees it
  if (me != s.on_roll()) access = flipped(access);
  if (const auto sc = match_score(s, me)) return mwc_on_roll(s, *sc, p, access, stage);
  if (!s.rules().cube) return p.equity();
  return bgcube::equity_on_roll(p, access, stage, bgcube::jacoby_applies(s));
}

}  // namespace

double for_opponent(const State& s, double v) {
  return bgmet::score_of(s) ? 1 - v : -v;
}

double play_on_value(const State& s, const bgnet::Net& net, int plies) {
  const Player me = s.on_roll();
  const backgammon::Board b = {s.side(me), s.side(opponent(me))};
  if (s.phase() != Phase::Moving)
    return value_on_roll(s, me, bgsearch::evaluate_on_roll(net, b, plies), b);
  // After the roll: the best of his moves, each valued from the opponent on roll after it.
  bgsearch::Config c;
  const auto ranked = bgsearch::rank_moves(net, b, s.die(0), s.die(1), c);
  if (ranked.moves.empty()) {  // no move: the opponent rolls next
    const backgammon::Board theirs = {b[1], b[0]};
    return for_opponent(
        s, value_on_roll(s, opponent(me), bgsearch::evaluate_on_roll(net, theirs, 0), theirs));
  }
  double best = -1e9;
  for (const auto& m : ranked.moves) {
    if (backgammon::checkers_off(m.after[0]) == backgammon::kCheckers) {
      // The move wins: the game's result, scored.
      const int k = m.probs[Probs::WinBackgammon] > 0.5f ? 3
                    : m.probs[Probs::WinGammon] > 0.5f   ? 2
                                                         : 1;
      const int value = s.resignation_value(k);  // the Jacoby rule scores as it does
      if (const auto sc = match_score(s, me))
        best = std::max(best, bgmet::table().next(sc->away - value * s.cube(), sc->opp_away,
                                                  sc->post_crawford || s.crawford_game()));
      else
        best = std::max(best, static_cast<double>(value));
      continue;
    }
    const backgammon::Board theirs = {m.after[1], m.after[0]};
    best =
        std::max(best, for_opponent(s, value_on_roll(s, opponent(me), m.probs.inverted(), theirs)));
  }
  return best;
}

double resigned_value(const State& s, int multiplier) {
  const int value = s.resignation_value(multiplier);
  if (const auto sc = bgmet::score_of(s))
    return bgmet::table().next(sc->away, sc->opp_away - value * s.cube(),
                               sc->post_crawford || s.crawford_game());
  return -value;  // per unit of the cube
}

std::optional<int> offer(const State& s, const bgnet::Net& net, int plies) {
  if (s.is_over() || s.resignation_offered() || s.to_move() != s.on_roll()) return std::nullopt;
  if (s.phase() != Phase::TurnStart && s.phase() != Phase::Moving) return std::nullopt;
  const double v = play_on_value(s, net, plies);
  for (int k = s.resignation_declined() + 1; k <= 3; ++k) {
    const double r = resigned_value(s, k);
    if (v - r > kOfferMargin) return std::nullopt;  // playing on is worth more than this
    if (v - r >= -kAcceptTolerance) return k;       // ... and the opponent would take it
  }
  return std::nullopt;
}

bool accepts(const State& s, const bgnet::Net& net, int plies) {
  const int k = s.resignation_offered();
  if (!k) return false;
  return resigned_value(s, k) <= play_on_value(s, net, plies) + kAcceptTolerance;
}

}  // namespace naqala::bgresign

namespace naqala::engine {

std::optional<std::string> resignation_offer(const AnyState& state) {
  const auto* bg = dynamic_cast<const backgammon::BackgammonState*>(&state);
  if (!bg) return std::nullopt;
  const auto k = bgresign::offer(bg->typed(), bgeval::shipped_net(), 0);
  if (!k) return std::nullopt;
  return backgammon::format_resignation(*k);
}

}  // namespace naqala::engine
