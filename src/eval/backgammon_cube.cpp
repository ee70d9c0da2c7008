// Janowski's money cube model, and the cube rules the engines play by.
#include "eval/backgammon_cube.h"

#include <algorithm>
#include <atomic>

#include "core/error.h"
#include "eval/backgammon_met.h"

namespace naqala::bgcube {

using backgammon::Move;
using backgammon::Phase;
using backgammon::State;
using bgnet::Probs;

namespace {
// Janowski's cube life: 0.68 in contact (Janowski 1993). A long race's 0.70 puts the doubling
// and take points where Trice's race rule of thumb has them (a lead of 8% of the count to
// double, 12% to pass: about 71% and 79% winning chances in a 100-pip race).
std::atomic<float> contact_life{0.68f}, race_life{0.70f};
std::atomic<bool> short_race_curve{true};

// Short races: the cube life that loses least against exact cubeful bear-off equities, by the
// two sides' average pip count (bench/backgammon_cube_life.cpp, 3-pip ranges of every
// bear-off of up to 6 checkers a side): the cube dies as the race ends. Linear between the
// points, then up to the long-race value at kLongRace pips.
struct LifeAt {
  int pips;
  float x;
};
constexpr LifeAt kShortRace[] = {{5, 0.22f},  {8, 0.26f},  {11, 0.40f}, {14, 0.42f},
                                 {17, 0.46f}, {20, 0.48f}, {23, 0.50f}, {26, 0.54f},
                                 {29, 0.56f}, {32, 0.58f}, {35, 0.60f}};
constexpr int kLongRace = 60;
}  // namespace

Stage stage_of(const backgammon::Board& b) {
  if (bgnet::in_contact(b[0], b[1])) return Stage{false};
  return Stage{true, (backgammon::pip_count(b[0]) + backgammon::pip_count(b[1])) / 2};
}

float efficiency(const Stage& stage) {
  if (!stage.race) return contact_life.load(std::memory_order_relaxed);
  const float long_race = race_life.load(std::memory_order_relaxed);
  if (!short_race_curve.load(std::memory_order_relaxed) || stage.pips >= kLongRace)
    return long_race;
  if (stage.pips <= kShortRace[0].pips) return kShortRace[0].x;
  LifeAt a = kShortRace[0];
  for (const LifeAt& b : kShortRace) {
    if (stage.pips <= b.pips)
      return a.x + (b.x - a.x) * float(stage.pips - a.pips) / float(b.pips - a.pips);
    a = b;
  }
  return a.x + (long_race - a.x) * float(stage.pips - a.pips) / float(kLongRace - a.pips);
}

void set_cube_life(float contact, float race, bool short_races) {
  if (!(contact >= 0 && contact <= 1 && race >= 0 && race <= 1))
    throw VariantError("a cube life is between 0 (dead cube) and 1 (fully live cube)");
  contact_life = contact;
  race_life = race;
  short_race_curve = short_races;
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

Decision money_decision(const Probs& p, Access access, const Stage& stage, bool jacoby) {
  const float x = efficiency(stage);
  Decision d;
  // Under the Jacoby rule an undoubled game's gammons score single (later doubles are in
  // the live cube's part of the model, which this keeps simple).
  jacoby = jacoby && access == Access::Centred;
  d.no_double = cubeful(jacoby ? Probs{{p[Probs::Win], 0, 0, 0, 0}} : p, access, x);
  d.double_take = 2 * cubeful(p, Access::Theirs, x);
  d.double_pass = 1;
  d = settle(d);
  d.beaver = d.double_take < 0;  // the taker's side of the doubled game is positive
  return d;
}

float equity_on_roll(const Probs& p, Access access, const Stage& stage, bool jacoby) {
  if (access == Access::Theirs) return cubeful(p, access, efficiency(stage));
  const Decision d = money_decision(p, access, stage, jacoby);
  return d.should_double ? std::min(d.double_take, d.double_pass) : d.no_double;
}

float equity_after_move(const Probs& mover, Access mover_access, const Stage& stage, bool jacoby) {
  const Access theirs = mover_access == Access::Mine     ? Access::Theirs
                        : mover_access == Access::Theirs ? Access::Mine
                                                         : Access::Centred;
  return -equity_on_roll(mover.inverted(), theirs, stage, jacoby);
}

Decision match_decision(const Probs& p, const bgmet::Score& score, int cube, Access access,
                        const Stage& stage) {
  const bgmet::Table& met = bgmet::table();
  const double x = efficiency(stage);
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
// change smoothly; efficiency(race) of a long race here). Dropping costs 1 unit of the old cube,
// 0.5 of the new one, so he takes when this equity is at least -0.5: about 21.5% without gammons in
// contact, not the 25% of a dead cube.
double equity_after_take(const Estimate& doubler, bool race) {
  const double p = 1 - doubler.win;
  if (p <= 0) return -1 - (doubler.win > 0 ? doubler.gammon / doubler.win : 0);
  const double win_value = 1 + doubler.gammon_loss / p;  // the taker's gammons
  const double loss_value = doubler.win > 0 ? 1 + doubler.gammon / doubler.win : 1;
  const double dead = p * win_value - (1 - p) * loss_value;
  const double cash_point = (loss_value + 1) / (win_value + loss_value + 0.5);
  const double live = p >= cash_point ? 1.0 : -loss_value + (1 + loss_value) * p / cash_point;
  const double x = efficiency(race);
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

Decision decision_of(const State& s, const Probs& p) {
  const Stage stage = stage_of(s.board());
  const Access access = s.cube_owner() ? Access::Mine : Access::Centred;
  if (const auto score = bgmet::score_of(s))
    return match_decision(p, *score, s.cube(), access, stage);
  return money_decision(p, access, stage, jacoby_applies(s));
}

bool should_double(const State& s, const Probs& p) {
  const Player me = s.on_roll();
  if (s.rules().match > 0 && s.cube() >= away(s, me))
    return false;                                 // the cube already wins the match
  if (post_crawford_trailer(s, me)) return true;  // nothing to lose by doubling
  // Janowski's decision, as the analysis judges it: double when the doubled game (take or
  // pass, the opponent's better answer) is worth more than keeping the cube.
  return decision_of(s, p).should_double;
}

bool should_take(const State& s, const Probs& p) {
  const Player doubler = s.on_roll();
  if (s.rules().match > 0 && s.cube() >= away(s, doubler))
    return true;  // dropping loses the match anyway
  if (post_crawford_trailer(s, doubler)) return p[Probs::Win] < 0.9f;
  return decision_of(s, p).should_take;
}

}  // namespace

Access access_of(const State& s) {
  if (!s.cube_owner()) return Access::Centred;
  return *s.cube_owner() == s.on_roll() ? Access::Mine : Access::Theirs;
}

bool jacoby_applies(const State& s) {
  return s.rules().jacoby && s.rules().is_money() && !s.cube_owner();
}

Move cube_action(const State& s, const Estimate& e) {
  return cube_action(s, Probs{{static_cast<float>(e.win), static_cast<float>(e.gammon), 0,
                               static_cast<float>(e.gammon_loss), 0}});
}

Move cube_action(const State& s, const Probs& on_roll) {
  if (s.phase() == Phase::TurnStart)
    return Move::of(should_double(s, on_roll) ? Move::Kind::Double : Move::Kind::Roll);
  if (s.phase() == Phase::Doubled)
    return Move::of(should_take(s, on_roll) ? Move::Kind::Take : Move::Kind::Drop);
  throw IllegalMoveError("a cube action is decided before the roll or after a double, not here");
}

}  // namespace naqala::bgcube
