// Tournaments without engines: pairings (properties over many random Swiss tournaments),
// standings with each format's scoring, and the knockout tie rules.
#include "play/tournament.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "core/error.h"
#include "games/registry.h"
#include "play/match_rules.h"
#include "play/pairing.h"
#include "play/standings.h"

namespace naqala::play {
namespace {

// Random results: South's points from a seeded generator, strength by seed (a lower seed
// wins more often), draws now and then.
PlayGame random_games(std::uint32_t seed) {
  auto rng = std::make_shared<std::mt19937>(seed);
  return [rng](const GameSlot& s) {
    std::uniform_int_distribution<int> d(0, 9);
    const int roll = d(*rng);
    if (roll < 2) return 0.5;
    const bool south_stronger = s.south < s.north;
    return (roll < 7) == south_stronger ? 1.0 : 0.0;
  };
}

TEST(RoundRobin, EveryPairMeetsOnceWithBalancedColours) {
  for (int n = 2; n <= 11; ++n) {
    const auto rounds = round_robin(n, 1);
    std::set<std::pair<int, int>> met;
    std::vector<int> balance(n, 0), rests(n, 0);
    for (const auto& round : rounds) {
      std::set<int> seen;
      for (const auto& [a, b] : round) {
        EXPECT_TRUE(seen.insert(a).second) << "n=" << n;
        if (b == kBye) {
          ++rests[a];
          continue;
        }
        EXPECT_TRUE(seen.insert(b).second);
        EXPECT_TRUE(met.insert({std::min(a, b), std::max(a, b)}).second) << n << ": repeat";
        ++balance[a];
        --balance[b];
      }
    }
    EXPECT_EQ(static_cast<int>(met.size()), n * (n - 1) / 2) << n;
    for (int p = 0; p < n; ++p) {
      EXPECT_LE(std::abs(balance[p]), 1) << "n=" << n << " player " << p;
      EXPECT_EQ(rests[p], n % 2) << n;
    }
  }
  // A double round robin gives each pair one game with each colour.
  std::map<std::pair<int, int>, int> twice;
  for (const auto& round : round_robin(4, 2))
    for (const auto& [a, b] : round) ++twice[{a, b}];
  for (const auto& [pair, count] : twice) EXPECT_EQ(count, 1);
  EXPECT_EQ(twice.size(), 12u);
}

TEST(Swiss, NoRepeatsBalancedColoursAndFairByesOverManyTournaments) {
  int tournaments = 0;
  for (int n = 2; n <= 14; ++n) {
    for (std::uint32_t seed = 1; seed <= 40; ++seed) {
      TournamentSettings s;
      s.format = Format::Swiss;
      s.players = n;
      s.rounds = std::min(n - 1 + n % 2, 2 + static_cast<int>(seed % 5));
      const auto r = run_tournament(s, random_games(seed * 31 + n));
      ++tournaments;
      std::set<std::pair<int, int>> met;
      std::vector<int> balance(n, 0), byes(n, 0);
      for (const auto& round : r.rounds) {
        std::set<int> seen;
        int round_byes = 0;
        for (const auto& [a, b] : round) {
          ASSERT_TRUE(seen.insert(a).second);
          if (b == kBye) {
            ++byes[a];
            ++round_byes;
            continue;
          }
          ASSERT_TRUE(seen.insert(b).second);
          EXPECT_TRUE(met.insert({std::min(a, b), std::max(a, b)}).second)
              << "n=" << n << " seed=" << seed << ": " << a << " and " << b << " met twice";
          ++balance[a];
          --balance[b];
        }
        EXPECT_EQ(static_cast<int>(seen.size()), n);  // everyone paired or given the bye
        EXPECT_EQ(round_byes, n % 2);
      }
      for (int p = 0; p < n; ++p) {
        EXPECT_LE(std::abs(balance[p]), 2) << "n=" << n << " seed=" << seed << " player " << p;
        // Fair byes: nobody gets a second before everyone has had one.
        EXPECT_LE(byes[p], 1) << "n=" << n << " seed=" << seed;
      }
    }
  }
  EXPECT_GT(tournaments, 500);
}

TEST(Swiss, TheByeGoesToTheLowestRankedWithoutOne) {
  std::vector<SwissPlayer> p(5);
  p[0].points = 2;
  p[1].points = 1.5;
  p[2].points = 1;
  p[3].points = 0.5;
  p[4].points = 0;
  p[4].had_bye = true;
  const auto round = swiss_round(p);
  int bye = -2;
  for (const auto& [a, b] : round)
    if (b == kBye) bye = a;
  EXPECT_EQ(bye, 3);
}

TEST(Swiss, TopHalfAgainstBottomHalfInAScoreGroup) {
  std::vector<SwissPlayer> p(4);  // all level: 0 v 2, 1 v 3
  const auto round = swiss_round(p);
  ASSERT_EQ(round.size(), 2u);
  std::set<std::pair<int, int>> pairs;
  for (const auto& [a, b] : round) pairs.insert({std::min(a, b), std::max(a, b)});
  EXPECT_EQ(pairs, (std::set<std::pair<int, int>>{{0, 2}, {1, 3}}));
}

TEST(Swiss, TooManyRoundsIsAClearError) {
  TournamentSettings s;
  s.format = Format::Swiss;
  s.players = 4;
  s.rounds = 4;
  try {
    run_tournament(s, random_games(1));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("at most 3 rounds"), std::string::npos) << e.what();
  }
}

TEST(Standings, PointsTieBreaksAndCrosstable) {
  // Three players, single round robin: 0 beats 1, 1 beats 2, 2 beats 0: all on 1 point; then
  // 0 draws... Build by hand: four players instead.
  std::vector<PlayedGame> games = {
      {1, 1, 1, 0, 1, 1.0},  // 0 beats 1
      {1, 2, 1, 2, 3, 0.5},  // 2 draws 3
      {2, 1, 1, 0, 2, 0.0},  // 2 beats 0
      {2, 2, 1, 1, 3, 1.0},  // 1 beats 3
      {3, 1, 1, 3, 0, 0.0},  // 0 beats 3
      {3, 2, 1, 1, 2, 0.5},  // 1 draws 2
  };
  const Standings s = compute_standings(4, games, {}, 0.5);
  // Points: 0: 2, 1: 1.5, 2: 2, 3: 0.5.
  ASSERT_EQ(s.rows.size(), 4u);
  EXPECT_EQ(s.rows[0].points, 2);
  EXPECT_EQ(s.rows[1].points, 2);
  // Sonneborn-Berger: 0 beat 1 (1.5) and 3 (0.5): 2; 2 beat 0 (2), drew 1 (0.75), drew 3
  // (0.25): 3. Player 2 is first.
  EXPECT_EQ(s.rows[0].player, 2);
  EXPECT_DOUBLE_EQ(s.rows[0].sonneborn_berger, 3);
  EXPECT_EQ(s.rows[1].player, 0);
  EXPECT_DOUBLE_EQ(s.rows[1].sonneborn_berger, 2);
  EXPECT_DOUBLE_EQ(s.rows[1].buchholz, 1.5 + 2 + 0.5);
  EXPECT_EQ(s.rows[3].player, 3);
  EXPECT_EQ(s.cross[0][1], 1);
  EXPECT_EQ(s.cross[1][0], 0);
  EXPECT_EQ(s.cross[2][3], 0.5);
  EXPECT_GT(s.rows[0].elo, s.rows[3].elo);
  EXPECT_GT(s.rows[0].elo_margin, 0);
}

TEST(Standings, DirectEncounterBreaksWhatTheOthersLeaveTied) {
  // Two players, two games: one win each would tie everything; a single win decides.
  const Standings s = compute_standings(2, {{1, 1, 1, 1, 0, 1.0}}, {}, 0.5);
  EXPECT_EQ(s.rows[0].player, 1);
  // A full tie (one win each): the direct encounter is equal too, then the seed.
  const Standings t = compute_standings(2, {{1, 1, 1, 1, 0, 1.0}, {1, 1, 2, 0, 1, 1.0}}, {}, 0.5);
  EXPECT_EQ(t.rows[0].player, 0);
  EXPECT_EQ(t.rows[0].direct, 1);
}

TEST(Standings, EloEstimatesStayFiniteForASweep) {
  std::vector<double> elo, margin;
  elo_estimates(2, {{1, 1, 1, 0, 1, 1.0}, {1, 1, 2, 1, 0, 0.0}}, elo, margin);
  EXPECT_GT(elo[0], 50);
  EXPECT_LT(elo[0], 1000);
  EXPECT_NEAR(elo[0], -elo[1], 1e-6);
  EXPECT_GT(margin[0], 100);
}

TEST(RoundRobinTournament, ScoresAGameOnePointAndADrawHalf) {
  TournamentSettings s;
  s.format = Format::RoundRobin;
  s.players = 3;
  s.rounds = 2;
  s.games_per_pairing = 2;
  const auto r = run_tournament(s, [](const GameSlot&) { return 0.5; });  // all drawn
  EXPECT_EQ(r.games.size(), 3u * 2 * 2);
  for (const auto& row : r.standings.rows) EXPECT_EQ(row.points, 4);  // 8 games, half each
  EXPECT_EQ(r.byes.size(), 6u);                                       // a rest each round
  for (const auto& b : r.byes) EXPECT_EQ(b.points, 0);
}

TournamentSettings knockout(const std::string& variant, int players, int best_of) {
  TournamentSettings s;
  s.format = Format::Knockout;
  s.players = players;
  s.games_per_pairing = best_of;
  s.rules = match_rules(make_game(variant)->info());
  return s;
}

TEST(Knockout, TheBracketKeepsTheTopSeedsApartAndGivesThemTheByes) {
  const auto first = knockout_first_round(6);
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[0].first, 0);
  EXPECT_EQ(first[0].second, kBye);  // seed 1 against the empty 8th place
  int byes = 0;
  for (const auto& p : first) byes += p.second == kBye;
  EXPECT_EQ(byes, 2);
  // The lower seed always wins: seed 1 champion, after 3 rounds.
  const auto r = run_tournament(knockout("kalah", 6, 1),
                                [](const GameSlot& s) { return s.south < s.north ? 1.0 : 0.0; });
  EXPECT_EQ(r.champion, 0);
  EXPECT_EQ(r.rounds.size(), 3u);
  EXPECT_EQ(r.standings.rows[0].player, 0);
  EXPECT_EQ(r.standings.rows[1].player, 1);  // seed 2 reached the final
}

