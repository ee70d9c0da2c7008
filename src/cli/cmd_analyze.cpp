// naqala analyze VARIANT [--position P] [--record F] [--moves ...] [--time S] [--depth D]
//                        [--engine SPEC] [--json]
// The best move, its value, the principal variation and a score for every legal move.
#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>

#include "cli/backgammon_hint.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "core/json_text.h"
#include "engine/engine.h"
#include "engine/installed_db.h"
#include "games/backgammon/backgammon.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "solve/kalah_solver.h"
#include "solve/sowing_solve.h"

namespace naqala::cli {

namespace {

// "+3.25 seeds" or "wins by 10" for a proven value.
std::string describe(double value) {
  if (value >= 999) return "wins by " + fixed(value - 1000, 0);
  if (value <= -999) return "loses by " + fixed(-value - 1000, 0);
  return (value >= 0 ? "+" : "") + fixed(value, 2);
}

// A margin proof (the Kalah solver's or the sowing database search's) as the engine reports it.
engine::Proof to_proof(const auto& m) {
  engine::Proof p;
  p.decided = m.decided();
  p.exact = m.exact();
  p.low = m.low;
  p.high = m.high;
  p.nodes = m.nodes;
  p.seconds = m.seconds;
  return p;
}

// Kalah-like rulesets go to the exact solver of src/solve (a database from `db`, else the one
// installed for the preset, else a small one built in memory), every other one to the engine's
// AND/OR prover.
engine::Proof prove(const AnyGame& game, const AnyState& state, double seconds,
                    const std::string& db_file) {
  const auto* typed = dynamic_cast<const TypedState<sowing::State>*>(&state);
  std::optional<solve::KalahRules> rules;
  if (typed) {
    try {
      rules = solve::kalah_rules(typed->typed().rules());
    } catch (const VariantError&) {  // not Kalah-like: the generic prover
    }
  }
  if (!rules) {
    if (db_file.empty()) return engine::prove(state, seconds);
    if (!typed) throw Error("--db works with two-row sowing rulesets only (the endgame databases)");
    // Oware, Awale, ...: the search on top of the database, bounded by the time (30 s).
    const auto db = solve::SowingDb::load(db_file);
    const auto m = solve::solve_sowing(typed->typed(), &db, seconds > 0 ? seconds : 30);
    return to_proof(m);
  }
  const sowing::State& s = typed->typed();
  std::string source;
  auto db = engine::named_or_installed_kalah_db(game, *rules, db_file, source);
  if (!db) db = std::make_shared<const solve::EndgameDb>(solve::EndgameDb::build(*rules, 12, 2));
  solve::Solver solver(*rules, s.rules().total_seeds, db.get(), 256);
  const auto m = solve::prove_margin(s, solver, seconds);
  return to_proof(m);
}

// Engine options that set a limit of their own.
constexpr std::array<std::string_view, 4> kLimitKeys = {"time=", "depth=", "nodes=", "sims="};

}  // namespace

void add_analyze_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("analyze", "Best move, value, principal variation and every move's score");
  struct Args {
    std::string variant, db, engine = "alphabeta";
    StartFlags start;
    double time = 0;
    int depth = 0;
    int threads = 0;
    int multipv = 1;
    bool json = false;
    bool prove = false;
    bool engine_given = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "Variant, e.g. oware or kalah:seeds=6")->required();
  add_start_flags(cmd, a->start, "Analyse this position");
  cmd->add_option("--time", a->time, "Seconds to think (default 2 when no --depth)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--depth", a->depth, "Search to this depth in plies")->check(CLI::Range(1, 127));
  cmd->add_option("--threads", a->threads, "Search threads (default 1)")->check(CLI::Range(1, 256));
  cmd->add_option("--multipv", a->multipv,
                  "Give the N best moves exact values and lines (default 1: the others get "
                  "upper bounds, which is faster)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--engine", a->engine,
                  "Engine spec: alphabeta[:...] (default), mcts[:...], level:N (backgammon: "
                  "level:8 by default, printed as gnubg's hint; net:...)")
      ->each([a](const std::string&) { a->engine_given = true; });
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->add_flag("--prove", a->prove,
                "Prove the result and the margin by search to the end (Kalah-like games; --time "
                "limits it)");
  cmd->add_option("--db", a->db,
                  "An endgame database (naqala solve VARIANT --build-db K): the alpha-beta "
                  "engine probes it (values it settles are marked proven), --prove uses it (Kalah: "
                  "without it, the installed database if any, docs/engines.md)");
  cmd->callback([a] {
    Loaded l = load_state(a->variant, a->start);
    if (l.state->is_over())
      throw Error("the game is over (" + l.state->outcome().result_tag() +
                  "); there is nothing to analyse");
    if (a->prove) {
      const auto p = prove(*l.game, *l.state, a->time, a->db);
      const std::string who(name(l.state->to_move()));
      const std::string verdict =
          p.decided ? proof_verdict(who, p.low, p.high) : "not decided within the time";
      const std::string margin =
          p.exact ? "exactly " + std::to_string(p.low)
                  : "in [" + std::to_string(p.low) + ", " + std::to_string(p.high) + "]";
      if (a->json) {
        std::cout << json_text(nlohmann::json{{"variant", l.game->spec()},
                                              {"position", l.state->position()},
                                              {"to_move", who},
                                              {"decided", p.decided},
                                              {"exact", p.exact},
                                              {"margin_low", p.low},
                                              {"margin_high", p.high},
                                              {"verdict", verdict},
                                              {"nodes", p.nodes},
                                              {"seconds", p.seconds}})
                  << "\n";
        return;
      }
      std::cout << l.game->spec() << " " << l.state->position() << ": " << verdict << "; " << who
                << "'s final margin is " << margin << " (" << p.nodes << " nodes, "
                << fixed(p.seconds, 1) << " s)\n";
      return;
    }
    if (const auto* bg = dynamic_cast<const TypedState<backgammon::State>*>(l.state.get());
        bg && (!a->engine_given || a->engine.starts_with("level:"))) {
      // Backgammon: gnubg's hint from the neural engine at the level (default 8).
      int level = 8;
      if (a->engine_given && std::sscanf(a->engine.c_str(), "level:%d", &level) != 1)
        throw Error("--engine " + a->engine + ": write level:N with N from 1 to 10");
      engine::NetEngineConfig c = engine::backgammon_level(level);
      if (a->depth > 0) c.search.plies = std::min(a->depth, 3);
      if (a->time > 0) c.search.seconds = a->time;
      if (a->threads > 0) c.search.threads = a->threads;
      const auto hint = backgammon_hint(bg->typed(), c);
      if (a->json)
        std::cout << hint.dump() << "\n";
      else
        std::cout << l.state->render() << format_backgammon_hint(hint);
      return;
    }
    std::string spec = a->engine;
    if (a->threads > 0) {
      if (!spec.starts_with("alphabeta") && !spec.starts_with("mcts"))
        throw Error("--threads works with the alphabeta and mcts engines, not '" + spec + "'");
      spec += (spec.find(':') == std::string::npos ? ":" : ",") + std::string("threads=") +
              std::to_string(a->threads);
    }
    if (!a->db.empty()) {
      if (!spec.starts_with("alphabeta"))
        throw Error("--db works with the alphabeta engine, not '" + spec + "'");
      spec += (spec.find(':') == std::string::npos ? ":" : ",") + std::string("db=") + a->db;
    }
    auto engine = engine::make_engine(*l.game, spec);
    engine::Limits limits;
    limits.depth = a->depth;
    limits.multipv = a->multipv;
    // A level, or a spec with its own limit, keeps it; otherwise 2 s.
    const bool own_limit = spec.starts_with("level") ||
                           std::any_of(kLimitKeys.begin(), kLimitKeys.end(), [&](auto key) {
                             return spec.find(key) != std::string::npos;
                           });
    limits.seconds = a->time > 0 ? a->time : (a->depth > 0 || own_limit ? 0 : 2);
    const auto r = engine->analyze(*l.state, limits);
    const double nps = r.seconds > 0 ? r.nodes / r.seconds : 0;
    if (a->json) {
      nlohmann::json scores = nlohmann::json::array();
      for (const auto& s : r.scores) {
        nlohmann::json one{{"move", s.move}, {"value", s.value}};
        if (!s.exact) one["bound"] = "upper";
        scores.push_back(one);
      }
      std::cout << json_text(nlohmann::json{{"variant", l.game->spec()},
                                            {"position", l.state->position()},
                                            {"to_move", std::string(name(l.state->to_move()))},
                                            {"engine", engine->name()},
                                            {"best_move", r.best_move},
                                            {"value", r.value},
                                            {"proven", r.proven},
                                            {"book", r.from_book},
                                            {"pv", r.pv},
                                            {"scores", scores},
                                            {"depth", r.depth},
                                            {"nodes", r.nodes},
                                            {"seconds", r.seconds},
                                            {"nodes_per_second", nps}})
                << "\n";
      return;
    }
    std::cout << l.state->render();
    std::cout << name(l.state->to_move()) << " to move; best move " << r.best_move << ", value "
              << describe(r.value) << (r.proven ? " (proven)" : "") << "\n";
    std::cout << "principal variation: " << join_moves(r.pv) << "\n";
    std::cout << "every move (value for " << name(l.state->to_move()) << "):\n";
    for (const auto& s : r.scores)
      std::cout << "  " << s.move << "  " << (s.exact ? "" : "at most ") << describe(s.value)
                << "\n";
    if (r.from_book)
      std::cout << "from the opening book (every move scored by its search; book=none searches "
                   "instead); the book's line goes on "
                << r.depth << " plies, engine " << engine->name() << "\n";
    else
      std::cout << "depth " << r.depth << ", " << r.nodes << " nodes in " << fixed(r.seconds, 3)
                << " s (" << static_cast<std::uint64_t>(nps) << " nodes/s), engine "
                << engine->name() << "\n";
    std::cout << "values are in seeds (points) for the player to move; a proven result reads "
                 "\"wins by N\"\n";
  });
}

}  // namespace naqala::cli
