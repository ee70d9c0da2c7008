#include "cli/tune_pit_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/json_text.h"
#include "engine/board4_search.h"
#include "engine/installed_db.h"
#include "engine/kalah_labels.h"
#include "engine/search_labels.h"
#include "engine/selfplay_records.h"
#include "eval/bao_eval.h"
#include "eval/bao_net_train.h"
#include "eval/board4_table_fit.h"
#include "eval/kalah_net_train.h"
#include "eval/omweso_eval.h"
#include "eval/pit_table_fit.h"
#include "games/bao/bao.h"
#include "games/omweso/omweso.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "search/values.h"
#include "solve/kalah.h"

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
  cmd.add_option("--exact", a.exact,
                 "With --records (Kalah): exact labels in this file, positions of the records "
                 "proved by the solver, extended to --roots (a stopped run resumes); --out and "
                 "--net-out then fit them");
  cmd.add_option("--db", a.db, "With --exact: the solver's database (default: the installed one)");
  cmd.add_option("--roots", a.roots,
                 "With --exact or --search-labels: positions drawn from the records (by --seed) "
                 "to label, each with the positions one move after it (--search-labels: with "
                 "--children)")
      ->check(CLI::Range(0, 10000000));
  cmd.add_option("--min-seeds", a.min_seeds,
                 "With --exact: fewest seeds in the pits of a root (26)")
      ->check(CLI::Range(0, 255));
  cmd.add_option("--max-seeds", a.max_seeds, "With --exact: most seeds in the pits of a root (42)")
      ->check(CLI::Range(0, 255));
  cmd.add_flag("--no-children", a.no_children,
               "With --exact: label the roots only, not the positions one move after them");
  cmd.add_flag("--children", a.children,
               "With --search-labels: also label the positions one move after each root");
  cmd.add_option("--proof-nodes", a.proof_nodes,
                 "With --exact: the solver's nodes a position (default 4,000,000); a proof cut "
                 "off is written as its bracket and not fitted")
      ->check(CLI::Range(std::uint64_t{1000}, std::uint64_t{1} << 40));
  cmd.add_option("--search-labels", a.search_labels,
                 "With --records (Bao): labels in this file, positions of the records valued by "
                 "--label-engine's search, extended to --roots (a stopped run resumes); --net-out "
                 "then trains Bao's network on them");
  cmd.add_option("--label-engine", a.label_engine,
                 "With --search-labels: the search that values a position (default "
                 "alphabeta:nodes=300000; a node limit, so a run is reproducible)");
  cmd.add_option("--net-out", a.net_out,
                 "With --exact (Kalah) or --search-labels (Bao): train a network on the labels "
                 "and write it to this file");
  cmd.add_flag("--net-all", a.net_all,
               "With --net-out: also train on the records' positions with more seeds in the "
               "pits than any exact label (labelled as for the table, --final-share), so the "
               "network values every board");
  cmd.add_option("--counts", a.counts,
                 "With --search-labels --net-out: one-hot inputs of a pit's count (default 16)")
      ->check(CLI::Range(2, 64));
  cmd.add_option("--hidden", a.hidden, "With --net-out: hidden units (default 32)")
      ->check(CLI::Range(1, eval::kNetMaxHidden));
  cmd.add_option("--epochs", a.epochs, "With --net-out: passes over the labels (default 60)")
      ->check(CLI::Range(1, 100000));
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

const sowing::Rules& kalah_rules_of(const AnyGame& game) {
  const auto probe = game.new_game();
  const auto* typed = dynamic_cast<const TypedState<sowing::State>*>(probe.get());
  if (!typed || !solve::kalah_rules_if_any(typed->typed().rules()))
    throw Error("--exact labels Kalah-like rulesets by the Kalah solver; " + game.spec() +
                " is not one");
  return typed->typed().rules();
}

std::string tune_flags(const PitTableArgs& a) {
  char numbers[160];
  std::snprintf(numbers, sizeof numbers,
                " --roots %d --min-seeds %d --max-seeds %d --proof-nodes %llu%s", a.roots,
                a.min_seeds, a.max_seeds, static_cast<unsigned long long>(a.proof_nodes),
                a.no_children ? " --no-children" : "");
  return numbers;
}

// The labelling runs' progress on stderr (exact and search labels alike).
void print_roots_progress(int done, int total) {
  std::fprintf(stderr, "\r%d/%d roots", done, total);
}

