// The match equity table from the continuous game model (docs/games/backgammon.md, "Match
// equity table").
#include "eval/backgammon_met.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"

namespace naqala::bgmet {

using bgcube::Access;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double p_of(int i) {
  return static_cast<double>(i) / kGrid;
}

// The least concave curve above the points (p_i, y_i) (upper = true), or the greatest convex
// one below them: the value of waiting for the best moment to stop with payoff y, when p is
// a martingale absorbed at 0 and 1.
Curve envelope(const Curve& y, bool upper) {
  const double sign = upper ? 1 : -1;
  std::array<int, kGrid + 1> hull{};
  int n = 0;
  for (int i = 0; i <= kGrid; ++i) {
    // Drop the last vertex while it lies on or below the chord to the new point.
    while (n >= 2) {
      const int o = hull[n - 2], a = hull[n - 1];
      const double cross = (a - o) * sign * (y[i] - y[o]) - sign * (y[a] - y[o]) * (i - o);
      if (cross < 0) break;
      --n;
    }
    hull[n++] = i;
  }
  Curve out{};
  for (int k = 0; k + 1 < n; ++k) {
    const int i0 = hull[k], i1 = hull[k + 1];
    for (int i = i0; i <= i1; ++i) out[i] = y[i0] + (y[i1] - y[i0]) * (i - i0) / (i1 - i0);
  }
  return out;
}

// The game when either side may double (a Dynkin game): V(0) = loss, V(1) = win, and in
// between V is the average of its neighbours (nobody doubles), or `lo` where the player
// doubles (V >= lo), or `hi` where the opponent does (V <= hi). Projected SOR.
Curve both_may_double(double loss, double win, const Curve& lo, const Curve& hi) {
  Curve v{};
  for (int i = 0; i <= kGrid; ++i) v[i] = std::clamp(loss + (win - loss) * p_of(i), lo[i], hi[i]);
  v[0] = loss;
  v[kGrid] = win;
  const double omega = 2 / (1 + std::sin(3.14159265358979 / kGrid));
  for (int sweep = 0; sweep < 200000; ++sweep) {
    double change = 0;
    for (int i = 1; i < kGrid; ++i) {
      const double target = v[i] + omega * ((v[i - 1] + v[i + 1]) / 2 - v[i]);
      const double next = std::clamp(target, lo[i], hi[i]);
      change = std::max(change, std::abs(next - v[i]));
      v[i] = next;
    }
    if (change < 1e-13) break;
  }
  return v;
}

}  // namespace

double at(const Curve& c, double p) {
  const double x = std::clamp(p, 0.0, 1.0) * kGrid;
  const int i = std::min(static_cast<int>(x), kGrid - 1);
  return c[i] + (c[i + 1] - c[i]) * (x - i);
}

Table::Table(GameRates rates, int max_away) : rates_(rates), max_away_(max_away) {
  if (!(rates.gammon >= 0 && rates.backgammon >= 0 && rates.backgammon <= rates.gammon &&
        rates.gammon <= 1))
    throw Error("match equity table: gammon and backgammon rates must satisfy 0 <= B <= G <= 1");
  if (max_away < 1 || max_away > kMaxAway)
    throw Error("match equity table: 1 to " + std::to_string(kMaxAway) + " points away");
  const double r1 = 1 - rates.gammon, r2 = rates.gammon - rates.backgammon, r3 = rates.backgammon;
  const auto post = [&](int n) { return n <= 0 ? 0.0 : post_[n]; };
  // After the Crawford game: the trailer doubles at once unless that is worse for him (the
  // leader then takes or drops, whichever is better for him); his gammons count double.
  post_[1] = 0.5;
  for (int n = 2; n <= max_away; ++n) {
    const double no_double = 0.5 + 0.5 * (r1 * post(n - 1) + r2 * post(n - 2) + r3 * post(n - 3));
    const double take = 0.5 + 0.5 * (r1 * post(n - 2) + r2 * post(n - 4) + r3 * post(n - 6));
    post_[n] = std::min(no_double, std::max(take, post(n - 1)));
  }
  // The Crawford game: no cube.
  pre_[1][1] = 0.5;
  for (int n = 2; n <= max_away; ++n) {
    pre_[1][n] = 0.5 + 0.5 * (r1 * post(n - 1) + r2 * post(n - 2) + r3 * post(n - 3));
    pre_[n][1] = 1 - pre_[1][n];
  }
  // Earlier scores from the later ones: every game won moves a score closer to the end.
  std::vector<Curve> centred((kMaxAway + 1) * (kMaxAway + 1));
  for (int total = 4; total <= 2 * max_away; ++total)
    for (int a = std::max(2, total - max_away); a <= std::min(max_away, total - 2); ++a) {
      Curve& c = centred[a * (kMaxAway + 1) + total - a];
      c = curve({a, total - a, false}, 1, Access::Centred);
      pre_[a][total - a] = c[kGrid / 2];
    }
  centred_ = std::move(centred);
}

