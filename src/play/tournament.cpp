#include "play/tournament.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "play/match_scoring.h"

namespace naqala::play {

Format parse_format(const std::string& text) {
  if (text == "roundrobin") return Format::RoundRobin;
  if (text == "swiss") return Format::Swiss;
  if (text == "knockout") return Format::Knockout;
  throw Error("--format " + text + " is not a format; formats: roundrobin, swiss, knockout");
}

const char* to_string(Format f) {
  return f == Format::RoundRobin ? "roundrobin" : f == Format::Swiss ? "swiss" : "knockout";
}

TournamentSettings resolve(TournamentSettings s) {
  const int n = s.players;
  if (n < 2)
    throw Error("a tournament needs at least two players (--engine twice); got " +
                std::to_string(n));
  if (s.rounds < 0 || s.games_per_pairing < 0)
    throw Error("--rounds and --games-per-pairing must be positive");
  switch (s.format) {
    case Format::RoundRobin:
      if (!s.rounds) s.rounds = 1;
      if (s.rounds > 10)
        throw Error("--rounds " + std::to_string(s.rounds) +
                    ": a round robin is played 1 (single) to 10 times; 2 is a double round robin");
      if (!s.games_per_pairing) s.games_per_pairing = 1;
      break;
    case Format::Swiss: {
      const int most = n - 1 + n % 2;  // every player meets every other at most once
      if (!s.rounds) s.rounds = std::min(most, static_cast<int>(std::ceil(std::log2(n))));
      if (s.rounds > most)
        throw Error("--rounds " + std::to_string(s.rounds) + ": a Swiss of " + std::to_string(n) +
                    " players has at most " + std::to_string(most) +
                    " rounds without a repeated pairing");
      if (!s.games_per_pairing) s.games_per_pairing = 1;
      break;
    }
    case Format::Knockout:
      if (s.rounds)
        throw Error("--rounds does not apply to a knockout: its rounds follow from the players");
      if (!s.games_per_pairing)
        s.games_per_pairing = s.rules.best_of.empty() ? 1 : s.rules.best_of.front();
      if (s.games_per_pairing % 2 == 0)
        throw Error("--games-per-pairing " + std::to_string(s.games_per_pairing) +
                    ": a knockout match is best of an odd number of games");
      break;
  }
  if (s.games_per_pairing > 99) throw Error("--games-per-pairing must be from 1 to 99");
  return s;
}

namespace {

class Runner {
 public:
  Runner(const TournamentSettings& s, const KnownResult& known) : known_(known) {
    r_.settings = s;
    // A knockout match scores a drawn game as the rules say (Oware: a win for each).
    r_.draw_points =
        s.format == Format::Knockout && s.rules.match_draw == MatchDraw::BothWin ? 1.0 : 0.5;
  }

  // Plays until the end, or to the end of the first round with a game whose result is not
  // known yet (the later rounds depend on it).
  TournamentProgress run() {
    switch (r_.settings.format) {
      case Format::RoundRobin:
        for (const auto& round : round_robin(players(), r_.settings.rounds)) {
          play_round(round);
          if (!ready_.empty()) break;
        }
        break;
      case Format::Swiss:
        for (int i = 0; i < r_.settings.rounds && ready_.empty(); ++i)
          play_round(swiss_round(swiss_players(), r_.settings.rounds - i - 1));
        break;
      case Format::Knockout:
        knockout();
        break;
    }
    r_.standings = compute_standings(players(), r_.games, r_.byes, r_.draw_points, stage_);
    TournamentProgress p;
    p.over = ready_.empty();
    p.ready = std::move(ready_);
    p.result = std::move(r_);
    return p;
  }

 private:
  int players() const { return r_.settings.players; }
  int round_number() const { return static_cast<int>(r_.rounds.size()); }

  // South's points, or nullopt (the game is ready to be played) when its result is not known;
  // player a is South in odd games of the pairing.
  std::optional<double> play_game(int pairing, int game, int a, int b) {
    GameSlot slot{round_number(), pairing, game, game % 2 == 1 ? a : b, game % 2 == 1 ? b : a};
    const auto south = known_(slot);
    if (!south) {
      ready_.push_back(slot);
      return std::nullopt;
    }
    r_.games.push_back({slot.round, pairing, game, slot.south, slot.north, *south});
    return south;
  }
  // a's points in that game, as the game result (1, 0.5, 0).
  std::optional<double> play_for(int pairing, int game, int a, int b) {
    const auto south = play_game(pairing, game, a, b);
    if (!south) return std::nullopt;
    return game % 2 == 1 ? *south : 1 - *south;
  }

  void play_round(const std::vector<Pairing>& round) {
    r_.rounds.push_back(round);
    const bool swiss = r_.settings.format == Format::Swiss;
    for (std::size_t i = 0; i < round.size(); ++i) {
      const auto [a, b] = round[i];
      if (b == kBye) {
        // A Swiss bye scores as a pairing won; a round robin's rest scores nothing.
        r_.byes.push_back({round_number(), a, swiss ? 1.0 * r_.settings.games_per_pairing : 0.0});
        continue;
      }
      // The games of a pairing one after the other.
      for (int g = 1; g <= r_.settings.games_per_pairing; ++g)
        if (!play_game(static_cast<int>(i) + 1, g, a, b)) break;
    }
  }