// A network's training options (--hidden, --epochs, --seed), with its progress on stderr.
eval::SparseNetTrainOptions net_train_options(const PitTableArgs& a, bool json) {
  eval::SparseNetTrainOptions t;
  t.hidden = a.hidden;
  t.epochs = a.epochs;
  t.seed = a.seed;
  if (!json)
    t.progress = [](int epoch, double train, double held) {
      std::fprintf(stderr, "epoch %d: RMS %.3f trained on, %.3f held out\n", epoch, train, held);
    };
  return t;
}

nlohmann::json net_report(const eval::SparseNetFit& fit, const std::string& out) {
  return {{"train", fit.train},           {"held_out", fit.held_out},
          {"rms_before", fit.rms_before}, {"rms_after", fit.rms_after},
          {"rms_train", fit.rms_train},   {"out", out}};
}

// --exact: the labels extended, then the table (--out) or the network (--net-out) fitted to
// the exact ones.
void exact_labels(const AnyGame& game, const PitTableArgs& a, bool json) {
  const sowing::Rules& rules = kalah_rules_of(game);
  if (a.min_seeds > a.max_seeds) throw Error("--min-seeds is above --max-seeds");
  std::string source;
  const auto db =
      engine::named_or_installed_kalah_db(game, *solve::kalah_rules_if_any(rules), a.db, source);
  engine::ExactLabelOptions o;
  o.roots = a.roots;
  o.min_seeds = a.min_seeds;
  o.max_seeds = a.max_seeds;
  o.children = !a.no_children;
  o.seed = a.seed;
  o.node_limit = a.proof_nodes;
  if (!json) o.progress = print_roots_progress;
  const int roots =
      engine::extend_exact_labels(rules, engine::read_self_play(a.records), db.get(), a.exact, o);
  if (!json) std::fprintf(stderr, "\n");
  int complete = 0;
  const auto labels = engine::read_exact_labels(a.exact, &complete);
  std::vector<eval::LabelledPosition> data;
  int most = 0;
  for (const auto& l : labels) {
    if (!l.exact()) continue;
    data.push_back({sowing::State::from_position(rules, l.position), static_cast<double>(l.low)});
    const auto& s = data.back().state;
    most = std::max(most, rules.total_seeds - s.store(Player::South) - s.store(Player::North));
  }
  const std::string made_by = "naqala tune " + game.spec() + " --records FILE --games " +
                              std::to_string(a.games) + " --seed " + std::to_string(a.seed) +
                              " --engine " + a.engine + " --opening-plies " +
                              std::to_string(a.opening_plies) + " --exact FILE" + tune_flags(a);
  nlohmann::json report{{"variant", game.spec()},
                        {"roots", roots},
                        {"labels", labels.size()},
                        {"exact", data.size()},
                        {"db", source}};
  if (!a.out.empty()) {
    const auto fit = eval::fit_pit_table(rules, data, eval::default_sowing_weights(rules), a.ridge,
                                         a.smooth, {a.late, a.pairs});
    auto e = fit.eval;
    char numbers[128];
    std::snprintf(numbers, sizeof numbers, " --ridge %g --smooth %g%s%s --out FILE", a.ridge,
                  a.smooth, a.late ? " --late" : "", a.pairs ? " --pairs" : "");
    e.made_by = made_by + numbers;
    eval::save_trained_eval(a.out, e);
    report["table"] = {{"positions", fit.positions},
                       {"rms_before", fit.rms_before},
                       {"rms_after", fit.rms_after},
                       {"out", a.out}};
    if (!json)
      std::printf("table: %zu positions; RMS error of the exact labels %.2f -> %.2f seeds; %s\n",
                  fit.positions, fit.rms_before, fit.rms_after, a.out.c_str());
  }
  if (!a.net_out.empty()) {
    const eval::SowingEval shipped(rules);
    const eval::SparseNetTrainOptions t = net_train_options(a, json);
    std::vector<eval::LabelledPosition> net_data = data;
    if (a.net_all) {
      for (const auto& p : engine::read_self_play(a.records)) {
        if (std::abs(p.value) >= 2000) continue;  // a search stopped before its first depth
        auto s = sowing::State::from_position(rules, p.position);
        if (rules.total_seeds - s.store(Player::South) - s.store(Player::North) <= most) continue;
        net_data.push_back(
            {std::move(s), a.final_share * p.margin + (1 - a.final_share) * p.value});
      }
    }
    auto fit = eval::train_kalah_net(
        net_data, a.net_all ? rules.total_seeds : most,
        [&](const sowing::State& s) { return shipped(s) / double(search::kPoint); }, t);
    char share[48];
    std::snprintf(share, sizeof share, " --net-all --final-share %g", a.final_share);
    fit.net.made_by = made_by + (a.net_all ? share : "") + " --hidden " + std::to_string(a.hidden) +
                      " --epochs " + std::to_string(a.epochs) + " --net-out FILE";
    eval::save_kalah_net(a.net_out, fit.net);
    report["net"] = net_report(fit, a.net_out);
    report["net"]["max_seeds"] = fit.net.max_seeds;
    if (!json)
      std::printf(
          "network: %zu positions trained on, %zu held out (at most %d seeds in the pits); RMS "
          "error of the held-out labels %.2f (the evaluation it replaces) -> %.2f seeds (%.2f on "
          "the trained ones); %s\n",
          fit.train, fit.held_out, fit.net.max_seeds, fit.rms_before, fit.rms_after, fit.rms_train,
          a.net_out.c_str());
  }
  if (json)
    std::cout << json_text(report) << "\n";
  else if (a.out.empty() && a.net_out.empty())
    std::printf("%s: %d roots, %zu labels (%zu exact); %s\n", game.spec().c_str(), roots,
                labels.size(), data.size(), a.exact.c_str());
}

