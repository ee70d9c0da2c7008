// naqala rules VARIANT: the rules of a variant in plain English.
// naqala rules VARIANT --check: plays random games of it (a user's TOML file, most of all) and
// reports games that do not end, positions with no move that are not over, and game lengths.
#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/rng.h"
#include "games/registry.h"
#include "play/match_rules.h"

namespace naqala::cli {

namespace {

struct CheckArgs {
  std::string variant;
  bool check = false, json = false;
  int games = 1000, max_plies = 5000;
  std::uint64_t seed = 1;
};

struct CheckReport {
  int ended = 0, stuck = 0, endless = 0;
  std::vector<int> lengths;  // of the games that ended
  std::string stuck_example, endless_example;
};

// One random game from the start: its length, or a stuck position, or the ply cap reached.
void check_one(const AnyGame& game, int max_plies, Rng& rng, CheckReport& out) {
  auto s = game.new_game();
  for (int plies = 0;;) {
    if (s->is_over()) {
      ++out.ended;
      out.lengths.push_back(plies);
      return;
    }
    if (s->is_chance_node()) {
      s->apply_chance(s->sample_chance(rng));
      continue;
    }
    if (plies >= max_plies) {
      if (out.endless++ == 0) out.endless_example = s->position();
      return;
    }
    const auto moves = s->legal_moves();
    if (moves.empty()) {
      if (out.stuck++ == 0) out.stuck_example = s->position();
      return;
    }
    s->play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    ++plies;
  }
}

// Exit status 1 when a game got stuck or did not end.
void run_check(const CheckArgs& a) {
  auto game = make_game(a.variant);
  Rng rng(a.seed);
  CheckReport r;
  for (int g = 0; g < a.games; ++g) check_one(*game, a.max_plies, rng, r);
  std::sort(r.lengths.begin(), r.lengths.end());
  const auto at = [&](double q) {
    return r.lengths.empty() ? 0 : r.lengths[static_cast<std::size_t>(q * (r.lengths.size() - 1))];
  };
  double mean = 0;
  for (int n : r.lengths) mean += n;
  if (!r.lengths.empty()) mean /= static_cast<double>(r.lengths.size());
  if (a.json) {
    std::cout << json_text(nlohmann::json{
                     {"variant", game->spec()},
                     {"games", a.games},
                     {"ended", r.ended},
                     {"stuck", r.stuck},
                     {"stuck_example", r.stuck_example},
                     {"endless", r.endless},
                     {"endless_example", r.endless_example},
                     {"max_plies", a.max_plies},
                     {"plies",
                      {{"min", at(0)}, {"median", at(0.5)}, {"mean", mean}, {"max", at(1)}}}})
              << "\n";
  } else {
    std::cout << game->spec() << ": " << a.games << " random games, " << r.ended << " ended";
    if (!r.lengths.empty())
      std::cout << " in " << at(0) << " to " << at(1) << " plies (median " << at(0.5) << ", mean "
                << fixed(mean, 1) << ")";
    std::cout << "\n";
    if (r.stuck)
      std::cout << "  " << r.stuck
                << " reached a position with no legal move that is not over, e.g. "
                << r.stuck_example << "\n";
    if (r.endless)
      std::cout << "  " << r.endless << " did not end in " << a.max_plies
                << " plies (a loop?), e.g. at " << r.endless_example << "\n";
    if (!r.stuck && !r.endless) std::cout << "  no stuck position, every game ended\n";
  }
  if (r.stuck || r.endless) throw CheckFailed();
}

}  // namespace

void add_rules_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("rules", "Print the rules of a variant in plain English");
  auto a = std::make_shared<CheckArgs>();
  cmd->add_option("variant", a->variant, "Variant, e.g. oware or kalah:seeds=6 or my.toml")
      ->required();
  cmd->add_flag("--check", a->check,
                "Play random games instead: report games that do not end, positions with no "
                "move that are not over, and game lengths (exit status 1 on a problem)");
  cmd->add_option("--games", a->games, "--check: how many games")->check(CLI::Range(1, 1000000));
  cmd->add_option("--max-plies", a->max_plies, "--check: a game longer than this has not ended")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--seed", a->seed, "--check: the random seed");
  cmd->add_flag("--json", a->json, "--check: print JSON");
  cmd->callback([a] {
    if (a->check) return run_check(*a);
    // Wrapped to the terminal (80 columns when the output goes to a file or a pipe).
    const auto game = make_game(a->variant);
    std::cout << wrap(game->rules_text(), terminal_width());
    // The rules' own match and tournament rules, where the seeds give them.
    if (const auto t = play::match_rules_text(play::match_rules(game->info())); !t.empty())
      std::cout << "\n" << wrap(t + "\n", terminal_width());
  });
}

}  // namespace naqala::cli
