#pragma once
// naqala's own match equity table, and the cubeful match-winning chances of the continuous
// game model it comes from (docs/games/backgammon.md, "Match equity table").
//
// The model (Keeler and Spencer 1975 for money, Zadeh 1977 for matches): a game's winning
// chance p moves continuously from its start at 1/2 to 0 or 1, with no jumps, so the cube is
// fully live; a game won is a gammon or a backgammon at fixed rates (our net's, below). The
// match-winning chance (MWC) of a cube state is then a function of p that is linear wherever
// nobody turns the cube, and the optimal doubles and takes follow from the values one level
// up. Solved on a grid of p, level by level from the highest useful cube down, and score by
// score from the end of the match back: no published table is read.
#include <array>
#include <optional>
#include <vector>

#include "eval/backgammon_cube.h"

namespace naqala::bgmet {

// How won games end: the share that are gammons or better, and backgammons.
struct GameRates {
  double gammon = 0;
  double backgammon = 0;
};

// The shipped net's rates: its cubeless chances for a player on roll in the starting position
// (1 ply), both sides' gammons (and backgammons) over all games: 0.1390 + 0.1183 and
// 0.0057 + 0.0046. tests/eval/backgammon_met_test.cpp recomputes them from the net.
constexpr GameRates kNetRates{0.2573, 0.0103};

// Scores up to this many points away are in the table; longer matches use money decisions.
constexpr int kMaxAway = 25;

// Points of the grid of p, 0..kGrid.
constexpr int kGrid = 200;
using Curve = std::array<double, kGrid + 1>;

// A match score from one player's side: the points each player still needs, and whether the
// Crawford game has been played (then a player 1 away can be doubled).
struct Score {
  int away = 1;
  int opp_away = 1;
  bool post_crawford = false;
};

class Table {
 public:
  // The scores up to `max_away` (at most kMaxAway) points away.
  explicit Table(GameRates rates = kNetRates, int max_away = kMaxAway);
  GameRates rates() const { return rates_; }
  int max_away() const { return max_away_; }

  // MWC of the player `away` points from the match against one `opp_away` away, at the start
  // of a game before the Crawford game (1 away: this is the Crawford game, cubeless), both at
  // most max_away().
  double pre_crawford(int away, int opp_away) const;
  // MWC of the leader (1 away) after the Crawford game, the trailer `trailer_away` away.
  double post_crawford(int trailer_away) const;
  // MWC at the start of the next game with these points still needed (0 or less: the match is
  // over), before or after the Crawford game as `post_crawford` says.
  double next(int away, int opp_away, bool post_crawford) const;

  // The MWC, at grid point i (p = i / kGrid), of the player of `score` playing a game for
  // `cube` with the cube where `access` says, both sides turning it optimally.
  Curve curve(const Score& score, int cube, bgcube::Access access) const;
  // Its MWC when he wins the game (gammons at the table's rates) or loses it, at `cube`.
  double win_value(const Score& score, int cube) const;
  double loss_value(const Score& score, int cube) const;

 private:
  GameRates rates_;
  int max_away_;
  std::array<double, 2 * kMaxAway + 1> post_{};  // post_[n]: leader's MWC, trailer n away
  std::array<std::array<double, kMaxAway + 1>, kMaxAway + 1> pre_{};
  // The curves of a centred cube of 1 before the Crawford game, kept from the table's
  // construction: the one a cube decision needs most often, and the dearest to solve.
  std::vector<Curve> centred_;
  const Curve* kept_centred(const Score& score, int cube, bgcube::Access access) const;
};

// The score of a match state for the player on roll, when the table covers it (a match,
// both players at most kMaxAway away).
std::optional<Score> score_of(const backgammon::State& s);

// The table of the shipped rates, computed on first use (well under a second).
const Table& table();

// Linear interpolation of a curve at p in [0, 1].
double at(const Curve& c, double p);

}  // namespace naqala::bgmet
