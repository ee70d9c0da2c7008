#pragma once
// Scoring a match of best of N games (docs/tournaments.md): a win is a point, a drawn game
// half a point each or, where the rules say so (Oware), a win for each. The match is over
// once a player has a majority of N and leads, or after N games.
#include <optional>

#include "play/match_rules.h"

namespace naqala::play {

// Best of 1, 3, 5, 7 or 9: the formats the server and tournaments play.
bool valid_best_of(int n);

struct MatchScore {
  int best_of = 1;
  MatchDraw draw = MatchDraw::Half;
  double points_a = 0, points_b = 0;  // the two players, whatever colours they had
  int games = 0;                      // games scored so far
  bool over = false;
};

// Scores one more finished game: `winner` is 0 for player a, 1 for b, nullopt for a draw.
void score_game(MatchScore& match, std::optional<int> winner);

// The leader of a finished match: 0 (a), 1 (b), or nullopt when tied.
std::optional<int> match_winner(const MatchScore& match);

}  // namespace naqala::play