TEST(Knockout, OwareDrawnGamesCountAsAWinForEachInAMatch) {
  // Best of 3: both games drawn count 1-1 each, 2-2, then game 3 decides; in the standings
  // each drawn game is a point to each.
  auto r = run_tournament(knockout("oware", 2, 3), [](const GameSlot& s) {
    if (s.game <= 2) return 0.5;
    return s.south == 1 ? 1.0 : 0.0;  // seed 2 wins the third game
  });
  EXPECT_EQ(r.games.size(), 3u);
  EXPECT_EQ(r.champion, 1);
  EXPECT_EQ(r.draw_points, 1.0);
  EXPECT_EQ(r.standings.rows[0].player, 1);
  EXPECT_EQ(r.standings.rows[0].points, 3);
  EXPECT_EQ(r.standings.rows[1].points, 2);
  // Kalah's matches score a draw half a point: drawn games 1 and 2 leave it 1-1.
  auto k = run_tournament(knockout("kalah", 2, 3), [](const GameSlot& s) {
    if (s.game <= 2) return 0.5;
    return s.south == 1 ? 1.0 : 0.0;
  });
  EXPECT_EQ(k.standings.rows[0].points, 2);
}

TEST(Knockout, AToguzTieIsDecidedByAllResultsSoFar) {
  // Four players, best of 3, a draw half a point. Round 1: seed 1 beats seed 4 2.5-0.5
  // (win, draw, win); seed 2 beats seed 3 2-1 (draw, win, draw). The final's three games are
  // drawn, 1.5-1.5; extra games would go to seed 2.
  auto play = [](const GameSlot& s) -> double {
    if (s.round == 1 && s.pairing == 1) return s.game == 2 ? 0.5 : (s.south == 0 ? 1.0 : 0.0);
    if (s.round == 1) return s.game == 2 ? (s.south == 1 ? 1.0 : 0.0) : 0.5;
    if (s.game <= 3) return 0.5;
    return s.south == 1 ? 1.0 : 0.0;  // seed 2 wins every extra game
  };
  // Toguz (S0:37): all results so far, 4 to 3.5: seed 1.
  const auto toguz = run_tournament(knockout("toguz", 4, 3), play);
  ASSERT_EQ(toguz.notes.size(), 1u);
  EXPECT_NE(toguz.notes[0].find("decided by all results so far, 4 to 3.5"), std::string::npos)
      << toguz.notes[0];
  EXPECT_EQ(toguz.champion, 0);
  EXPECT_EQ(toguz.games.size(), 9u);
  // Kalah (no such rule): more games; the first decisive one, game 4, goes to seed 2.
  const auto kalah = run_tournament(knockout("kalah", 4, 3), play);
  ASSERT_EQ(kalah.notes.size(), 1u);
  EXPECT_NE(kalah.notes[0].find("decided by game 4"), std::string::npos) << kalah.notes[0];
  EXPECT_EQ(kalah.champion, 1);
}