const Curve* Table::kept_centred(const Score& s, int cube, Access access) const {
  if (centred_.empty() || cube != 1 || access != Access::Centred || s.post_crawford || s.away < 2 ||
      s.opp_away < 2 || s.away > max_away_ || s.opp_away > max_away_)
    return nullptr;
  return &centred_[s.away * (kMaxAway + 1) + s.opp_away];
}

double Table::pre_crawford(int away, int opp_away) const {
  if (away < 1 || opp_away < 1 || away > max_away_ || opp_away > max_away_)
    throw Error("match equity table: scores from 1 to " + std::to_string(max_away_) +
                " points away, not " + std::to_string(away) + " and " + std::to_string(opp_away));
  return pre_[away][opp_away];
}

double Table::post_crawford(int trailer_away) const {
  if (trailer_away < 1 || trailer_away > max_away_)
    throw Error("match equity table: the trailer is 1 to " + std::to_string(max_away_) +
                " points away, not " + std::to_string(trailer_away));
  return post_[trailer_away];
}

double Table::next(int away, int opp_away, bool post_crawford) const {
  if (away <= 0) return 1;
  if (opp_away <= 0) return 0;
  if (post_crawford && (away == 1 || opp_away == 1))
    return away == 1 ? (opp_away == 1 ? 0.5 : Table::post_crawford(opp_away))
                     : 1 - Table::post_crawford(away);
  return pre_crawford(away, opp_away);
}

double Table::win_value(const Score& s, int cube) const {
  const double r1 = 1 - rates_.gammon, r2 = rates_.gammon - rates_.backgammon;
  const double r3 = rates_.backgammon;
  const auto v = [&](int points) { return next(s.away - points, s.opp_away, s.post_crawford); };
  return r1 * v(cube) + r2 * v(2 * cube) + r3 * v(3 * cube);
}

double Table::loss_value(const Score& s, int cube) const {
  const double r1 = 1 - rates_.gammon, r2 = rates_.gammon - rates_.backgammon;
  const double r3 = rates_.backgammon;
  const auto v = [&](int points) { return next(s.away, s.opp_away - points, s.post_crawford); };
  return r1 * v(cube) + r2 * v(2 * cube) + r3 * v(3 * cube);
}

Curve Table::curve(const Score& s, int cube, Access access) const {
  if (const Curve* kept = kept_centred(s, cube, access)) return *kept;
  const double win = win_value(s, cube), loss = loss_value(s, cube);
  Curve line{};
  for (int i = 0; i <= kGrid; ++i) line[i] = loss + (win - loss) * p_of(i);
  // The Crawford game has no cube.
  if (!s.post_crawford && (s.away == 1 || s.opp_away == 1)) return line;
  // A cube at least what a player needs is dead for him: a single win already ends the match.
  const bool i_may_double = access != Access::Theirs && cube < s.away;
  const bool they_may_double = access != Access::Mine && cube < s.opp_away;
  Curve lo{}, hi{};
  lo.fill(-kInf);
  hi.fill(kInf);
  if (i_may_double) {
    // I double to 2 cube: he takes (and owns the cube) or drops, whichever is better for him.
    const Curve taken = curve(s, 2 * cube, Access::Theirs);
    const double dropped = next(s.away - cube, s.opp_away, s.post_crawford);
    for (int i = 1; i < kGrid; ++i) lo[i] = std::min(taken[i], dropped);
  }
  if (they_may_double) {
    const Curve taken = curve(s, 2 * cube, Access::Mine);
    const double dropped = next(s.away, s.opp_away - cube, s.post_crawford);
    for (int i = 1; i < kGrid; ++i) hi[i] = std::max(taken[i], dropped);
  }
  if (!i_may_double && !they_may_double) return line;
  lo[0] = hi[0] = loss;
  lo[kGrid] = hi[kGrid] = win;
  if (!they_may_double) return envelope(lo, true);
  if (!i_may_double) return envelope(hi, false);
  return both_may_double(loss, win, lo, hi);
}

std::optional<Score> score_of(const backgammon::State& s) {
  const int n = s.rules().match;
  const Player me = s.on_roll();
  const int mine = n - s.score(me), theirs = n - s.score(opponent(me));
  if (n == 0 || mine > kMaxAway || theirs > kMaxAway) return {};
  // Without the Crawford rule every game at 1 away is played with the cube.
  const bool post = !s.rules().crawford || (!s.crawford_game() && (mine == 1 || theirs == 1));
  return Score{mine, theirs, post};
}

const Table& table() {
  static const Table shipped;
  return shipped;
}

}  // namespace naqala::bgmet
