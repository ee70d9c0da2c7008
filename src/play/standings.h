#pragma once
// Tournament standings (docs/tournaments.md): points, the tie-breaks (Sonneborn-Berger,
// Buchholz, direct encounter, then the seed), the crosstable and Elo estimates with margins.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace naqala::play {

// One finished game of a tournament.
struct PlayedGame {
  int round = 0;             // 1-based
  int pairing = 0;           // 1-based, within the round
  int game = 0;              // 1-based, within the pairing
  int south = 0, north = 0;  // players by seed
  double south_points = 0;   // the game's result: 1, 0.5 or 0
};

// A round sat out: `points` for it (a Swiss bye scores as a won pairing; a round robin's rest
// nothing). Byes count for no tie-break.
struct Bye {
  int round = 0;
  int player = 0;
  double points = 0;
};

struct StandingRow {
  int player = 0;  // seed
  double points = 0;
  int games = 0, wins = 0, draws = 0, losses = 0;
  double sonneborn_berger = 0, buchholz = 0, direct = 0;
  int stage = 0;  // knockout: the last round reached (the champion one more); else 0
  double elo = 0, elo_margin = 0;
};

struct Standings {
  std::vector<StandingRow> rows;           // in rank order
  std::vector<std::vector<double>> cross;  // [a][b]: a's points against b, by seed
};

// `draw_points`: what a drawn game is worth to each player (0.5; 1 in an Oware match).
// `stage` (knockout): the last round each player reached, by seed; ranks before the points.
Standings compute_standings(int players, const std::vector<PlayedGame>& games,
                            const std::vector<Bye>& byes, double draw_points,
                            const std::vector<int>& stage = {});

// A row as `naqala tournament --json` and the server show it: rank (from 1), seed (from 1),
// points, games, wins, draws, losses, sonneborn_berger, buchholz, direct_encounter, elo,
// elo_margin, and stage when `knockout`.
nlohmann::json to_json(const StandingRow& row, int rank, bool knockout);

// Elo estimates of every player from all the games (a Bradley-Terry fit, each player also
// given one virtual draw against the field's average so that a clean sweep stays finite;
// the average is 0), with 95% margins.
void elo_estimates(int players, const std::vector<PlayedGame>& games, std::vector<double>& elo,
                   std::vector<double>& margin);

}  // namespace naqala::play