// --search-labels (Bao): the labels extended, then the network (--net-out) trained on them.
void search_labels(const AnyGame& game, const PitTableArgs& a, bool json) {
  engine::SearchLabelOptions o;
  o.engine = a.label_engine;
  o.roots = a.roots;
  o.children = a.children;
  o.seed = a.seed;
  if (!json) o.progress = print_roots_progress;
  const int roots =
      engine::extend_search_labels(game, engine::read_self_play(a.records), a.search_labels, o);
  if (!json) std::fprintf(stderr, "\n");
  const auto labels = engine::read_search_labels(a.search_labels);
  nlohmann::json report{{"variant", game.spec()}, {"roots", roots}, {"labels", labels.size()}};
  if (!a.net_out.empty()) {
    std::vector<std::pair<bao::State, double>> data;
    for (const auto& l : labels) {
      const auto state = game.from_position(l.position);
      data.emplace_back(dynamic_cast<const TypedState<bao::State>&>(*state).typed(), l.value);
    }
    const eval::SparseNetTrainOptions t = net_train_options(a, json);
    auto fit =
        eval::train_bao_net(data, engine::board4_played_eval<eval::BaoEval>(game), a.counts, t);
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, " --roots %d%s --counts %d --hidden %d --epochs %d",
                  a.roots, a.children ? " --children" : "", a.counts, a.hidden, a.epochs);
    fit.net.made_by = "naqala tune " + game.spec() + " --records FILE --games " +
                      std::to_string(a.games) + " --seed " + std::to_string(a.seed) + " --engine " +
                      a.engine + " --opening-plies " + std::to_string(a.opening_plies) +
                      " --search-labels FILE --label-engine " + a.label_engine + numbers +
                      " --net-out FILE";
    eval::save_bao_net(a.net_out, fit.net);
    report["net"] = net_report(fit, a.net_out);
    if (!json)
      std::printf(
          "network: %zu positions trained on, %zu held out; RMS error of the held-out labels "
          "%.2f (the evaluation it corrects) -> %.2f seeds (%.2f on the trained ones); %s\n",
          fit.train, fit.held_out, fit.rms_before, fit.rms_after, fit.rms_train, a.net_out.c_str());
  }
  if (json)
    std::cout << json_text(report) << "\n";
  else if (a.net_out.empty())
    std::printf("%s: %d roots, %zu labels; %s\n", game.spec().c_str(), roots, labels.size(),
                a.search_labels.c_str());
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
  if (!a.exact.empty()) kalah_rules_of(game);  // refused before any game is played
  if (!a.search_labels.empty() && !dynamic_cast<const TypedState<bao::State>*>(probe.get()))
    throw Error("--search-labels trains Bao's network; " + game.spec() + " is not Bao");
  if (!a.exact.empty() && !a.search_labels.empty())
    throw Error("--exact and --search-labels are labels of two games: give one");
  if (!a.net_out.empty() && a.exact.empty() && a.search_labels.empty())
    throw Error(
        "--net-out trains on labels: give --exact FILE (Kalah) or --search-labels FILE (Bao)");
  engine::SelfPlayOptions o;
  o.engine = a.engine;
  o.games = a.games;
  o.seed = a.seed;
  o.opening_plies = a.opening_plies;
  if (!json)
    o.progress = [](int done, int total) { std::fprintf(stderr, "\r%d/%d games", done, total); };
  engine::extend_self_play(game, a.records, o);
  if (!json) std::fprintf(stderr, "\n");
  if (!a.exact.empty()) return exact_labels(game, a, json);
  if (!a.search_labels.empty()) return search_labels(game, a, json);
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
