#include "cli/solve_sowing.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/common.h"
#include "core/error.h"
#include "solve/mpi.h"
#include "solve/sowing_db.h"
#include "solve/sowing_solve.h"

namespace naqala::cli {

namespace {

// True once `seconds` have passed since now: the database build's stop hook (--time).
std::function<bool()> deadline(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  return [end] { return std::chrono::steady_clock::now() >= end; };
}

std::string duration(double seconds) {
  if (seconds < 0 || seconds > 1e7) return "?";
  const long s = static_cast<long>(seconds + 0.5);
  char out[32];
  if (s >= 3600)
    std::snprintf(out, sizeof out, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else
    std::snprintf(out, sizeof out, "%ldm%02lds", s / 60, s % 60);
  return out;
}

// A progress bar on a terminal (at most five redraws a second); one line per level otherwise.
class ProgressBar {
 public:
  explicit ProgressBar(bool quiet) : quiet_(quiet), tty_(::isatty(2) != 0) {}

  void operator()(const solve::retro::Progress& p) {
    if (quiet_) return;
    const bool level_done = p.done == p.level_boards && p.boards_before > 0 &&
                            p.boards_before >= p.level_boards && last_level_ != p.level;
    const auto now = std::chrono::steady_clock::now();
    if (!level_done && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    // Boards of complete levels plus this pass's share of the current one; the time left
    // assumes the remaining boards go at the rate so far (later levels need more passes).
    const double finished =
        static_cast<double>(p.boards_before) + (level_done ? 0.0 : static_cast<double>(p.done) / 2);
    const double fraction = p.total ? std::min(1.0, finished / static_cast<double>(p.total)) : 1;
    const double rate = p.seconds > 0 ? (p.evaluations + (level_done ? 0 : p.done)) / p.seconds : 0;
    const double left = fraction > 0 ? p.seconds * (1 - fraction) / fraction : -1;
    char line[320];
    if (level_done) {
      last_level_ = p.level;
      // Under MPI: how many boards' bounds were sent to the ranks that read them (8 bytes
      // each, every rank's messages counted), how many boards of other ranks' slices of the
      // level rank 0 reads (its ghosts), and how many values of lower levels rank 0 reads and
      // asked of the others before the level (8 bytes out, 2 back each).
      char sent[192] = "";
      if (p.level_sent || p.level_lower)
        std::snprintf(sent, sizeof sent,
                      ", %llu bounds sent, %llu boards of other slices read, %llu values of "
                      "lower levels read (%llu fetched)",
                      static_cast<unsigned long long>(p.level_sent),
                      static_cast<unsigned long long>(p.level_ghosts),
                      static_cast<unsigned long long>(p.level_lower),
                      static_cast<unsigned long long>(p.level_fetched));
      // The level's own wall and CPU seconds (this process's: rank 0's under MPI), for the
      // boards per CPU second of a build that other jobs share the machine with.
      const double cpu = cpu_seconds();
      std::snprintf(line, sizeof line,
                    "level %d done: %llu boards in %d passes, %llu boards expanded%s, %.1f s "
                    "(this level %.1f s, %.1f CPU s)",
                    p.level, static_cast<unsigned long long>(p.level_boards), p.pass,
                    static_cast<unsigned long long>(p.level_evaluations), sent, p.seconds,
                    p.seconds - level_start_, cpu - level_cpu_);
      level_start_ = p.seconds;
      level_cpu_ = cpu;
      std::cerr << (tty_ ? "\r\033[K" : "") << line << "\n";
      return;
    }
    if (!tty_) return;
    const int width = 30, filled = static_cast<int>(fraction * width);
    std::string bar(filled, '#');
    bar += std::string(width - filled, '.');
    std::snprintf(line, sizeof line, "[%s] level %d pass %d: %llu/%llu boards, %.2fM/s, %s left",
                  bar.c_str(), p.level, p.pass, static_cast<unsigned long long>(p.done),
                  static_cast<unsigned long long>(p.level_boards), rate / 1e6,
                  duration(left).c_str());
    std::cerr << "\r\033[K" << line << std::flush;
  }

 private:
  static double cpu_seconds() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }

  bool quiet_, tty_;
  int last_level_ = -1;
  double level_start_ = 0, level_cpu_ = cpu_seconds();
  std::chrono::steady_clock::time_point last_{};
};

void print_stats(const solve::SowingDb& db, bool json) {
  nlohmann::json levels = nlohmann::json::array();
  if (!json)
    std::cout << "seeds      boards       exact        won      drawn       lost  undecided\n";
  for (int n = 0; n <= db.max_seeds(); ++n) {
    std::uint64_t exact = 0, won = 0, drawn = 0, lost = 0;
    const auto& index = db.index();
    for (std::uint64_t k = index.offset(n); k < index.offset(n + 1); ++k) {
      const auto b = db.bounds_at(k);
      exact += b.exact();
      won += b.low >= 1;
      lost += b.high <= -1;
      drawn += b.low == 0 && b.high == 0;
    }
    const std::uint64_t boards = index.count(n), undecided = boards - won - drawn - lost;
    levels.push_back({{"seeds", n},
                      {"boards", boards},
                      {"exact", exact},
                      {"won", won},
                      {"drawn", drawn},
                      {"lost", lost},
                      {"undecided", undecided}});
    if (!json) {
      char line[160];
      std::snprintf(line, sizeof line, "%5d %11llu %11llu %10llu %10llu %10llu %10llu\n", n,
                    static_cast<unsigned long long>(boards), static_cast<unsigned long long>(exact),
                    static_cast<unsigned long long>(won), static_cast<unsigned long long>(drawn),
                    static_cast<unsigned long long>(lost),
                    static_cast<unsigned long long>(undecided));
      std::cout << line;
    }
  }
  if (json)
    std::cout << nlohmann::json{{"max_seeds", db.max_seeds()},
                                {"width", db.width()},
                                {"levels", levels}}
                     .dump()
              << "\n";
}

void build(const sowing::State& s, const SolveArgs& a) {
  const sowing::Rules& rules = s.rules();
  const std::string path = a.db.empty() ? solve::default_db_name(rules, a.build_db) : a.db;
  solve::SowingDb::BuildOptions o;
  o.threads = a.threads;
  o.level_dir = path + ".levels";
  std::optional<solve::SowingDb> start_from;
  if (!a.from_db.empty()) {
    if (a.from_db == path)
      throw Error("--from-db " + a.from_db +
                  " is the database this build writes (--db); give "
                  "the new database another name");
    start_from = solve::SowingDb::load(a.from_db);
    start_from->check_rules(rules);
    o.start_from = &*start_from;
    if (!a.json && !solve::launched_by_mpirun())
      std::cerr << "taking the levels of 0 to " << std::min(start_from->max_seeds(), a.build_db)
                << " seeds from " << a.from_db << "\n";
  }
  // --time stops the build; the levels done stay in level_dir, and the same command resumes.
  if (a.time > 0) {
    if (solve::launched_by_mpirun())
      throw Error(
          "--time cannot stop a database build under mpirun (every rank would have to "
          "stop at the same point); leave it out, or build without mpirun");
    o.stop = deadline(a.time);
  }
  auto run = [&] {
    const bool writer = o.parallel.rank == 0;
    ProgressBar bar(a.json || !writer);
    o.progress = [&bar](const solve::retro::Progress& p) { bar(p); };
    const auto start = std::chrono::steady_clock::now();
    auto since = [](auto t) {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    std::uint64_t boards = 0;
    int width = 0;
    double build_seconds = 0, save_seconds = 0;
    if (o.parallel.ranks > 1) {  // each rank keeps its slices; rank 0 writes the file
      const auto written = solve::SowingDb::build_sliced(rules, a.build_db, o, path);
      build_seconds = since(start) - written.write_seconds;
      save_seconds = written.write_seconds;
      boards = written.boards;
      width = written.width;
      if (!writer) return;
    } else {
      const auto db = solve::SowingDb::build(rules, a.build_db, o);
      build_seconds = since(start);
      const auto saved = std::chrono::steady_clock::now();
      db.save(path);
      save_seconds = since(saved);
      boards = db.size();
      width = db.width();
    }
    // The levels live on in the database itself now.
    for (int n = 0; n <= a.build_db; ++n) {
      char name[32];
      std::snprintf(name, sizeof name, "/level-%02d.bin", n);
      std::remove((o.level_dir + name).c_str());
    }
    ::rmdir(o.level_dir.c_str());
    const std::uint64_t bytes = boards * width + 4096;
    if (a.json) {
      std::cout << nlohmann::json{{"db", path},
                                  {"variant", rules.name},
                                  {"max_seeds", a.build_db},
                                  {"boards", boards},
                                  {"width", width},
                                  {"bytes", bytes},
                                  {"threads", o.threads},
                                  {"ranks", o.parallel.ranks},
                                  {"build_seconds", build_seconds},
                                  {"save_seconds", save_seconds}}
                       .dump()
                << "\n";
    } else {
      std::cout << "wrote " << path << ": every board of " << rules.name << " with up to "
                << a.build_db << " seeds, " << boards << " boards, " << width
                << (width == 1 ? " byte" : " bytes") << " each (" << fixed(bytes / 1048576.0, 1)
                << " MiB), built in " << fixed(build_seconds, 1) << " s with " << o.threads
                << " threads"
                << (o.parallel.ranks > 1 ? " on " + std::to_string(o.parallel.ranks) + " ranks"
                                         : "")
                << "\n";
    }
  };
  if (solve::launched_by_mpirun())
    solve::run_under_mpi(o.parallel, run);
  else
    run();
}

}  // namespace

void solve_sowing_command(const AnyGame& game, const sowing::State& s, const SolveArgs& a) {
  solve::db_rules(s.rules());  // refuses rulesets the databases cannot hold
  if (a.build_db >= 0) return build(s, a);
  if (!a.from_db.empty())
    throw Error("--from-db FILE goes with --build-db K (the levels it extends)");
  if (a.check_play > 0) return check_play_command(game, s, a);
  if (a.db_stats) {
    if (a.db.empty()) throw Error("--db-stats needs --db FILE (a database to read)");
    const auto db = solve::SowingDb::load(a.db);
    db.check_rules(s.rules());
    return print_stats(db, a.json);
  }
  if (s.is_over())
    throw Error("the game is over (" + s.outcome().result_tag() + "); there is nothing to solve");
  solve::SowingDb::BuildOptions o;
  o.threads = a.threads;
  // --time counts from the start, database included: the build gets a third of it and stops
  // there with the levels it has done, as Kalah's does (cmd_solve.cpp), leaving the search
  // the rest.
  const auto start = std::chrono::steady_clock::now();
  if (a.time > 0) {
    o.stop = deadline(a.time / 3);
    o.keep_stopped = true;
  }
  const auto db =
      a.db.empty() ? solve::SowingDb::build(s.rules(), a.db_seeds, o) : solve::SowingDb::load(a.db);
  if (a.db.empty() && db.max_seeds() < a.db_seeds && !a.json)
    std::cerr << "database: stopped at a third of --time with the levels of 0 to " << db.max_seeds()
              << " seeds of " << a.db_seeds << "\n";
  const double spent =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto p = solve::solve_sowing(s, &db, a.time > 0 ? std::max(1e-3, a.time - spent) : 0);
  const std::string who(name(s.to_move()));
  const std::string verdict = proof_verdict(who, p.low, p.high);
  if (a.json) {
    std::cout << nlohmann::json{{"variant", game.spec()},   {"position", s.position()},
                                {"to_move", who},           {"decided", p.decided()},
                                {"exact", p.exact()},       {"margin_low", p.low},
                                {"margin_high", p.high},    {"verdict", verdict},
                                {"best_move", p.best_move}, {"optimal_moves", p.optimal_moves},
                                {"nodes", p.nodes},         {"seconds", p.seconds},
                                {"depth", p.depth},         {"db_seeds", db.max_seeds()}}
                     .dump()
              << "\n";
    return;
  }
  const std::string m = p.exact()
                            ? "exactly " + std::to_string(p.low)
                            : "in [" + std::to_string(p.low) + ", " + std::to_string(p.high) + "]";
  std::cout << game.spec() << " " << s.position() << ": " << verdict << "; " << who
            << "'s final margin is " << m;
  if (!p.best_move.empty()) std::cout << "; best move " << p.best_move;
  if (!p.optimal_moves.empty()) {
    std::cout << "; optimal moves";
    for (const auto& m2 : p.optimal_moves) std::cout << " " << m2;
  }
  std::cout << " (" << p.nodes << " nodes, depth " << p.depth << ", " << fixed(p.seconds, 1)
            << " s, database of " << db.max_seeds() << " seeds)\n";
}

}  // namespace naqala::cli
