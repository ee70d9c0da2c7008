// naqala tune VARIANT [--games N] [--depth D] [--noise X] [--seed S] [--json]: fits an
// evaluation's weights (sowing variants, Bao, Omweso) to self-play results (src/eval/tune.h)
// and prints them, ready for `--engine alphabeta:weights=...` and for the preset tables in
// src/eval/. For backgammon it fits the hand-written player's contact weights to the
// network's chances (src/eval/backgammon_contact_fit.h).
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/tune_pit_table.h"
#include "core/error.h"
#include "core/json_text.h"
#include "eval/backgammon_contact_fit.h"
#include "eval/backgammon_evaluator.h"
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
      s.play(s.spread_setup_move(&rng));
      return true;
    };
    return {eval::tune_self_play(t->typed(), e, e.weights, o, setup), names_of(e.kFeatureNames)};
  }
  throw Error("tune works on sowing variants, Bao and Omweso; " + game.spec() + " is a " +
              game.info().family + " game");
}

void print_progress(int done, int total) {
  std::fprintf(stderr, "\r%d/%d games", done, total);
}

void tune_backgammon(int games, std::uint64_t seed, bool json) {
  bgheuristic::ContactFitOptions o;
  if (games > 0) o.games = games;
  o.seed = seed;
  if (!json) o.progress = print_progress;
  const auto fit = bgheuristic::fit_contact_weights(bgeval::shipped_net(), o);
  static constexpr const char* kNames[] = {"bias", "pip_lead", "points", "prime", "blots",
                                           "bar",  "anchors",  "stacks", "back",  "off"};
  std::string list;
  for (std::size_t i = 0; i < fit.weights.size(); ++i) {
    char number[32];
    std::snprintf(number, sizeof number, "%s%.4f", i ? ", " : "", fit.weights[i]);
    list += number;
  }
  if (json) {
    nlohmann::json w;
    for (std::size_t i = 0; i < fit.weights.size(); ++i) w[kNames[i]] = fit.weights[i];
    std::cout << json_text(nlohmann::json{{"variant", "backgammon"},
                                          {"games", fit.games},
                                          {"positions", fit.positions},
                                          {"weights", w},
                                          {"loss_before", fit.loss_before},
                                          {"loss_after", fit.loss_after},
                                          {"seed", seed}})
              << "\n";
    return;
  }
  std::fprintf(stderr, "\n");
  std::printf(
      "backgammon: %d games, %zu contact positions; log-loss against the network's chances "
      "%.4f -> %.4f\n",
      fit.games, fit.positions, fit.loss_before, fit.loss_after);
  for (std::size_t i = 0; i < fit.weights.size(); ++i)
    std::printf("  %-15s %9.4f\n", kNames[i], fit.weights[i]);
  std::printf("kContactWeights = {%s}\n", list.c_str());
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tune",
      "Fit a variant's evaluation weights to self-play results (sowing, Bao, Omweso), or the "
      "hand-written backgammon player's to the network");
  struct Args {
    std::string variant;
    eval::TuneOptions options;
    bool json = false;
    PitTableArgs table;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant,
                  "A sowing variant (preset or .toml file), Bao, Omweso or backgammon")
      ->required();
  cmd->add_option("--games", a->options.games, "Self-play games (default 400; backgammon 2000)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--depth", a->options.depth, "Self-play search depth (default 6)")
      ->check(CLI::Range(1, 30));
  cmd->add_option("--noise", a->options.temperature,
                  "Self-play softmax noise in points (default 0.5)")
      ->check(CLI::Range(0.01, 100.0));
  cmd->add_option("--seed", a->options.seed,
                  "Seed (default 1): the same seed gives the same weights");
  cmd->add_flag("--json", a->json, "Print JSON");
  add_pit_table_options(*cmd, a->table);
  cmd->callback([a, cmd] {
    Loaded l = load_state(a->variant, "", "", "");
    if (!a->table.records.empty()) {
      if (cmd->count("--depth") || cmd->count("--noise"))
        throw Error("--depth and --noise are for the linear fit; --records plays --engine");
      a->table.games = a->options.games;
      a->table.seed = a->options.seed;
      tune_pit_table(*l.game, a->table, a->json);
      return;
    }
    if (l.game->info().family == "backgammon") {
      if (cmd->count("--depth") || cmd->count("--noise"))
        throw Error(
            "--depth and --noise apply to sowing, Bao and Omweso; backgammon's fit "
            "takes --games and --seed");
      tune_backgammon(cmd->count("--games") ? a->options.games : 0, a->options.seed, a->json);
      return;
    }
    if (!a->json) a->options.progress = print_progress;
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
