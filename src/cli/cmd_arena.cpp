// naqala arena VARIANT --engine SPEC --engine SPEC --games N [--threads T] [--json]
// naqala arena VARIANT --ladder 1-10 --games N ...: each level against the level below it.
// Engines play both sides of each opening; the result comes with an Elo difference and its
// 95% error margin.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/engine_flags.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_text.h"
#include "engine/arena.h"

namespace naqala::cli {

namespace {

nlohmann::json to_json(const engine::ArenaOptions& o, const engine::ArenaResult& r,
                       bool with_games) {
  nlohmann::json j{{"variant", o.variant},
                   {"engines", o.engines},
                   {"games", r.games},
                   {"wins", r.wins},
                   {"draws", r.draws},
                   {"losses", r.losses},
                   {"score", r.score},
                   {"elo", r.elo},
                   {"elo_margin", r.elo_margin},
                   {"sweep", r.wins == r.games || r.losses == r.games},
                   {"south_wins", r.south_wins},
                   {"north_wins", r.north_wins},
                   {"seconds_per_move", r.seconds_per_move},
                   {"opening_plies", o.opening_plies},
                   {"seed", o.seed}};
  if (o.setup_plies >= 0) j["setup_plies"] = o.setup_plies;
  if (with_games) {
    nlohmann::json games = nlohmann::json::array();
    for (const auto& g : r.results)
      games.push_back({{"opening", g.opening},
                       {"south", o.engines[g.first_engine_side]},
                       {"north", o.engines[1 - g.first_engine_side]},
                       {"result", g.result},
                       {"end", g.end},
                       {"plies", g.plies}});
    for (std::size_t i = 0; i < r.results.size(); ++i)
      if (!r.results[i].failure.empty()) games[i]["failure"] = r.results[i].failure;
    j["game_results"] = games;
  }
  return j;
}

void print_line(const engine::ArenaOptions& o, const engine::ArenaResult& r) {
  char elo[96];
  if (r.wins == r.games)
    std::snprintf(elo, sizeof elo, "Elo %+.0f (clean sweep: at least %+.0f at 95%%)", r.elo,
                  r.elo - r.elo_margin);
  else if (r.losses == r.games)
    std::snprintf(elo, sizeof elo, "Elo %+.0f (clean sweep: at most %+.0f at 95%%)", r.elo,
                  r.elo + r.elo_margin);
  else
    std::snprintf(elo, sizeof elo, "Elo %+.0f +- %.0f", r.elo, r.elo_margin);
  std::printf("%-20s vs %-20s  +%d =%d -%d  score %.3f  %s  (%.4f / %.4f s per move)\n",
              o.engines[0].c_str(), o.engines[1].c_str(), r.wins, r.draws, r.losses, r.score, elo,
              r.seconds_per_move[0], r.seconds_per_move[1]);
  std::fflush(stdout);
}

}  // namespace

void add_arena_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("arena", "Engine matches with Elo: both sides of every opening");
  struct Args {
    std::string variant, ladder;
    std::vector<std::string> engines;
    int games = 100, threads = 1, opening_plies = 4, setup_plies = -1;
    std::uint64_t seed = 1;
    bool json = false, quiet = false;
    EngineFlags engine;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "Variant")->required();
  cmd->add_option("--engine", a->engines,
                  "Engine spec (twice): level:N, alphabeta:time=S,..., mcts:sims=N,..., random, "
                  "or 'cmd:COMMAND ARGS' for a program that speaks the engine protocol");
  add_engine_flags(cmd, a->engine);
  cmd->add_option("--ladder", a->ladder,
                  "Play each level of FROM-TO against the level below it, e.g. 1-10");
  cmd->add_option("--games", a->games, "Games per match (even: each opening twice; default 100)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--threads", a->threads, "Games played at once (default 1)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--opening-plies", a->opening_plies,
                  "Random plies that make an opening (default 4; 0 with --setup-plies)")
      ->check(CLI::Range(0, 50));
  cmd->add_option(
         "--setup-plies", a->setup_plies,
         "Omweso: the openings are the first K plies of the setup at random (a uniformly random "
         "layout: South's pits a1, b1, ..., then North's; 30 lays out both) and the "
         "engines make the rest, so the match measures their layouts too; unset, the "
         "openings lay the setup out as the engines do and --opening-plies are moves of "
         "play after it")
      ->check(CLI::Range(0, 64));
  cmd->add_option("--seed", a->seed, "Seed of the openings and dice (default 1)");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->add_flag("--quiet", a->quiet, "No progress on stderr");
  cmd->callback([a, cmd] {
    // With setup plies the engines make the rest of the setup: no plies of play unless asked.
    if (a->setup_plies >= 0 && cmd->count("--opening-plies") == 0) a->opening_plies = 0;
    std::vector<engine::ArenaOptions> matches;
    engine::ArenaOptions base;
    base.variant = a->variant;
    base.games = a->games;
    base.threads = a->threads;
    base.opening_plies = a->opening_plies;
    base.setup_plies = a->setup_plies;
    base.seed = a->seed;
    base.game = game_options(a->engine);
    base.make_engine = engine_factory(a->engine);
    if (!a->ladder.empty()) {
      if (!a->engines.empty()) throw Error("give --ladder or two --engine, not both");
      int from = 0, to = 0;
      if (std::sscanf(a->ladder.c_str(), "%d-%d", &from, &to) != 2 || from < 1 || to > 10 ||
          from >= to)
        throw Error("--ladder " + a->ladder +
                    ": write FROM-TO with 1 <= FROM < TO <= 10, e.g. 1-10");
      for (int level = from + 1; level <= to; ++level) {
        engine::ArenaOptions m = base;
        m.engines = {"level:" + std::to_string(level), "level:" + std::to_string(level - 1)};
        matches.push_back(m);
      }
    } else {
      if (a->engines.size() != 2)
        throw Error("give exactly two --engine specs (or --ladder FROM-TO); got " +
                    std::to_string(a->engines.size()));
      engine::ArenaOptions m = base;
      m.engines = {a->engines[0], a->engines[1]};
      matches.push_back(m);
    }
    nlohmann::json all = nlohmann::json::array();
    for (auto& m : matches) {
      // On a terminal one line redrawn in place; in a log (not a terminal) a plain line at
      // every tenth of the match, without carriage returns or escape codes.
      if (!a->quiet && !a->json)
        m.progress = [&m, tty = stderr_is_terminal(), shown = -1](int done, int total) mutable {
          if (tty) {
            std::fprintf(stderr, "\r%s vs %s: %d/%d games", m.engines[0].c_str(),
                         m.engines[1].c_str(), done, total);
            if (done == total) std::fprintf(stderr, "\r\033[K");
            return;
          }
          const int tenth = total ? done * 10 / total : 10;
          if (tenth == shown) return;
          shown = tenth;
          std::fprintf(stderr, "%s vs %s: %d/%d games\n", m.engines[0].c_str(),
                       m.engines[1].c_str(), done, total);
        };
      const auto r = engine::run_arena(m);
      for (std::size_t g = 0; g < r.results.size(); ++g)
        if (!r.results[g].failure.empty())
          std::fprintf(stderr, "game %zu: %s lost by %s: %s\n", g + 1,
                       m.engines[(r.results[g].first_engine_points == 0) ? 0 : 1].c_str(),
                       r.results[g].end.c_str(), r.results[g].failure.c_str());
      if (a->json) {
        all.push_back(to_json(m, r, matches.size() == 1));
      } else {
        print_line(m, r);
      }
    }
    if (a->json) std::cout << json_text((matches.size() == 1 ? all[0] : all)) << "\n";
  });
}

}  // namespace naqala::cli