TEST(Knockout, AToguzTieLevelOnAllResultsGoesToMoreGames) {
  // Two players only: nothing before the tied match, so all results are level.
  TournamentSettings s = knockout("toguz", 2, 1);
  auto r = run_tournament(s, [](const GameSlot& slot) -> double {
    if (slot.game == 1) return 0.5;
    return slot.south == 1 ? 1.0 : 0.0;
  });
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("all results so far equal too"), std::string::npos) << r.notes[0];
  EXPECT_EQ(r.champion, 1);
}

TEST(Settings, DefaultsAndErrors) {
  TournamentSettings s;
  s.format = Format::Swiss;
  s.players = 9;
  EXPECT_EQ(resolve(s).rounds, 4);
  EXPECT_EQ(resolve(knockout("oware", 4, 0)).games_per_pairing, 3);  // the rules' best of 3
  EXPECT_EQ(resolve(knockout("mangala", 4, 0)).games_per_pairing, 5);
  EXPECT_EQ(resolve(knockout("kalah", 4, 0)).games_per_pairing, 1);
  EXPECT_THROW(resolve(knockout("kalah", 4, 2)), Error);
  s.players = 1;
  EXPECT_THROW(resolve(s), Error);
  EXPECT_THROW(parse_format("league"), Error);
}

