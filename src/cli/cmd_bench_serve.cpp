// naqala bench serve [--games N] [--seconds S | --moves M] [--kills K] [--variant V]
// [--port P [--host H]] [--db FILE] [--seed S] [--json]: the server under load, and under
// kill -9 (src/cli/serve_load.h; docs/server.md, "Load and faults").
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/serve_load.h"
#include "core/error.h"
#include "core/json_text.h"

namespace naqala::cli {

void add_bench_serve_command(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "serve", "Load test of naqala serve: games over WebSockets, moves checked in the database");
  struct Args {
    ServeLoadOptions options;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  ServeLoadOptions& o = a->options;
  cmd->add_option("--games", o.games, "Games played at once, two players each (default 500)")
      ->check(CLI::Range(1, 5000));
  cmd->add_option("--seconds", o.seconds, "Seconds of play (default 600; 0: only --moves)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--moves", o.moves, "Stop after this many acknowledged moves (default: none)")
      ->check(CLI::Range(1L, 1000000000L));
  cmd->add_option("--kills", o.kills,
                  "kill -9 the server at random moments this many times, restarting it "
                  "(default 0)")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--variant", o.variant, "The variant played (default kalah)");
  cmd->add_option("--port", o.port,
                  "A running server's port (default: start one on a fresh database)");
  cmd->add_option("--host", o.host, "A running server's address (default 127.0.0.1)");
  cmd->add_option("--db", o.db, "The started server's database (default: a temporary file)");
  cmd->add_option("--seed", o.seed, "Seed of the moves and the kill moments (default 1)");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a, cmd] {
    ServeLoadOptions o = a->options;
    if (cmd->count("--moves") && !cmd->count("--seconds")) o.seconds = 0;
    if (!a->json) o.progress = [](const std::string& line) { std::cerr << line << "\n"; };
    const ServeLoadReport r = run_serve_load(o);
    const double rate = r.seconds > 0 ? r.moves / r.seconds : 0;
    if (a->json) {
      std::cout << json_text(nlohmann::json{{"variant", o.variant},
                                            {"games", r.games},
                                            {"concurrent_games", o.games},
                                            {"games_over", r.games_over},
                                            {"moves", r.moves},
                                            {"seconds", r.seconds},
                                            {"moves_per_second", rate},
                                            {"p50_ms", r.p50_ms},
                                            {"p99_ms", r.p99_ms},
                                            {"max_ms", r.max_ms},
                                            {"rss_start_kb", r.rss_start_kb},
                                            {"rss_end_kb", r.rss_end_kb},
                                            {"kills", r.kills},
                                            {"reconnects", r.reconnects},
                                            {"checked", r.checked},
                                            {"missing", r.missing},
                                            {"clocks_checked", r.clocks_checked},
                                            {"clocks_wrong", r.clocks_wrong},
                                            {"problems", r.problems}})
                << "\n";
    } else {
      std::printf(
          "%s: %d games at once (%d created, %d over); %ld moves in %.1f s = %.0f moves/s\n"
          "move latency: p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
          o.variant.c_str(), o.games, r.games, r.games_over, r.moves, r.seconds, rate, r.p50_ms,
          r.p99_ms, r.max_ms);
      if (r.rss_start_kb >= 0)
        std::printf("server memory: %ld KiB at the start, %ld KiB at the end\n", r.rss_start_kb,
                    r.rss_end_kb);
      std::printf("kill -9: %d (players reconnected %d times)\n", r.kills, r.reconnects);
      std::printf("acknowledged moves found in the database: %ld of %ld\n", r.checked - r.missing,
                  r.checked);
      std::printf("games whose clocks resumed as stored after a kill: %ld of %ld\n",
                  r.clocks_checked - r.clocks_wrong, r.clocks_checked);
      for (const auto& p : r.problems) std::printf("  %s\n", p.c_str());
    }
    if (r.missing > 0)
      throw Error("bench serve: " + std::to_string(r.missing) +
                  " acknowledged moves are not in the database");
    if (r.clocks_wrong > 0)
      throw Error("bench serve: " + std::to_string(r.clocks_wrong) +
                  " games did not resume with their stored clocks after a kill");
  });
}

}  // namespace naqala::cli
