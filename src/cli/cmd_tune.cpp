// naqala tune VARIANT [--games N] [--depth D] [--noise X] [--seed S] [--json]: fits an
// evaluation's weights (sowing variants, Bao, Omweso) to self-play results (src/eval/tune.h)
// and prints them, ready for `--engine alphabeta:weights=...` and for the preset tables in
// src/eval/.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "core/json_text.h"
#include "eval/bao_eval.h"
#include "eval/omweso_eval.h"
#include "eval/tune.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"

namespace naqala::cli {

namespace {

struct Tuned {
  eval::TuneResult result;
  std::vector<std::string> names;
};

template <std::size_t N>
std::vector<std::string> names_of(const std::array<const char*, N>& names) {
  return {names.begin(), names.end()};
}

Tuned tune(const AnyState& state, const AnyGame& game, const eval::TuneOptions& o) {
  if (const auto* t = dynamic_cast<const TypedState<sowing::State>*>(&state)) {
    const auto& rules = t->typed().rules();
    return {eval::tune_sowing(rules, eval::default_sowing_weights(rules), o),
            names_of(eval::kSowingFeatureNames)};
  }
  if (const auto* t = dynamic_cast<const TypedState<bao::State>*>(&state)) {
    const eval::BaoEval e;
    return {eval::tune_self_play(t->typed(), e, e.weights, o), names_of(e.kFeatureNames)};
  }
  if (const auto* t = dynamic_cast<const TypedState<omweso::State>*>(&state)) {
    const eval::OmwesoEval e;
    // The setup is laid out by the engines' policy, with noise so the layouts vary.
    const std::function<bool(omweso::State&, Rng&)> setup = [](omweso::State& s, Rng& rng) {
      if (!s.in_setup()) return false;
      s.play(eval::setup_move(s, &rng));
      return true;
    };
    return {eval::tune_self_play(t->typed(), e, e.weights, o, setup), names_of(e.kFeatureNames)};
  }
  throw Error("tune works on sowing variants, Bao and Omweso; " + game.spec() + " is a " +
              game.info().family + " game");
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tune", "Fit a variant's evaluation weights to self-play results (sowing, Bao, Omweso)");
  struct Args {
    std::string variant;
    eval::TuneOptions options;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "A sowing variant (preset or .toml file), Bao or Omweso")
      ->required();
  cmd->add_option("--games", a->options.games, "Self-play games (default 400)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--depth", a->options.depth, "Self-play search depth (default 6)")
      ->check(CLI::Range(1, 30));
  cmd->add_option("--noise", a->options.temperature,
                  "Self-play softmax noise in points (default 0.5)")
      ->check(CLI::Range(0.01, 100.0));
  cmd->add_option("--seed", a->options.seed,
                  "Seed (default 1): the same seed gives the same weights");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a] {
    Loaded l = load_state(a->variant, "", "", "");
    if (!a->json)
      a->options.progress = [](int d, int n) { std::fprintf(stderr, "\r%d/%d games", d, n); };
    const auto [r, names] = tune(*l.state, *l.game, a->options);
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
      list += (i ? "/" : "") + std::to_string(r.weights[i]);
    if (a->json) {
      nlohmann::json w;
      for (std::size_t i = 0; i < names.size(); ++i) w[names[i]] = r.weights[i];
      std::cout << json_text(nlohmann::json{{"variant", l.game->spec()},
                                            {"games", r.games},
                                            {"positions", r.positions},
                                            {"weights", w},
                                            {"spec", list},
                                            {"rms_before", r.rms_before},
                                            {"rms_after", r.rms_after},
                                            {"seed", a->options.seed}})
                << "\n";
      return;
    }
    std::fprintf(stderr, "\n");
    std::printf("%s: %d games, %zu positions; RMS error of the final margin %.2f -> %.2f points\n",
                l.game->spec().c_str(), r.games, r.positions, r.rms_before, r.rms_after);
    for (std::size_t i = 0; i < names.size(); ++i)
      std::printf("  %-15s %6d\n", names[i].c_str(), r.weights[i]);
    std::printf("engine spec: alphabeta:weights=%s\n", list.c_str());
  });
}

}  // namespace naqala::cli
