// naqala bench search VARIANT [--depth D] [--seconds S] [--threads T] [--mcts-seconds S] [--json]:
// alpha-beta nodes/s and time to each depth from the start, then MCTS simulations/s.
#include <cstdio>
#include <ctime>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/json_text.h"
#include "engine/engine.h"

namespace naqala::cli {

void add_bench_search_command(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "search", "Search speed: alpha-beta nodes/s and time to depth, MCTS simulations/s");
  struct Args {
    std::string variant, position;
    int depth = 0;
    double seconds = 5;
    double mcts_seconds = 2;
    int threads = 1;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "Variant")->required();
  cmd->add_option("--position", a->position, "Search this position instead of the start")
      ->check(kNotEmpty);
  cmd->add_option("--depth", a->depth, "Stop alpha-beta at this depth (default: --seconds decides)")
      ->check(CLI::Range(1, 127));
  cmd->add_option("--seconds", a->seconds, "Alpha-beta time (default 5)")
      ->check(CLI::Range(0.01, 3600.0));
  cmd->add_option("--mcts-seconds", a->mcts_seconds, "MCTS time, 0 to skip (default 2)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--threads", a->threads, "Threads (default 1)")->check(CLI::Range(1, 256));
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a] {
    Loaded l = load_state(a->variant, a->position, "", "");
    // CPU time besides wall time: on a shared machine the rate per CPU second is the figure
    // that compares between runs (with one thread).
    const auto ab =
        engine::bench_alphabeta(*l.state, a->depth, a->depth > 0 ? 0 : a->seconds, a->threads);
    const double ab_cpu = ab.cpu_seconds;
    engine::MctsBench playout, evaluated;
    if (a->mcts_seconds > 0) {
      playout = engine::bench_mcts(*l.state, a->mcts_seconds, a->threads, false);
      evaluated = engine::bench_mcts(*l.state, a->mcts_seconds, a->threads, true);
    }
    const double playout_cpu = playout.cpu_seconds, evaluated_cpu = evaluated.cpu_seconds;
    auto per = [](double count, double seconds) { return seconds > 0 ? count / seconds : 0.0; };
    if (a->json) {
      nlohmann::json its = nlohmann::json::array();
      for (const auto& it : ab.iterations)
        its.push_back({{"depth", it.depth},
                       {"nodes", it.nodes},
                       {"seconds", it.seconds},
                       {"value", it.value},
                       {"best_move", it.best_move}});
      auto mcts = [&](const engine::MctsBench& m, double cpu_seconds) {
        return nlohmann::json{{"simulations", m.simulations},
                              {"seconds", m.seconds},
                              {"cpu_seconds", cpu_seconds},
                              {"simulations_per_second", per(m.simulations, m.seconds)},
                              {"simulations_per_cpu_second", per(m.simulations, cpu_seconds)}};
      };
      std::cout << json_text(nlohmann::json{{"variant", l.game->spec()},
                                            {"threads", a->threads},
                                            {"alphabeta",
                                             {{"nodes", ab.nodes},
                                              {"seconds", ab.seconds},
                                              {"cpu_seconds", ab_cpu},
                                              {"nodes_per_second", per(ab.nodes, ab.seconds)},
                                              {"nodes_per_cpu_second", per(ab.nodes, ab_cpu)},
                                              {"iterations", its}}},
                                            {"mcts_playout", mcts(playout, playout_cpu)},
                                            {"mcts_eval", mcts(evaluated, evaluated_cpu)}})
                << "\n";
      return;
    }
    std::printf("%s, %d thread(s)\nalpha-beta: depth  seconds      nodes  best  value\n",
                l.game->spec().c_str(), a->threads);
    for (const auto& it : ab.iterations)
      std::printf("            %5d %8.3f %10llu  %4s %+6.2f\n", it.depth, it.seconds,
                  static_cast<unsigned long long>(it.nodes), it.best_move.c_str(), it.value);
    std::printf("alpha-beta: %llu nodes in %.3f s = %.0f nodes/s (%.0f per CPU second)\n",
                static_cast<unsigned long long>(ab.nodes), ab.seconds, per(ab.nodes, ab.seconds),
                per(ab.nodes, ab_cpu));
    if (a->mcts_seconds > 0) {
      std::printf(
          "mcts, random playouts: %llu simulations in %.3f s = %.0f/s (%.0f per CPU second)\n",
          static_cast<unsigned long long>(playout.simulations), playout.seconds,
          per(playout.simulations, playout.seconds), per(playout.simulations, playout_cpu));
      std::printf(
          "mcts, evaluation at the leaf: %llu simulations in %.3f s = %.0f/s (%.0f per CPU "
          "second)\n",
          static_cast<unsigned long long>(evaluated.simulations), evaluated.seconds,
          per(evaluated.simulations, evaluated.seconds), per(evaluated.simulations, evaluated_cpu));
    }
  });
}

}  // namespace naqala::cli
