// The hand-written backgammon player: evaluation, 1-ply checker play, cube decisions.
#include "eval/backgammon_heuristic.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/error.h"

namespace naqala::bgheuristic {

using namespace backgammon;

namespace {

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
double clamp01(double x) {
  return std::clamp(x, 0.0, 1.0);
}

// Pips of checkers outside the side's home board, a proxy for gammon danger.
int pips_outside_home(const Side& s) {
  int n = 0;
  for (int i = 6; i < 25; ++i) n += s[i] * (i - 5);
  return n;
}

// One side's contact features (see ContactFeatures).
struct SideFeatures {
  double points = 0, prime = 0, blots = 0, bar = 0, anchors = 0, stacks = 0, back = 0;
};

SideFeatures side_features(const Side& me, const Side& opp) {
  SideFeatures f;
  // Made points, weighted by how much they block: the home board and the bar point most.
  static constexpr double kPointValue[24] = {0.05, 0.10, 0.14, 0.20, 0.26, 0.24, 0.20, 0.14,
                                             0.08, 0.05, 0.04, 0.04, 0.03, 0.02, 0.02, 0.02,
                                             0.02, 0.03, 0.08, 0.08, 0.09, 0.10, 0.10, 0.09};
  int run = 0, best_run = 0;
  for (int i = 0; i < 24; ++i) {
    if (me[i] >= 2) {
      f.points += kPointValue[i];
      best_run = std::max(best_run, ++run);
      if (i >= 18) f.anchors += 1;
    } else {
      run = 0;
    }
    if (me[i] > 3) f.stacks += me[i] - 3;
    if (i >= 18) f.back += me[i];
  }
  if (best_run >= 3) f.prime = (best_run - 2) * (best_run - 2);
  // Blots the opponent can hit with a direct shot (1-11 pips in front of an opponent
  // checker), weighted by what being hit costs.
  for (int i = 0; i < 24; ++i) {
    if (me[i] != 1) continue;
    const int target = 23 - i;  // the blot's index from the opponent's view
    int shooters = 0;
    for (int j = target + 1; j <= std::min(24, target + 11); ++j) shooters += opp[j];
    if (shooters == 0) continue;
    f.blots += (0.12 + 0.012 * (i + 1)) * std::min(1.0, 0.35 + 0.15 * shooters);
  }
  f.bar = me[kBar];
  f.back += me[kBar];
  return f;
}

}  // namespace

ContactFeatures contact_features(const Board& board, Player p) {
  const Side& me = board[index(p)];
  const Side& opp = board[index(opponent(p))];
  const SideFeatures a = side_features(me, opp), b = side_features(opp, me);
  return {1.0,
          (pip_count(opp) - pip_count(me)) / 10.0,
          a.points - b.points,
          a.prime - b.prime,
          a.blots - b.blots,
          a.bar - b.bar,
          a.anchors - b.anchors,
          a.stacks - b.stacks,
          a.back - b.back,
          static_cast<double>(checkers_off(me) - checkers_off(opp))};
}

double contact_win_chance(const ContactFeatures& weights, const ContactFeatures& features) {
  double logit = 0;
  for (std::size_t i = 0; i < features.size(); ++i) logit += weights[i] * features[i];
  return sigmoid(logit);
}

Estimate evaluate_after_move(const Board& board, Player p) {
  const Side& me = board[index(p)];
  const Side& opp = board[index(opponent(p))];
  Estimate e;
  const int my_off = checkers_off(me), opp_off = checkers_off(opp);
  if (my_off == kCheckers) return {1.0, opp_off == 0 ? 1.0 : 0.0, 0.0};
  if (opp_off == kCheckers) return {0.0, 0.0, my_off == 0 ? 1.0 : 0.0};
  const int my_pips = pip_count(me), opp_pips = pip_count(opp);
  if (!bgnet::in_contact(me, opp)) {
    // Race: the opponent is on roll (worth about 4 pips); wastage grows with stacked checkers.
    const double lead = opp_pips - my_pips - 4.0;
    const double sd = 2.0 * std::sqrt((my_pips + opp_pips) / 2.0) + 1.0;
    e.win = clamp01(0.5 * std::erfc(-lead / (sd * std::sqrt(2.0))));
  } else {
    e.win = contact_win_chance(kContactWeights, contact_features(board, p));
  }
  // Gammons: only possible while the loser has borne off nothing; likelier the more of his
  // army is still far from home.
  if (opp_off == 0) e.gammon = e.win * e.win * clamp01(pips_outside_home(opp) / 90.0) * 0.6;
  if (my_off == 0)
    e.gammon_loss = (1 - e.win) * (1 - e.win) * clamp01(pips_outside_home(me) / 90.0) * 0.6;
  return e;
}

namespace {

struct Best {
  Estimate estimate;
  std::size_t index = 0;
};

Best best_play(const Board& board, Player p, const MoveList& moves, Rng* rng) {
  Best best;
  double best_eq = -1e9;
  int ties = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move& m = moves[i];
    Board b = board;
    if (m.kind == Move::Kind::Checkers) apply_steps(b, p, m);
    const Estimate e = evaluate_after_move(b, p);
    const double eq = e.equity();
    if (eq > best_eq + 1e-12) {
      best_eq = eq;
      best = {e, i};
      ties = 1;
    } else if (rng && std::abs(eq - best_eq) <= 1e-12 && rng->below(++ties) == 0) {
      best = {e, i};
    }
  }
  return best;
}

}  // namespace

Estimate evaluate_on_roll(const Board& board, Player p) {
  auto moves = std::make_unique<MoveList>();
  Estimate sum{0, 0, 0};
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= a; ++b) {
      const double w = a == b ? 1.0 / 36 : 2.0 / 36;
      generate_moves(board, p, a, b, *moves);
      Estimate e;
      if (moves->empty())
        e = evaluate_after_move(board, p);
      else
        e = best_play(board, p, *moves, nullptr).estimate;
      sum.win += w * e.win;
      sum.gammon += w * e.gammon;
      sum.gammon_loss += w * e.gammon_loss;
    }
  return sum;
}

BotChoice choose_move(const State& s, Rng* rng) {
  if (const int k = s.resignation_offered()) {
    // Accept what scores at least the resigner's cubeless equity (per unit of the cube).
    const double on_roll = evaluate_on_roll(s.board(), s.on_roll()).equity();
    const bool accept = -s.resignation_value(k) <= on_roll + 1e-3;
    return {Move::of(accept ? Move::Kind::Accept : Move::Kind::Decline), 0};
  }
  switch (s.phase()) {
    case Phase::TurnStart:
    case Phase::Doubled:
      return {bgcube::cube_action(s, evaluate_on_roll(s.board(), s.on_roll())), 0};
    case Phase::Moving: {
      auto moves = std::make_unique<MoveList>();
      s.legal_moves(*moves);
      const Best b = best_play(s.board(), s.on_roll(), *moves, rng);
      return {(*moves)[b.index], b.estimate.equity()};
    }
    default:
      throw IllegalMoveError(
          "the bot decides only at decision nodes; here the dice are to be rolled or the game is "
          "over");
  }
}

}  // namespace naqala::bgheuristic
