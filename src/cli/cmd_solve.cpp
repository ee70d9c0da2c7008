// naqala solve VARIANT [--position P] [--record F] [--moves ...] [--db FILE] [--db-seeds K]
//                      [--table MB] [--time S] [--result-only] [--json]
// naqala solve VARIANT --build-db K [--db FILE] [--threads T]   (also under mpirun -np N)
// naqala solve VARIANT --db-stats --db FILE [--json]
// Two-row sowing games solved exactly: endgame databases of the retrograde engine of
// src/solve/, with Kalah's MTD(f) solver on top for Kalah-like rulesets and a bounded search
// on top for the others (Oware, Awale, Bantumi, TOML variants).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/solve_sowing.h"
#include "core/error.h"
#include "core/json_text.h"
#include "engine/installed_db.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "solve/kalah_db.h"
#include "solve/kalah_solver.h"

namespace naqala::cli {

namespace {

const sowing::State& sowing_of(const Loaded& l) {
  const auto* t = dynamic_cast<const TypedState<sowing::State>*>(l.state.get());
  if (!t) throw VariantError("the solver knows two-row sowing games only, not " + l.game->spec());
  return t->typed();
}

// The in-memory database for a solve within `seconds` (0 = no limit), which its build counts
// against: the build stops after the level past which it would use more than a third of the
// time (the next level's time is foreseen from the growth of the last ones), and builds that
// many levels again (the build cannot be kept when stopped; the second build costs about as
// much as the first), leaving the search at least a third.
solve::EndgameDb build_within(const solve::KalahRules& rules, int max_seeds, int threads,
                              double seconds) {
  if (seconds <= 0) return solve::EndgameDb::build(rules, max_seeds, threads);
  struct OutOfTime {};
  int done = -1;
  double last_seconds = 0, last_level_seconds = 0;
  std::uint64_t last_boards = 0, last_level_boards = 0;
  try {
    return solve::EndgameDb::build(
        rules, max_seeds, threads, [&](int level, std::uint64_t boards, double spent) {
          done = level;
          const double level_seconds = spent - last_seconds;
          const std::uint64_t level_boards = boards - last_boards;
          const double growth = last_level_boards > 0 && last_level_seconds > 0
                                    ? static_cast<double>(level_boards) / last_level_boards
                                    : 4.0;
          last_seconds = spent;
          last_level_seconds = level_seconds;
          last_boards = boards;
          last_level_boards = level_boards;
          if (level < max_seeds && spent + level_seconds * growth > seconds / 3) throw OutOfTime{};
        });
  } catch (const OutOfTime&) {
    return solve::EndgameDb::build(rules, done, threads);
  }
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "solve",
      "Solve a two-row sowing position exactly (endgame databases, MTD(f) for Kalah, a bounded "
      "search for Oware and the others)");
  struct Args {
    std::string variant, db;
    StartFlags start;
    int build_db = -1, db_seeds = 14, threads = 2;
    std::size_t table_mb = 1024;
    double time = 0;
    bool result_only = false, json = false, db_stats = false;
    int check_play = 0;
    std::string engine;
    std::uint64_t seed = 1, referee_nodes = 2'000'000;
    int check_seeds = 0;
    std::string from_db;
  };
  auto a = std::make_shared<Args>();
  auto solve_args = [](const Args& a) {
    SolveArgs s{a.db,     a.build_db,   a.db_seeds, a.threads, a.time,          a.db_stats,
                a.json,   a.check_play, a.engine,   a.seed,    a.referee_nodes, a.check_seeds,
                a.from_db};
    return s;
  };
  cmd->add_option("variant", a->variant,
                  "Variant: kalah[:seeds=N,empty_capture=true], oware[:options], awale, "
                  "bantumi or a TOML variant of that shape")
      ->required();
  add_start_flags(cmd, a->start, "Solve this position");
  cmd->add_option("--build-db", a->build_db,
                  "Build the endgame database of every board with up to K seeds in the pits, "
                  "save it to --db and exit")
      ->check(CLI::Range(0, 127));
  cmd->add_option("--db", a->db,
                  "Database file: written by --build-db (default kalah-<P>pits-<K>seeds.db, "
                  "<variant>-<K>seeds.db), read (memory-mapped) when solving; an interrupted "
                  "build of a non-Kalah ruleset resumes from the levels kept in FILE.levels/");
  cmd->add_option("--from-db", a->from_db,
                  "With --build-db K (not Kalah): take the levels of this smaller database of the "
                  "same rules instead of building them again (e.g. --from-db oware-24seeds.db "
                  "--build-db 25 builds only level 25)")
      ->check(kNotEmpty);
  cmd->add_option("--db-seeds", a->db_seeds,
                  "Without --db: build a database of up to K seeds in memory first (default 14 "
                  "for Kalah, 12 for the others; without either, Kalah takes the installed "
                  "database if there is one: NAQALA_KALAH_DB or data/kalah/db/)")
      ->check(CLI::Range(0, 24));
  cmd->add_option("--threads", a->threads, "Threads building the database (default 2)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--table", a->table_mb, "Transposition table in MiB (default 1024)")
      ->check(CLI::Range(1, 65536));
  cmd->add_option(
         "--time", a->time,
         "Give up after this many seconds (default: no limit for Kalah, 30 for the others)")
      ->check(CLI::Range(0.0, 864000.0));
  cmd->add_flag("--db-stats", a->db_stats,
                "Print the boards, exact values and won/drawn/lost counts of each level of --db");
  cmd->add_option("--check-play", a->check_play,
                  "Play the engine (--engine) in N random positions inside --db (Kalah: of up "
                  "to --check-seeds seeds) and count how often its move is optimal (the referee: "
                  "this command's search, for Oware and the others with a node budget, "
                  "--referee-nodes; for Kalah exact, each position within --time if given)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--check-seeds", a->check_seeds,
                  "With --check-play: positions of at most this many seeds in the pits (default "
                  "the database's K; Kalah may go past it, its solver settles them)")
      ->check(CLI::Range(1, 127));
  cmd->add_option("--engine", a->engine,
                  "With --check-play: the engine spec (default alphabeta:db=<--db>; Kalah "
                  "without --db: alphabeta:time=1)");
  cmd->add_option("--seed", a->seed, "With --check-play: seed of the random positions (default 1)");
  cmd->add_option("--referee-nodes", a->referee_nodes,
                  "With --check-play: nodes the referee may search a position (default 2000000; "
                  "a position it does not settle is replaced by another)")
      ->check(CLI::Range(std::uint64_t{1000}, std::uint64_t{1} << 40));
  cmd->add_flag("--result-only", a->result_only,
                "Stop once win, draw or loss is proven, without pinning the margin");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a, cmd, solve_args] {
    Loaded l = load_state(a->variant, a->start);
    const sowing::State& s = sowing_of(l);
    std::optional<solve::KalahRules> kalah;
    try {
      kalah = solve::kalah_rules(s.rules());
    } catch (const VariantError&) {
      if (cmd->count("--db-seeds") == 0) a->db_seeds = 12;
      // A database build (--build-db) runs to its end unless --time is given.
      if (cmd->count("--time") == 0 && a->build_db < 0) a->time = 30;
      return solve_sowing_command(*l.game, s, solve_args(*a));
    }
    const solve::KalahRules rules = *kalah;
    if (!a->from_db.empty())
      throw Error("--from-db extends the databases of Oware and the other non-Kalah rulesets; " +
                  l.game->spec() + " builds its Kalah database (--build-db K) in one go");
    if (a->check_play > 0) {
      if (a->build_db >= 0 || a->db_stats)
        throw Error("--check-play takes --db FILE or builds --db-seeds K in memory; not with " +
                    std::string(a->build_db >= 0 ? "--build-db" : "--db-stats"));
      // The referee's database: --db, else --db-seeds K built in memory (never the installed
      // one: the check names what it is measured against).
      std::string source;
      const auto db = a->db.empty()
                          ? std::make_shared<const solve::EndgameDb>(
                                solve::EndgameDb::build(rules, a->db_seeds, a->threads))
                          : engine::named_or_installed_kalah_db(*l.game, rules, a->db, source);
      return check_play_kalah_command(*l.game, *db, solve_args(*a));
    }

    if (a->build_db >= 0) {
      const std::string path = a->db.empty() ? solve::default_db_name(rules, a->build_db) : a->db;
      const auto start = std::chrono::steady_clock::now();
      auto since = [](auto t) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
      };
      // Say first what it will cost (one byte a board, in memory and on disk), then how far it
      // is after each level, with the time left at the rate so far.
      const std::uint64_t total =
          solve::Compositions(rules.pits, a->build_db).offset(a->build_db + 1);
      if (!a->json)
        std::cerr << "building " << path << ": " << total << " boards ("
                  << fixed((total + 4096) / 1048576.0, 1) << " MiB in memory and on disk) with "
                  << a->threads << " threads; the largest levels take the longest, and nothing is "
                  << "written before the end\n";
      auto progress = [&](int level, std::uint64_t boards, double seconds) {
        if (a->json) return;
        const double share =
            static_cast<double>(boards) / static_cast<double>(std::max<std::uint64_t>(total, 1));
        std::cerr << "database: " << level << "/" << a->build_db << " seeds done, " << boards
                  << " boards (" << fixed(100 * share, 1) << "%), " << fixed(seconds, 1) << " s";
        if (share > 0 && share < 1)
          std::cerr << ", at least " << fixed(seconds * (1 - share) / share, 0) << " s left";
        std::cerr << "\n";
      };
      const auto db = solve::EndgameDb::build(rules, a->build_db, a->threads, progress);
      const double build_seconds = since(start);
      const auto saved = std::chrono::steady_clock::now();
      db.save(path);
      const double save_seconds = since(saved);
      if (a->json) {
        std::cout << json_text(nlohmann::json{{"db", path},
                                              {"pits", rules.pits},
                                              {"max_seeds", a->build_db},
                                              {"boards", db.size()},
                                              {"bytes", db.size() + 4096},
                                              {"build_seconds", build_seconds},
                                              {"save_seconds", save_seconds}})
                  << "\n";
      } else {
        std::cout << "wrote " << path << ": every board of " << rules.pits
                  << " pits a side with up to " << a->build_db << " seeds, " << db.size()
                  << " boards (" << fixed((db.size() + 4096) / 1048576.0, 1) << " MiB), built in "
                  << fixed(build_seconds, 1) << " s with " << a->threads << " threads\n";
      }
      return;
    }