  std::vector<SwissPlayer> swiss_players() const {
    std::vector<SwissPlayer> p(players());
    for (const auto& g : r_.games) {
      p[g.south].points += g.south_points;
      p[g.north].points += 1 - g.south_points;
    }
    for (const auto& b : r_.byes) {
      p[b.player].points += b.points;
      p[b.player].had_bye = true;
    }
    const bool odd = r_.settings.games_per_pairing % 2 == 1;
    for (const auto& round : r_.rounds)
      for (const auto& [a, b] : round) {
        if (b == kBye) continue;
        p[a].opponents.push_back(b);
        p[b].opponents.push_back(a);
        // An even number of games balances the colours inside the pairing.
        if (odd) ++p[a].colour_balance, --p[b].colour_balance;
        p[a].last_colour = 1;
        p[b].last_colour = -1;
      }
    return p;
  }

  double total_points(int player) const {
    double t = 0;
    for (const auto& g : r_.games) {
      const double south = g.south_points == 0.5 ? r_.draw_points : g.south_points;
      const double north = g.south_points == 0.5 ? r_.draw_points : 1 - g.south_points;
      if (g.south == player) t += south;
      if (g.north == player) t += north;
    }
    return t;
  }

  // One knockout match of best of N between a (the higher seed) and b; returns the winner, or
  // nullopt while a game it needs is not played yet.
  std::optional<int> match(int pairing, int a, int b) {
    const auto& s = r_.settings;
    MatchScore m{s.games_per_pairing, s.rules.match_draw};
    int game = 0;
    while (!m.over) {
      const auto pa = play_for(pairing, ++game, a, b);
      if (!pa) return std::nullopt;
      score_game(m, *pa == 0.5 ? std::nullopt : std::optional<int>(*pa == 1 ? 0 : 1));
    }
    if (auto w = match_winner(m)) return *w == 0 ? a : b;
    std::string note = "round " + std::to_string(round_number()) + ", match " +
                       std::to_string(pairing) + ": seed " + std::to_string(a + 1) + " and seed " +
                       std::to_string(b + 1) + " tied " + points_text(m.points_a) + "-" +
                       points_text(m.points_b) + "; ";
    if (s.rules.knockout_tie == KnockoutTie::AllResults) {
      // Toguz (S0:37): the two players' results in the whole tournament so far.
      const double ta = total_points(a), tb = total_points(b);
      if (ta != tb) {
        r_.notes.push_back(note + "decided by all results so far, " + points_text(ta) + " to " +
                           points_text(tb));
        return ta > tb ? a : b;
      }
      note += "all results so far equal too (" + points_text(ta) + "); ";
    }
    // More games, colours alternating, until one is won (at most 2 N + 2 more).
    for (int extra = 0; extra < 2 * s.games_per_pairing + 2; ++extra) {
      const auto pa = play_for(pairing, ++game, a, b);
      if (!pa) return std::nullopt;
      if (*pa != 0.5) {
        r_.notes.push_back(note + "decided by game " + std::to_string(game));
        return *pa == 1 ? a : b;
      }
    }
    r_.notes.push_back(note + "every extra game drawn: the higher seed goes through");
    return a;
  }

  static std::string points_text(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", p);
    return buf;
  }

  void knockout() {
    stage_.assign(players(), 0);
    std::vector<Pairing> round = knockout_first_round(players());
    while (true) {
      r_.rounds.push_back(round);
      std::vector<int> winners;
      for (std::size_t i = 0; i < round.size(); ++i) {
        const auto [a, b] = round[i];
        stage_[a] = round_number();
        if (b == kBye) {
          r_.byes.push_back({round_number(), a, 0.0});
          winners.push_back(a);
          continue;
        }
        stage_[b] = round_number();
        if (auto w = match(static_cast<int>(i) + 1, std::min(a, b), std::max(a, b)))
          winners.push_back(*w);
      }
      if (!ready_.empty()) return;  // the next round waits for this one's matches
      if (winners.size() == 1) {
        r_.champion = winners[0];
        stage_[winners[0]] = round_number() + 1;
        return;
      }
      round.clear();
      for (std::size_t i = 0; i + 1 < winners.size(); i += 2) {
        // The higher seed plays South first.
        const int a = std::min(winners[i], winners[i + 1]);
        round.push_back({a, a == winners[i] ? winners[i + 1] : winners[i]});
      }
    }
  }

  const KnownResult& known_;
  TournamentResult r_;
  std::vector<GameSlot> ready_;
  std::vector<int> stage_;
};

}  // namespace

TournamentResult run_tournament(const TournamentSettings& settings, const PlayGame& play) {
  const KnownResult every_game = [&](const GameSlot& slot) -> std::optional<double> {
    return play(slot);
  };
  return Runner(resolve(settings), every_game).run().result;
}

TournamentProgress tournament_progress(const TournamentSettings& settings,
                                       const KnownResult& known) {
  return Runner(resolve(settings), known).run();
}

}  // namespace naqala::play
