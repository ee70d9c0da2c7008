#pragma once
// Cube decisions from cubeless chances.
// - The analysis (`money_decision`): money-play cubeful equities by Janowski's interpolation
//   between the dead cube (cubeless equity) and a fully live cube, weighted by a cube
//   efficiency (docs/games/backgammon.md, "Cube decisions"). Equities are per unit of the
//   current cube, for the player on roll, before his roll.
// - The rules the engines play by (`cube_action`): money thresholds with Janowski's take point
//   and the match cases, for whatever evaluation supplies the chances.
#include <string>

#include "eval/backgammon_net.h"

namespace naqala::bgmet {
struct Score;
}

namespace naqala::bgcube {

enum class Access { Centred, Mine, Theirs };

// What the cube's life depends on: contact, or a race and its length (the two sides' average
// pip count). `true` and `false` convert to a long race and to contact.
struct Stage {
  bool race = false;
  int pips = 100;
  Stage(bool is_race = false, int average_pips = 100) : race(is_race), pips(average_pips) {}
};
// The stage of a position (either side's view).
Stage stage_of(const backgammon::Board& b);

// Cube efficiency (Janowski's cube life x): how live the cube is. 0.68 in contact; in a race
// 0.70 from 60 pips on, falling in shorter races to the values measured from exact bear-off
// equities (0.60 at 35 pips, 0.22 at 5) (bench/backgammon_cube_life.cpp; docs/games/backgammon.md,
// "Cube life"), unless set_cube_life changed them.
float efficiency(const Stage& stage);
// Changes the contact and long-race cube life of every later decision in this process
// (measurements sweep them; the engines use the defaults). Each value in [0, 1]; without
// `short_races` every race has the value `race`.
void set_cube_life(float contact, float race, bool short_races = true);

// Cubeful equity of the player on roll with the cube where `access` says.
float cubeful(const bgnet::Probs& p, Access access, float x);

struct Decision {
  float no_double = 0;    // keep the cube (he may still own or share it)
  float double_take = 0;  // twice the equity with the opponent owning a cube of 2
  float double_pass = 1;
  bool should_double = false;
  bool should_take = false;  // the opponent's right answer to a double
  // Where beavers are played (not in naqala's rules, RULES.md section 21): the taker should
  // beaver, the doubled game being worth more to him than to the doubler.
  bool beaver = false;
  std::string verdict;  // "No double, take", "Double, take", "Double, pass", "Too good, pass", ...
};

// The decision of the player on roll whose cube is `access` (Centred or Mine). With `jacoby`
// (the Jacoby rule and a centred cube) his gammons count only once the cube is turned, so
// keeping the cube is valued without them and nothing is too good (ignored unless centred).
Decision money_decision(const bgnet::Probs& p, Access access, const Stage& stage,
                        bool jacoby = false);

// Money play, per unit of the current cube: the equity of the player on roll before his roll
// after his best cube action (a double met by the opponent's best answer, or no double; with
// the cube on the opponent's side, no double).
float equity_on_roll(const bgnet::Probs& p, Access access, const Stage& stage, bool jacoby);

// Cubeful chequer play: the money equity, per unit of the current cube, of the position the
// mover has just made, from his chances `mover` (the opponent to roll) and the cube as the
// mover sees it: minus the opponent's equity on roll, his cube action included.
float equity_after_move(const bgnet::Probs& mover, Access mover_access, const Stage& stage,
                        bool jacoby);

// Match play: the same three choices as match-winning chances (MWC) of the player on roll,
// at `score` (his points away first) with `cube` where `access` says (Centred or Mine), by
// the model of naqala's match equity table (eval/backgammon_met.h): the dead cube's MWC from
// the chances and the table; the fully live cube's from the model's curve, read at the
// winning chance whose dead-cube MWC in the model is the same; mixed by the efficiency.
// Both scores at most bgmet::kMaxAway, not the Crawford game.
Decision match_decision(const bgnet::Probs& p, const bgmet::Score& score, int cube, Access access,
                        const Stage& stage);

// The chances the cube rules read, for one player.
struct Estimate {
  double win = 0.5;     // probability that he wins the game
  double gammon = 0.0;  // probability that he wins a gammon or better
  double gammon_loss = 0.0;
  double equity() const { return 2 * win - 1 + gammon - gammon_loss; }
};

// The equity of taking a double, for the taker, in units of the doubled cube he then owns
// (money play): his cubeless equity and the equity of a fully live cube (Janowski), mixed by
// the cube's efficiency (0.68 in contact, a long race's in a race). `doubler` is the doubler's
// estimate on roll. Taking is right when it is at least -0.5 (dropping costs the old cube).
double equity_after_take(const Estimate& doubler, bool race);

// The cube action of the player to decide (before the roll: double or roll; after a double:
// take or drop) from `on_roll`, the estimate for the player on roll (the doubler) with him to
// roll: double when Janowski's money decision (`money_decision`) does, not when too good
// (with the Jacoby rule and a centred cube, gammons count only after the double), take by the
// rule above; in matches (scores up to bgmet::kMaxAway away) by `match_decision` instead,
// after the plain match cases (dead cube, post-Crawford trailer, a drop that loses the match).
backgammon::Move cube_action(const backgammon::State& s, const Estimate& on_roll);
// The same from all five probabilities (backgammons counted).
backgammon::Move cube_action(const backgammon::State& s, const bgnet::Probs& on_roll);

// The cube as the player on roll in `s` sees it, and whether the Jacoby rule makes his
// gammons count only after a double (money play, centred cube).
Access access_of(const backgammon::State& s);
bool jacoby_applies(const backgammon::State& s);

}  // namespace naqala::bgcube
