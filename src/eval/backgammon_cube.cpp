// Janowski's money cube model, and the cube rules the engines play by.
#include "eval/backgammon_cube.h"

#include <algorithm>

#include "core/error.h"
#include "eval/backgammon_met.h"

namespace naqala::bgcube {

using backgammon::Move;
using backgammon::Phase;
using backgammon::State;
using bgnet::Probs;

float efficiency(bool race) {
  return race ? 0.85f : 0.68f;
}

float cubeful(const Probs& pr, Access access, float x) {
  const float p = std::clamp(pr[Probs::Win], 1e-6f, 1 - 1e-6f);
  // Average values of a win and of a loss (gammons and backgammons included).
  const float w = 1 + (pr[Probs::WinGammon] + pr[Probs::WinBackgammon]) / p;
  const float l = 1 + (pr[Probs::LoseGammon] + pr[Probs::LoseBackgammon]) / (1 - p);
  const float dead = p * (w + l) - l;
  // With a live cube the opponent passes a double from my cash point `cp` on, and I pass
  // his below my take point `tp`.
  const float tp = (l - 0.5f) / (w + l + 0.5f);
  const float cp = (l + 1) / (w + l + 0.5f);
  float live = 0;
  switch (access) {
    case Access::Mine:
      live = p < cp ? -l + (1 + l) * p / cp : 1 + (w - 1) * (p - cp) / (1 - cp);
      break;
    case Access::Theirs:
      live = p <= tp ? -l + (l - 1) * p / tp : -1 + (w + 1) * (p - tp) / (1 - tp);
      break;
    case Access::Centred:
      if (p < tp)
        live = -l + (l - 1) * p / tp;
      else if (p < cp)
        live = -1 + 2 * (p - tp) / (cp - tp);
      else
        live = 1 + (w - 1) * (p - cp) / (1 - cp);
      break;
  }
  return x * live + (1 - x) * dead;
}

namespace {

// The doubler's choice and the taker's answer from the three equities (either money or MWC).
Decision settle(Decision d) {
  d.should_take = d.double_take <= d.double_pass;
  const float doubled = std::min(d.double_take, d.double_pass);
  d.should_double = doubled > d.no_double;
  const std::string answer = d.should_take ? "take" : "pass";
  if (d.should_double)
    d.verdict = "Double, " + answer;
  else if (!d.should_take)
    d.verdict = "Too good, pass";
  else
    d.verdict = "No double, take";
  return d;
}

}  // namespace

Decision money_decision(const Probs& p, Access access, bool race) {
  const float x = efficiency(race);
  Decision d;
  d.no_double = cubeful(p, access, x);
  d.double_take = 2 * cubeful(p, Access::Theirs, x);
  d.double_pass = 1;
  return settle(d);
}

Decision match_decision(const Probs& p, const bgmet::Score& score, int cube, Access access,
                        bool race) {
  const bgmet::Table& met = bgmet::table();
  const double x = efficiency(race);
  const double win = p[Probs::Win], gammon = p[Probs::WinGammon], bg = p[Probs::WinBackgammon];
  const double loss = 1 - win, lost_gammon = p[Probs::LoseGammon];
  const double lost_bg = p[Probs::LoseBackgammon];
  // The MWC of the game played to the end for `c` with these chances and the cube's access.
  const auto cubeful_mwc = [&](int c, Access a) {
    const auto v = [&](int mine, int theirs) {
      return met.next(score.away - mine, score.opp_away - theirs, score.post_crawford);
    };
    const double dead = (win - gammon) * v(c, 0) + (gammon - bg) * v(2 * c, 0) + bg * v(3 * c, 0) +
                        (loss - lost_gammon) * v(0, c) + (lost_gammon - lost_bg) * v(0, 2 * c) +
                        lost_bg * v(0, 3 * c);
    const double model_win = met.win_value(score, c), model_loss = met.loss_value(score, c);
    const double spread = model_win - model_loss;
    const double p_model = spread > 1e-12 ? (dead - model_loss) / spread : win;
    return x * bgmet::at(met.curve(score, c, a), p_model) + (1 - x) * dead;
  };
  Decision d;
  d.no_double = static_cast<float>(cubeful_mwc(cube, access));
  d.double_take = static_cast<float>(cubeful_mwc(2 * cube, Access::Theirs));
  d.double_pass =
      static_cast<float>(met.next(score.away - cube, score.opp_away, score.post_crawford));
  return settle(d);
}

// The taker's equity after taking, in units of the doubled cube, which he then owns (money
// play, Janowski's model). Cubeless, the equity is p W - (1 - p) L, with p his winning
// chance and W, L his average win and loss (gammons included); with the cube fully live it
// rises linearly from -L at p = 0 to +1 at his cash point (where the doubler's take point on
// the redouble is), because he can redouble the doubler out there. The cube is live a share
// x of the time (its efficiency: about 0.68 in contact, more in a race, where the chances
// change smoothly). Dropping costs 1 unit of the old cube, 0.5 of the new one, so he takes
// when this equity is at least -0.5: about 21.5% without gammons in contact, not the 25% of
// a dead cube.
double equity_after_take(const Estimate& doubler, bool race) {
  const double p = 1 - doubler.win;
  if (p <= 0) return -1 - (doubler.win > 0 ? doubler.gammon / doubler.win : 0);
  const double win_value = 1 + doubler.gammon_loss / p;  // the taker's gammons
  const double loss_value = doubler.win > 0 ? 1 + doubler.gammon / doubler.win : 1;
  const double dead = p * win_value - (1 - p) * loss_value;
  const double cash_point = (loss_value + 1) / (win_value + loss_value + 0.5);
  const double live = p >= cash_point ? 1.0 : -loss_value + (1 + loss_value) * p / cash_point;
  const double x = race ? 0.85 : 0.68;
  return x * live + (1 - x) * dead;
}

namespace {

// Points still needed to win the match, or a large number outside match play.
int away(const State& s, Player p) {
  return s.rules().match > 0 ? s.rules().match - s.score(p) : 1 << 20;
}

bool post_crawford_trailer(const State& s, Player p) {
  const int n = s.rules().match;
  return n > 0 && !s.crawford_game() && s.score(opponent(p)) == n - 1 && s.score(p) < n - 1;
}

Decision decision_of(const State& s, const Estimate& e) {
  const backgammon::Board& b = s.board();
  const bool race = !bgnet::in_contact(b[0], b[1]);
  const bgnet::Probs p{{static_cast<float>(e.win), static_cast<float>(e.gammon), 0,
                        static_cast<float>(e.gammon_loss), 0}};
  const Access access = s.cube_owner() ? Access::Mine : Access::Centred;
  if (const auto score = bgmet::score_of(s))
    return match_decision(p, *score, s.cube(), access, race);
  return money_decision(p, access, race);
}

bool should_double(const State& s, const Estimate& e) {
  const Player me = s.on_roll();
  if (s.rules().match > 0 && s.cube() >= away(s, me))
    return false;                                 // the cube already wins the match
  if (post_crawford_trailer(s, me)) return true;  // nothing to lose by doubling
  // Janowski's decision, as the analysis judges it: double when the doubled game (take or
  // pass, the opponent's better answer) is worth more than keeping the cube.
  const Decision d = decision_of(s, e);
  if (!(s.rules().jacoby && s.cube() == 1 && s.rules().is_money())) return d.should_double;
  // Jacoby: gammons count only once the cube is turned, so keeping it is worth the game
  // without them, and there is no "too good".
  const backgammon::Board& b = s.board();
  const bgnet::Probs single{{static_cast<float>(e.win), 0, 0, 0, 0}};
  const Access access = s.cube_owner() ? Access::Mine : Access::Centred;
  return std::min(d.double_take, d.double_pass) >
         money_decision(single, access, !bgnet::in_contact(b[0], b[1])).no_double;
}

bool should_take(const State& s, const Estimate& e) {
  const Player doubler = s.on_roll();
  if (s.rules().match > 0 && s.cube() >= away(s, doubler))
    return true;  // dropping loses the match anyway
  if (post_crawford_trailer(s, doubler)) return e.win < 0.9;
  if (bgmet::score_of(s)) return decision_of(s, e).should_take;
  const backgammon::Board& b = s.board();
  return equity_after_take(e, !bgnet::in_contact(b[0], b[1])) >= -0.5;
}

}  // namespace

Move cube_action(const State& s, const Estimate& on_roll) {
  if (s.phase() == Phase::TurnStart)
    return Move::of(should_double(s, on_roll) ? Move::Kind::Double : Move::Kind::Roll);
  if (s.phase() == Phase::Doubled)
    return Move::of(should_take(s, on_roll) ? Move::Kind::Take : Move::Kind::Drop);
  throw IllegalMoveError("a cube action is decided before the roll or after a double, not here");
}

}  // namespace naqala::bgcube