// A game's result as a function of its slot alone, so that playing the games in any order
// gives the same tournament: draws now and then, the lower seed winning more often.
double slot_result(const GameSlot& s) {
  const unsigned h = static_cast<unsigned>(s.round * 7919 + s.pairing * 104729 + s.game * 31 +
                                           s.south * 17 + s.north * 13) %
                     10;
  if (h < 2) return 0.5;
  return (h < 7) == (s.south < s.north) ? 1.0 : 0.0;
}

// The server plays a tournament through tournament_progress: the ready games, then again.
TournamentResult played_over_time(const TournamentSettings& s, int& steps) {
  std::map<std::tuple<int, int, int>, double> known;
  steps = 0;
  while (true) {
    const auto p = tournament_progress(s, [&](const GameSlot& g) -> std::optional<double> {
      auto it = known.find({g.round, g.pairing, g.game});
      if (it == known.end()) return std::nullopt;
      return it->second;
    });
    if (p.over) {
      EXPECT_TRUE(p.ready.empty());
      return p.result;
    }
    EXPECT_FALSE(p.ready.empty());
    std::set<int> pairings;
    for (const auto& g : p.ready) {
      // Only the round under way, one game per pairing.
      EXPECT_EQ(g.round, static_cast<int>(p.result.rounds.size()));
      EXPECT_TRUE(pairings.insert(g.pairing).second);
      known[{g.round, g.pairing, g.game}] = slot_result(g);
    }
    if (++steps > 1000) {
      ADD_FAILURE() << "no end";
      return p.result;
    }
  }
}

TEST(Progress, PlayedOverTimeItIsTheSameTournament) {
  std::vector<TournamentSettings> all;
  for (int n : {2, 3, 4, 5, 7, 8}) {
    TournamentSettings rr;
    rr.players = n;
    rr.rounds = 2;
    rr.games_per_pairing = 2;
    all.push_back(rr);
    TournamentSettings swiss;
    swiss.format = Format::Swiss;
    swiss.players = n;
    all.push_back(swiss);
    for (const char* v : {"kalah", "oware", "toguz"}) all.push_back(knockout(v, n, 3));
  }
  for (const auto& s : all) {
    const auto whole = run_tournament(s, slot_result);
    int steps = 0;
    const auto over_time = played_over_time(s, steps);
    const std::string what = std::string(to_string(s.format)) + " of " + std::to_string(s.players);
    EXPECT_EQ(over_time.games.size(), whole.games.size()) << what;
    EXPECT_EQ(over_time.rounds.size(), whole.rounds.size()) << what;
    EXPECT_EQ(over_time.champion, whole.champion) << what;
    EXPECT_EQ(over_time.notes, whole.notes) << what;
    ASSERT_EQ(over_time.standings.rows.size(), whole.standings.rows.size());
    for (std::size_t i = 0; i < whole.standings.rows.size(); ++i) {
      EXPECT_EQ(over_time.standings.rows[i].player, whole.standings.rows[i].player) << what;
      EXPECT_EQ(over_time.standings.rows[i].points, whole.standings.rows[i].points) << what;
    }
    // Each step plays at least a game: never more steps than games.
    EXPECT_LE(steps, static_cast<int>(whole.games.size())) << what;
  }
}

}  // namespace
}  // namespace naqala::play
