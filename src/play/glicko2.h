#pragma once
// Glicko-2 ratings (Mark Glickman's system; docs/tournaments.md): a rating, its deviation
// (RD, one standard deviation) and a volatility per player, updated once per rating period
// from that period's games.
#include <vector>

namespace naqala::play {

struct Glicko2Rating {
  double rating = 1500;
  double deviation = 350;  // RD: an unrated player's
  double volatility = 0.06;
};

struct Glicko2Game {
  Glicko2Rating opponent;  // the opponent's rating before the period
  double score = 0;        // 1 win, 0.5 draw, 0 loss
};

// The rating after a period with these games; with none, only the deviation grows (the
// player's strength is less certain after a period without games), capped at 350.
// `tau` limits how fast the volatility changes (Glickman suggests 0.3 to 1.2).
Glicko2Rating glicko2_update(const Glicko2Rating& player, const std::vector<Glicko2Game>& games,
                             double tau = 0.5);

}  // namespace naqala::play
