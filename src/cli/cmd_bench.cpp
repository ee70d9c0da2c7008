// naqala bench random VARIANT [--seconds S] [--threads T] [--json]: random playouts/s.
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/json_text.h"

namespace naqala::cli {

void add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Headline speed figures");
  bench->require_subcommand(1);
  add_bench_search_command(*bench);
  add_bench_eval_command(*bench);
  add_bench_serve_command(*bench);
  auto* random = bench->add_subcommand("random", "Uniformly random games from the start");
  struct Args {
    std::string variant;
    double seconds = 3;
    int threads = 1;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  random->add_option("variant", a->variant, "Variant")->required();
  random->add_option("--seconds", a->seconds, "How long to run (default 3)")
      ->check(CLI::Range(0.01, 3600.0));
  random->add_option("--threads", a->threads, "Threads, each playing its own games (default 1)")
      ->check(CLI::Range(1, 256));
  random->add_flag("--json", a->json, "Print JSON");
  random->callback([a] {
    Loaded l = load_state(a->variant, "", "", "");
    std::vector<RandomPlayStats> stats(a->threads);
    std::vector<std::thread> workers;
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < a->threads; ++t)
      workers.emplace_back([&, t] { stats[t] = l.state->play_random(0x5eed + t, a->seconds); });
    for (auto& w : workers) w.join();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    RandomPlayStats total;
    for (const auto& s : stats) {
      total.games += s.games;
      total.plies += s.plies;
      total.unfinished += s.unfinished;
    }
    const double pps = total.plies / seconds;
    if (a->json) {
      std::cout << json_text(nlohmann::json{{"variant", l.game->spec()},
                                            {"games", total.games},
                                            {"plies", total.plies},
                                            {"seconds", seconds},
                                            {"plies_per_second", pps},
                                            {"threads", a->threads},
                                            {"unfinished", total.unfinished}})
                << "\n";
      return;
    }
    std::cout << l.game->spec() << ": " << total.games << " games, " << total.plies << " plies in "
              << seconds << " s on " << a->threads
              << " thread(s): " << static_cast<std::uint64_t>(pps) << " plies/s, "
              << static_cast<std::uint64_t>(total.games / seconds) << " games/s\n";
    // Time runs out inside a game on every thread (play_random asks its alarm every ply), so a
    // game cut off says something only when no game ended at all.
    if (total.unfinished > 0 && total.games == 0)
      std::cout << total.unfinished
                << " game(s) still going when time ran out and none ended (does this variant's "
                   "game ever end? `naqala rules VARIANT --check` tells)\n";
  });
}

}  // namespace naqala::cli