    if (s.is_over())
      throw Error("the game is over (" + s.outcome().result_tag() + "); there is nothing to solve");
    const auto start = std::chrono::steady_clock::now();
    // --db, else the installed database unless --db-seeds asks for one built in memory.
    std::string source;
    std::shared_ptr<const solve::EndgameDb> db;
    if (!a->db.empty() || cmd->count("--db-seeds") == 0)
      db = engine::named_or_installed_kalah_db(*l.game, rules, a->db, source);
    if (!db)
      db = std::make_shared<const solve::EndgameDb>(
          build_within(rules, a->db_seeds, a->threads, a->time));
    solve::Solver solver(rules, s.rules().total_seeds, db.get(), a->table_mb);
    const std::string who(name(s.to_move()));
    // --time counts from the start, database included (0 = no limit; a spent budget leaves the
    // search a moment, enough for the bounds it has).
    const double left = a->time <= 0
                            ? 0
                            : std::max(1e-3, a->time - std::chrono::duration<double>(
                                                           std::chrono::steady_clock::now() - start)
                                                           .count());
    const auto p = solve::prove_margin(s, solver, left, a->result_only, [&](const auto& step) {
      if (!a->json)
        std::cerr << "proved: " << who << "'s margin in [" << step.low << ", " << step.high << "] ("
                  << step.nodes << " nodes, " << fixed(step.seconds, 1) << " s)\n";
    });
    const std::string verdict = proof_verdict(who, p.low, p.high);
    if (a->json) {
      std::cout << json_text(nlohmann::json{{"variant", l.game->spec()},
                                            {"position", s.position()},
                                            {"to_move", who},
                                            {"decided", p.decided()},
                                            {"exact", p.exact()},
                                            {"margin_low", p.low},
                                            {"margin_high", p.high},
                                            {"verdict", verdict},
                                            {"best_move", p.best_move},
                                            {"nodes", p.nodes},
                                            {"seconds", p.seconds},
                                            {"db_seeds", db->max_seeds()},
                                            {"db", source}})
                << "\n";
      return;
    }
    const std::string m =
        p.exact() ? "exactly " + std::to_string(p.low)
                  : "in [" + std::to_string(p.low) + ", " + std::to_string(p.high) + "]";
    std::cout << l.game->spec() << " " << s.position() << ": " << verdict << "; " << who
              << "'s final margin is " << m;
    if (!p.best_move.empty()) std::cout << "; best move " << p.best_move;
    std::cout << " (" << p.nodes << " nodes, " << fixed(p.seconds, 1) << " s, database of "
              << db->max_seeds() << " seeds"
              << (source.empty() ? ", built in memory" : ": " + source) << ")\n";
  });
}

}  // namespace naqala::cli
