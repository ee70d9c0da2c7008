#include "cli/tune_pit_table.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/json_text.h"
#include "engine/selfplay_records.h"
#include "eval/bao_eval.h"
#include "eval/board4_table_fit.h"
#include "eval/omweso_eval.h"
#include "eval/pit_table_fit.h"
#include "games/bao/bao.h"
#include "games/omweso/omweso.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"

namespace naqala::cli {

void add_pit_table_options(CLI::App& cmd, PitTableArgs& a) {
  cmd.add_option("--records", a.records,
                 "Fit a pit table (sowing games of two rows, Bao, Omweso): self-play records in "
                 "this file, extended to --games games (a stopped run resumes)");
  cmd.add_option("--engine", a.engine,
                 "With --records: the engine that plays (default alphabeta:nodes=20000)");
  cmd.add_option("--out", a.out, "With --records: write the fitted evaluation to this file");
  cmd.add_option("--final-share", a.final_share,
                 "With --records: label = share x final margin + (1 - share) x the engine's "
                 "value (default 0.5)")
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_option("--ridge", a.ridge, "With --records: L2 penalty (default 1)")
      ->check(CLI::Range(0.0, 1e9));
  cmd.add_option("--smooth", a.smooth,
                 "With --records: penalty on neighbouring counts' difference (default 100)")
      ->check(CLI::Range(0.0, 1e9));
  cmd.add_flag("--late", a.late,
               "With --records --out: also fit a late table, blended in as the stores fill "
               "(sowing games of two rows)");
  cmd.add_flag("--pairs", a.pairs,
               "With --records --out: also fit a table of each pit's count and the count "
               "opposite (rulesets that capture the pit opposite, e.g. Kalah)");
  cmd.add_option("--opening-plies", a.opening_plies,
                 "With --records: random plies before the engine plays (default 6)")
      ->check(CLI::Range(0, 40));
}

namespace {

// Bao's or Omweso's labelled positions (Omweso's setup, laid out by a policy, left out).
template <class S, class Usable, class Label>
std::vector<std::pair<S, double>> board4_data(const AnyGame& game,
                                              const std::vector<engine::SelfPlayPosition>& records,
                                              Usable usable, Label label) {
  std::vector<std::pair<S, double>> data;
  for (const auto& p : records) {
    if (!usable(p)) continue;
    const auto state = game.from_position(p.position);
    const S& s = dynamic_cast<const TypedState<S>&>(*state).typed();
    if constexpr (std::is_same_v<S, omweso::State>)
      if (s.in_setup()) continue;
    data.emplace_back(s, label(p));
  }
  return data;
}

}  // namespace

void tune_pit_table(const AnyGame& game, const PitTableArgs& a, bool json) {
  const auto probe = game.new_game();
  const auto* typed = dynamic_cast<const TypedState<sowing::State>*>(probe.get());
  const bool board4 = dynamic_cast<const TypedState<bao::State>*>(probe.get()) ||
                      dynamic_cast<const TypedState<omweso::State>*>(probe.get());
  if (!typed && !board4)
    throw Error("--records fits a pit table for sowing games, Bao and Omweso; " + game.spec() +
                " is none of them");
  engine::SelfPlayOptions o;
  o.engine = a.engine;
  o.games = a.games;
  o.seed = a.seed;
  o.opening_plies = a.opening_plies;
  if (!json)
    o.progress = [](int done, int total) { std::fprintf(stderr, "\r%d/%d games", done, total); };
  engine::extend_self_play(game, a.records, o);
  if (!json) std::fprintf(stderr, "\n");
  if (a.out.empty()) return;
  int games = 0;
  const auto records = engine::read_self_play(a.records, &games);
  // A value lost to a search stopped early (older records) is left out.
  auto usable = [](const engine::SelfPlayPosition& p) { return std::abs(p.value) < 2000; };
  auto label = [&](const engine::SelfPlayPosition& p) {
    return a.final_share * p.margin + (1 - a.final_share) * p.value;
  };
  eval::PitTableFit fit;
  if (typed) {
    const sowing::Rules& rules = typed->typed().rules();
    std::vector<eval::LabelledPosition> data;
    for (const auto& p : records)
      if (usable(p)) data.push_back({sowing::State::from_position(rules, p.position), label(p)});
    fit = eval::fit_pit_table(rules, data, eval::default_sowing_weights(rules), a.ridge, a.smooth,
                              {a.late, a.pairs});
  } else if (a.late || a.pairs) {
    throw Error("--late and --pairs fit sowing games of two rows; " + game.spec() +
                " has its own table");
  } else if (dynamic_cast<const TypedState<bao::State>*>(probe.get())) {
    fit = eval::fit_board4_table(board4_data<bao::State>(game, records, usable, label),
                                 eval::BaoEval{}, a.ridge, a.smooth);
  } else {
    fit = eval::fit_board4_table(board4_data<omweso::State>(game, records, usable, label),
                                 eval::OmwesoEval{}, a.ridge, a.smooth);
  }
  char numbers[128];
  std::snprintf(numbers, sizeof numbers, " --final-share %g --ridge %g --smooth %g%s%s",
                a.final_share, a.ridge, a.smooth, a.late ? " --late" : "",
                a.pairs ? " --pairs" : "");
  fit.eval.made_by = "naqala tune " + game.spec() + " --records FILE --games " +
                     std::to_string(games) + " --seed " + std::to_string(a.seed) + " --engine " +
                     a.engine + " --opening-plies " + std::to_string(a.opening_plies) + numbers +
                     " --out FILE";
  eval::save_trained_eval(a.out, fit.eval);
  if (json) {
    std::cout << json_text(nlohmann::json{{"variant", game.spec()},
                                          {"games", games},
                                          {"positions", fit.positions},
                                          {"rms_before", fit.rms_before},
                                          {"rms_after", fit.rms_after},
                                          {"out", a.out}})
              << "\n";
    return;
  }
  std::printf("%s: %d games, %zu positions; RMS error of the labels %.2f -> %.2f points; %s\n",
              game.spec().c_str(), games, fit.positions, fit.rms_before, fit.rms_after,
              a.out.c_str());
}

}  // namespace naqala::cli
