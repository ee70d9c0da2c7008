// naqala tournament VARIANT --format roundrobin|swiss|knockout --engine SPEC --engine SPEC ...
//   [--rounds N] [--games-per-pairing N] [--json] [--out DIR]
// Engine tournaments (docs/tournaments.md): standings with tie-breaks, a crosstable and Elo
// estimates; every game saved as a record under --out, and a rerun with the same --out goes
// on where an interrupted one stopped.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/engine_flags.h"
#include "core/error.h"
#include "core/json_text.h"
#include "play/level_ratings.h"
#include "play/tournament_games.h"

namespace naqala::cli {

namespace {

using nlohmann::json;

json to_json(const play::EngineTournament& t, const play::EngineTournamentResult& r) {
  const auto& tr = r.tournament;
  json standings = json::array();
  int rank = 0;
  for (const auto& row : tr.standings.rows) {
    json j = play::to_json(row, ++rank, tr.settings.format == play::Format::Knockout);
    j["player"] = t.engines[row.player];
    standings.push_back(j);
  }
  json rounds = json::array();
  for (const auto& round : tr.rounds) {
    json pairings = json::array();
    for (const auto& p : round)
      pairings.push_back(
          {{"first", t.engines[p.first]},
           {"second", p.second == play::kBye ? json(nullptr) : json(t.engines[p.second])}});
    rounds.push_back(pairings);
  }
  json games = json::array();
  for (const auto& g : tr.games)
    games.push_back({{"round", g.round},
                     {"pairing", g.pairing},
                     {"game", g.game},
                     {"south", t.engines[g.south]},
                     {"north", t.engines[g.north]},
                     {"result", g.south_points == 1   ? "1-0"
                                : g.south_points == 0 ? "0-1"
                                                      : "1/2-1/2"}});
  json out{{"variant", t.variant},
           {"format", play::to_string(tr.settings.format)},
           {"players", t.engines},
           {"rounds", tr.rounds.size()},
           {"games_per_pairing", tr.settings.games_per_pairing},
           {"draw_points", tr.draw_points},
           {"standings", standings},
           {"games", tr.games.size()},
           {"played_now", r.played_now},
           {"read_back", r.read_back},
           {"crosstable", tr.standings.cross},
           {"pairings", rounds},
           {"game_results", games},
           {"notes", tr.notes}};
  out["champion"] = tr.champion >= 0 ? json(t.engines[tr.champion]) : json(nullptr);
  if (!t.out_dir.empty()) out["out"] = t.out_dir;
  return out;
}

std::string points_text(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", p);
  return buf;
}

void print_text(const play::EngineTournament& t, const play::EngineTournamentResult& r) {
  const auto& tr = r.tournament;
  std::printf(
      "%s tournament of %s: %zu players, %zu rounds, %d game%s a pairing; %zu games "
      "(%d played now, %d read back)\n\n",
      play::to_string(tr.settings.format), t.variant.c_str(), t.engines.size(), tr.rounds.size(),
      tr.settings.games_per_pairing, tr.settings.games_per_pairing == 1 ? "" : "s", tr.games.size(),
      r.played_now, r.read_back);
  std::size_t width = 6;
  for (const auto& e : t.engines) width = std::max(width, e.size());
  std::printf("rank  %-*s  points  games   +   =   -      SB  Buchholz   Elo\n",
              static_cast<int>(width), "player");
  int rank = 0;
  for (const auto& row : tr.standings.rows)
    std::printf("%4d  %-*s  %6s  %5d %3d %3d %3d  %6s  %8s  %+5.0f +- %.0f\n", ++rank,
                static_cast<int>(width), t.engines[row.player].c_str(),
                points_text(row.points).c_str(), row.games, row.wins, row.draws, row.losses,
                points_text(row.sonneborn_berger).c_str(), points_text(row.buchholz).c_str(),
                row.elo, row.elo_margin);
  std::printf("\ncrosstable (points of the row's player against the column's, by rank):\n");
  std::printf("%4s  %-*s", "", static_cast<int>(width), "");
  for (std::size_t i = 1; i <= tr.standings.rows.size(); ++i) std::printf(" %5zu", i);
  std::printf("\n");
  rank = 0;
  for (const auto& a : tr.standings.rows) {
    std::printf("%4d  %-*s", ++rank, static_cast<int>(width), t.engines[a.player].c_str());
    for (const auto& b : tr.standings.rows) {
      bool met = false;
      for (const auto& g : tr.games)
        met |= (g.south == a.player && g.north == b.player) ||
               (g.south == b.player && g.north == a.player);
      std::printf(" %5s", a.player == b.player ? "x"
                          : met ? points_text(tr.standings.cross[a.player][b.player]).c_str()
                                : ".");
    }
    std::printf("\n");
  }
  for (const auto& n : tr.notes) std::printf("\n%s", n.c_str());
  if (!tr.notes.empty()) std::printf("\n");
  if (tr.champion >= 0) std::printf("\nchampion: %s\n", t.engines[tr.champion].c_str());
  if (!t.out_dir.empty()) std::printf("\nrecords in %s\n", t.out_dir.c_str());
}

}  // namespace

void add_tournament_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tournament", "Engine tournaments: round robin, Swiss or knockout, with standings and Elo");
  struct Args {
    std::string variant, format, out, level_ratings;
    std::vector<std::string> engines;
    int rounds = 0, games_per_pairing = 0, opening_plies = 0, setup_plies = -1;
    std::uint64_t seed = 1;
    bool json = false, quiet = false;
    EngineFlags engine;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "Variant")->required();
  cmd->add_option("--format", a->format, "roundrobin, swiss or knockout")->required();
  cmd->add_option("--engine", a->engines,
                  "An entrant (at least twice, in seed order): level:N, alphabeta:..., "
                  "mcts:..., random, or 'cmd:COMMAND ARGS'");
  cmd->add_option("--rounds", a->rounds,
                  "Round robin: how many times each pair meets (1 single, 2 double); Swiss: "
                  "rounds (default: log2 of the players, rounded up)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--games-per-pairing", a->games_per_pairing,
                  "Games each pairing plays, colours alternating (default 1); a knockout "
                  "match is best of this many (default: the rules' smallest best-of, else 1)")
      ->check(CLI::Range(1, 99));
  cmd->add_option("--out", a->out,
                  "Directory for every game's record; rerun with the same one to resume")
      ->check(kNotEmpty);
  cmd->add_option("--opening-plies", a->opening_plies,
                  "Random plies from the start before each pair of games (default 0)")
      ->check(CLI::Range(0, 50));
  cmd->add_option(
         "--setup-plies", a->setup_plies,
         "Omweso: the first K plies of each setup at random, the engines make the rest (as "
         "naqala arena --setup-plies)")
      ->check(CLI::Range(0, 64));
  cmd->add_option("--seed", a->seed, "Seed of the openings and dice (default 1)");
  cmd->add_option("--level-ratings", a->level_ratings,
                  "Measure the computer levels: every entrant level:N, a round robin; their "
                  "ratings (Glicko-2 scale) are written into this file under the variant")
      ->check(kNotEmpty);
  add_engine_flags(cmd, a->engine);
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->add_flag("--quiet", a->quiet, "No progress on stderr");
  cmd->callback([a] {
    if (a->engines.size() < 2)
      throw Error("a tournament needs at least two --engine entrants; got " +
                  std::to_string(a->engines.size()));
    if (!a->level_ratings.empty()) {
      if (a->format != "roundrobin")
        throw Error("--level-ratings needs --format roundrobin (every level meets every other)");
      play::check_level_entrants(a->engines);
    }
    play::EngineTournament t;
    t.variant = a->variant;
    t.engines = a->engines;
    t.settings.format = play::parse_format(a->format);
    t.settings.rounds = a->rounds;
    t.settings.games_per_pairing = a->games_per_pairing;
    t.opening_plies = a->opening_plies;
    t.setup_plies = a->setup_plies;
    t.seed = a->seed;
    t.game = game_options(a->engine);
    t.make_engine = engine_factory(a->engine);
    t.out_dir = a->out;
    if (!a->quiet && !a->json)
      t.progress = [&t](const play::GameSlot& s, const std::string& result, bool read_back) {
        std::fprintf(stderr, "round %d, pairing %d, game %d: %s vs %s %s%s\n", s.round, s.pairing,
                     s.game, t.engines[s.south].c_str(), t.engines[s.north].c_str(), result.c_str(),
                     read_back ? " (read back)" : "");
      };
    const auto r = play::run_engine_tournament(t);
    if (!a->level_ratings.empty()) {
      // The command that made the measurement, kept with it so that anyone can remake it.
      std::string command = "naqala tournament " + a->variant + " --format roundrobin";
      for (const auto& e : a->engines) command += " --engine " + e;
      command += " --rounds " + std::to_string(std::max(1, r.tournament.settings.rounds)) +
                 " --games-per-pairing " + std::to_string(r.tournament.settings.games_per_pairing) +
                 " --opening-plies " + std::to_string(a->opening_plies) +
                 (a->setup_plies >= 0 ? " --setup-plies " + std::to_string(a->setup_plies) : "") +
                 " --seed " + std::to_string(a->seed) +
                 (a->engine.max_plies != engine::EngineGameOptions{}.max_plies
                      ? " --max-plies " + std::to_string(a->engine.max_plies)
                      : "") +
                 " --level-ratings FILE";
      play::save_level_ratings(
          a->level_ratings,
          play::level_ratings_entry(a->variant, a->engines, r.tournament.standings,
                                    static_cast<int>(r.tournament.games.size()), command, a->seed));
    }
    if (a->json)
      std::cout << json_text(to_json(t, r)) << "\n";
    else
      print_text(t, r);
  });
}

}  // namespace naqala::cli
