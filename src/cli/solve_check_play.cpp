// `naqala solve VARIANT --check-play N --db FILE [--engine SPEC] [--seed S] [--check-seeds M]`:
// the end-of-game accuracy check of engine/db_play_check.h, on a sowing database or (Kalah-like
// rulesets) the Kalah solver with its database.
#include <iostream>

#include "cli/common.h"
#include "cli/solve_sowing.h"
#include "core/error.h"
#include "engine/db_play_check.h"

namespace naqala::cli {

namespace {

engine::PlayCheckOptions check_options(const SolveArgs& a) {
  engine::PlayCheckOptions o;
  o.positions = a.check_play;
  o.seed = a.seed;
  o.referee_nodes = a.referee_nodes;
  o.max_seeds = a.check_seeds;
  return o;
}

std::string miss_line(const engine::PlayMiss& m) {
  return m.position + ": played " + m.move + " (margin in [" + std::to_string(m.move_low) + ", " +
         std::to_string(m.move_high) + "]), best " + std::to_string(m.value) +
         (m.proven_worse() ? ", worse" : ", not proven either way");
}

// Each miss is told as it is found: a long check stopped early keeps its misses in the log.
engine::PlayCheckProgress progress_printer(const SolveArgs& a) {
  if (a.json) return {};
  return [told = std::size_t{0}](const engine::PlayCheck& p) mutable {
    for (; told < p.misses.size(); ++told)
      std::cerr << "  miss: " << miss_line(p.misses[told]) << "\n";
    if (p.checked % 50 == 0)
      std::cerr << p.checked << " positions: " << p.optimal << " optimal, " << p.result_kept
                << " keep the result, " << fixed(p.seconds, 0) << " s\n";
  };
}

void report(const AnyGame& game, const std::string& spec, int max_seeds, const SolveArgs& a,
            const engine::PlayCheck& r) {
  nlohmann::json misses = nlohmann::json::array();
  for (const auto& m : r.misses)
    misses.push_back({{"position", m.position},
                      {"move", m.move},
                      {"value", m.value},
                      {"move_low", m.move_low},
                      {"move_high", m.move_high},
                      {"proven_worse", m.proven_worse()},
                      {"keeps_result", m.keeps_result()},
                      {"optimal_moves", m.optimal_moves}});
  if (a.json) {
    std::cout << nlohmann::json{{"variant", game.spec()},       {"engine", spec},
                                {"db_seeds", max_seeds},        {"seed", a.seed},
                                {"checked", r.checked},         {"optimal", r.optimal},
                                {"result_kept", r.result_kept}, {"forced", r.forced},
                                {"unsettled", r.unsettled},     {"misses", misses},
                                {"seconds", r.seconds}}
                     .dump()
              << "\n";
    return;
  }
  std::cout << game.spec() << ", " << spec << ": the engine's move was optimal in " << r.optimal
            << " of " << r.checked << " positions of 1-" << max_seeds
            << " seeds and kept the result in " << r.result_kept << " (" << r.forced
            << " positions with one move and " << r.unsettled
            << " the referee did not settle were drawn again; " << fixed(r.seconds, 0) << " s)\n";
  for (const auto& m : r.misses) std::cout << "  " << miss_line(m) << "\n";
}

}  // namespace

void check_play_command(const AnyGame& game, const sowing::State& s, const SolveArgs& a) {
  if (a.db.empty()) throw Error("--check-play needs --db FILE (a database built by --build-db)");
  const auto db = solve::SowingDb::load(a.db);
  db.check_rules(s.rules());
  const std::string spec = a.engine.empty() ? "alphabeta:db=" + a.db : a.engine;
  auto engine = engine::make_engine(game, spec);
  const auto r = engine::check_play(game, *engine, db, check_options(a), progress_printer(a));
  const int seeds = a.check_seeds > 0 ? std::min(a.check_seeds, db.max_seeds()) : db.max_seeds();
  report(game, spec, seeds, a, r);
}

void check_play_kalah_command(const AnyGame& game, const solve::EndgameDb& db, const SolveArgs& a) {
  const std::string spec = !a.engine.empty() ? a.engine
                           : a.db.empty()    ? "alphabeta:time=1"
                                             : "alphabeta:db=" + a.db;
  auto engine = engine::make_engine(game, spec);
  auto o = check_options(a);
  o.referee_seconds = a.time;
  const auto r = engine::check_play_kalah(game, *engine, db, o, progress_printer(a));
  report(game, spec, a.check_seeds > 0 ? a.check_seeds : db.max_seeds(), a, r);
}

}  // namespace naqala::cli
