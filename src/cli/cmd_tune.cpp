// naqala tune VARIANT [--games N] [--depth D] [--seed S] [--json]: fits the sowing evaluation's
// weights to self-play results (src/eval/tune.h) and prints them, ready for
// `--engine alphabeta:weights=...` and for the preset table in src/eval/sowing_eval.cpp.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "eval/tune.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"

namespace naqala::cli {

void add_tune_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("tune", "Fit a sowing variant's evaluation weights to self-play results");
  struct Args {
    std::string variant;
    eval::TuneOptions options;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "A sowing variant (preset or .toml file)")->required();
  cmd->add_option("--games", a->options.games, "Self-play games (default 400)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--depth", a->options.depth, "Self-play search depth (default 6)")
      ->check(CLI::Range(1, 30));
  cmd->add_option("--noise", a->options.temperature,
                  "Self-play softmax noise in seeds (default 0.5)")
      ->check(CLI::Range(0.01, 100.0));
  cmd->add_option("--seed", a->options.seed,
                  "Seed (default 1): the same seed gives the same weights");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a] {
    Loaded l = load_state(a->variant, "", "", "");
    const auto* t = dynamic_cast<const TypedState<sowing::State>*>(l.state.get());
    if (!t)
      throw Error("tune works on sowing variants; " + l.game->spec() + " is a " +
                  l.game->info().family + " game");
    const auto& rules = t->typed().rules();
    if (!a->json)
      a->options.progress = [](int d, int n) { std::fprintf(stderr, "\r%d/%d games", d, n); };
    const auto r = eval::tune_sowing(rules, eval::default_sowing_weights(rules), a->options);
    std::string list;
    for (int i = 0; i < eval::kSowingFeatures; ++i)
      list += (i ? "/" : "") + std::to_string(r.weights.w[i]);
    if (a->json) {
      nlohmann::json w;
      for (int i = 0; i < eval::kSowingFeatures; ++i)
        w[eval::kSowingFeatureNames[i]] = r.weights.w[i];
      std::cout << nlohmann::json{{"variant", l.game->spec()},
                                  {"games", r.games},
                                  {"positions", r.positions},
                                  {"weights", w},
                                  {"spec", list},
                                  {"rms_before", r.rms_before},
                                  {"rms_after", r.rms_after},
                                  {"seed", a->options.seed}}
                       .dump()
                << "\n";
      return;
    }
    std::fprintf(stderr, "\n");
    std::printf("%s: %d games, %zu positions; RMS error of the final margin %.2f -> %.2f seeds\n",
                l.game->spec().c_str(), r.games, r.positions, r.rms_before, r.rms_after);
    for (int i = 0; i < eval::kSowingFeatures; ++i)
      std::printf("  %-15s %6d\n", eval::kSowingFeatureNames[i], r.weights.w[i]);
    std::printf("engine spec: alphabeta:weights=%s\n", list.c_str());
  });
}

}  // namespace naqala::cli
