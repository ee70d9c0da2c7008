#include "play/standings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace naqala::play {

void elo_estimates(int n, const std::vector<PlayedGame>& games, std::vector<double>& elo,
                   std::vector<double>& margin) {
  constexpr double k = 0.0057564627324851142;  // ln(10) / 400
  elo.assign(n, 0.0);
  margin.assign(n, 0.0);
  auto expected = [](double a, double b) { return 1.0 / (1.0 + std::pow(10.0, (b - a) / 400)); };
  // Newton steps player by player (the log-likelihood is concave: this converges).
  for (int iteration = 0; iteration < 500; ++iteration) {
    double largest = 0;
    for (int i = 0; i < n; ++i) {
      double gradient = 0.5 - expected(elo[i], 0), curvature = 0;
      {
        const double e = expected(elo[i], 0);
        curvature += e * (1 - e);
      }
      for (const auto& g : games) {
        if (g.south != i && g.north != i) continue;
        const bool south = g.south == i;
        const double score = south ? g.south_points : 1 - g.south_points;
        const double e = expected(elo[i], elo[south ? g.north : g.south]);
        gradient += score - e;
        curvature += e * (1 - e);
      }
      const double step = gradient / (k * curvature);
      elo[i] += std::clamp(step, -400.0, 400.0);
      largest = std::max(largest, std::abs(step));
    }
    if (largest < 1e-6) break;
  }
  const double mean = n ? std::accumulate(elo.begin(), elo.end(), 0.0) / n : 0;
  for (int i = 0; i < n; ++i) {
    double information = 0;
    for (const auto& g : games) {
      if (g.south != i && g.north != i) continue;
      const double e = expected(elo[i], elo[g.south == i ? g.north : g.south]);
      information += k * k * e * (1 - e);
    }
    const double e = expected(elo[i], 0);
    information += k * k * e * (1 - e);
    margin[i] = 1.96 / std::sqrt(information);
  }
  for (auto& e : elo) e -= mean;
}

Standings compute_standings(int n, const std::vector<PlayedGame>& games,
                            const std::vector<Bye>& byes, double draw_points,
                            const std::vector<int>& stage) {
  Standings s;
  s.cross.assign(n, std::vector<double>(n, 0.0));
  s.rows.resize(n);
  // Each meeting (a round's pairing) once: the tie-breaks weigh meetings, not games.
  std::map<std::pair<int, int>, std::pair<int, int>> meetings;  // (round, pairing) -> players
  for (int i = 0; i < n; ++i) s.rows[i].player = i;
  for (const auto& g : games) {
    const double south = g.south_points == 0.5 ? draw_points : g.south_points;
    const double north = g.south_points == 0.5 ? draw_points : 1 - g.south_points;
    s.cross[g.south][g.north] += south;
    s.cross[g.north][g.south] += north;
    for (int p : {g.south, g.north}) {
      auto& r = s.rows[p];
      ++r.games;
      const double mine = p == g.south ? g.south_points : 1 - g.south_points;
      if (mine == 1)
        ++r.wins;
      else if (mine == 0)
        ++r.losses;
      else
        ++r.draws;
      r.points += p == g.south ? south : north;
    }
    meetings[{g.round, g.pairing}] = {g.south, g.north};
  }
  for (const auto& b : byes) s.rows[b.player].points += b.points;
  for (const auto& [key, players] : meetings) {
    const auto [a, b] = players;
    // The points of this meeting only: the games of round key.first between a and b.
    double a_points = 0, b_points = 0;
    for (const auto& g : games) {
      if (g.round != key.first || g.pairing != key.second) continue;
      const double south = g.south_points == 0.5 ? draw_points : g.south_points;
      const double north = g.south_points == 0.5 ? draw_points : 1 - g.south_points;
      a_points += g.south == a ? south : north;
      b_points += g.south == b ? south : north;
    }
    s.rows[a].buchholz += s.rows[b].points;
    s.rows[b].buchholz += s.rows[a].points;
    s.rows[a].sonneborn_berger += a_points * s.rows[b].points;
    s.rows[b].sonneborn_berger += b_points * s.rows[a].points;
  }
  for (int i = 0; i < n; ++i) s.rows[i].stage = stage.empty() ? 0 : stage[i];
  std::vector<double> elo, margin;
  elo_estimates(n, games, elo, margin);
  for (int i = 0; i < n; ++i) {
    s.rows[i].elo = elo[i];
    s.rows[i].elo_margin = margin[i];
  }

  auto key = [](const StandingRow& r) {
    return std::make_tuple(r.stage, r.points, r.sonneborn_berger, r.buchholz);
  };
  std::stable_sort(s.rows.begin(), s.rows.end(),
                   [&](const StandingRow& a, const StandingRow& b) { return key(a) > key(b); });
  // Direct encounter inside each run still tied: the points scored among the tied players.
  for (std::size_t i = 0; i < s.rows.size();) {
    std::size_t j = i + 1;
    while (j < s.rows.size() && key(s.rows[j]) == key(s.rows[i])) ++j;
    if (j - i > 1) {
      for (std::size_t a = i; a < j; ++a) {
        s.rows[a].direct = 0;
        for (std::size_t b = i; b < j; ++b)
          s.rows[a].direct += s.cross[s.rows[a].player][s.rows[b].player];
      }
      std::stable_sort(s.rows.begin() + i, s.rows.begin() + j,
                       [](const StandingRow& a, const StandingRow& b) {
                         if (a.direct != b.direct) return a.direct > b.direct;
                         return a.player < b.player;
                       });
    }
    i = j;
  }
  return s;
}

nlohmann::json to_json(const StandingRow& row, int rank, bool knockout) {
  nlohmann::json j{{"rank", rank},
                   {"seed", row.player + 1},
                   {"points", row.points},
                   {"games", row.games},
                   {"wins", row.wins},
                   {"draws", row.draws},
                   {"losses", row.losses},
                   {"sonneborn_berger", row.sonneborn_berger},
                   {"buchholz", row.buchholz},
                   {"direct_encounter", row.direct},
                   {"elo", row.elo},
                   {"elo_margin", row.elo_margin}};
  if (knockout) j["stage"] = row.stage;
  return j;
}

}  // namespace naqala::play
