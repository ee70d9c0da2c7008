#include "solver.h"

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "solve/kalah.h"
#include "solve/kalah_db.h"
#include "solve/kalah_solver.h"
#include "solve/sowing_db.h"
#include "solve/sowing_solve.h"
#include "state.h"

namespace naqala::python {

namespace {

const TypedState<sowing::State>& typed_sowing(const AnyState& state, const std::string& spec) {
  const auto* t = dynamic_cast<const TypedState<sowing::State>*>(&state);
  if (!t) throw VariantError("the solver knows two-row sowing games only, not " + spec);
  return *t;
}

std::string result_word(int low, int high) {
  return low >= 1 ? "won" : high <= -1 ? "lost" : low == 0 && high == 0 ? "drawn" : "unknown";
}

py::list actions_of(const State& s, const std::vector<std::string>& moves) {
  py::list out;
  for (const auto& m : moves) out.append(s.game.actions->string_to_action(*s.state, m));
  return out;
}

// The positions played before the state since the last capture (they end the game if they
// come back), for the sowing solver.
std::span<const std::uint64_t> before(const TypedState<sowing::State>& t) {
  const auto seen = t.history();
  return seen.empty() ? seen : seen.first(seen.size() - 1);
}

// A database of one ruleset: Kalah's (the value of every board) or the sowing family's
// (bounds), chosen by the rules as `naqala solve` does.
class EndgameDb {
 public:
  static EndgameDb build(const std::string& spec, int max_seeds, int threads) {
    EndgameDb db(spec);
    if (max_seeds < 0 || max_seeds > 127)
      throw Error("EndgameDb.build: max_seeds " + std::to_string(max_seeds) + "; allowed 0 to 127");
    if (threads < 1 || threads > 64)
      throw Error("EndgameDb.build: threads " + std::to_string(threads) + "; allowed 1 to 64");
    py::gil_scoped_release release;
    if (db.kalah_rules_) {
      db.kalah_ = std::make_shared<const solve::EndgameDb>(
          solve::EndgameDb::build(*db.kalah_rules_, max_seeds, threads));
    } else {
      solve::SowingDb::BuildOptions options;
      options.threads = threads;
      db.sowing_ = std::make_shared<const solve::SowingDb>(
          solve::SowingDb::build(db.rules(), max_seeds, options));
    }
    return db;
  }

  // Checks that the file was built for the spec's rules.
  static EndgameDb load(const std::string& spec, const std::string& path) {
    EndgameDb db(spec);
    py::gil_scoped_release release;
    if (db.kalah_rules_) {
      db.kalah_ = std::make_shared<const solve::EndgameDb>(solve::EndgameDb::load(path));
      if (db.kalah_->rules() != *db.kalah_rules_)
        throw Error(path + " is a Kalah database of other rules (" +
                    std::to_string(db.kalah_->rules().pits) + " pits) than " + spec);
    } else {
      db.sowing_ = std::make_shared<const solve::SowingDb>(solve::SowingDb::load(path));
      db.sowing_->check_rules(db.rules());
    }
    return db;
  }

  void save(const std::string& path) const {
    py::gil_scoped_release release;
    kalah_ ? kalah_->save(path) : sowing_->save(path);
  }

  int max_seeds() const { return kalah_ ? kalah_->max_seeds() : sowing_->max_seeds(); }
  std::uint64_t boards() const { return kalah_ ? kalah_->size() : sowing_->size(); }
  std::string spec() const { return game_.game->spec(); }
  std::string kind() const { return kalah_ ? "kalah" : "sowing"; }
  const solve::EndgameDb* kalah() const { return kalah_.get(); }
  const solve::SowingDb* sowing() const { return sowing_.get(); }
  const std::optional<solve::KalahRules>& kalah_rules() const { return kalah_rules_; }

  // What the database says of a state: {"known": False} when its pits hold more seeds than
  // the database; else the result with perfect play, the margin, and the best moves.
  py::dict query(const State& state, std::uint64_t nodes) const {
    const auto& t = typed_sowing(*state.state, state.game.game->spec());
    const sowing::State& s = t.typed();
    check_game(s);
    if (s.is_over())
      throw Error("the game is over (" + s.outcome().result_tag() + "); there is nothing to ask");
    py::dict out;
    out["known"] = false;
    out["db_seeds"] = max_seeds();
    out["to_move"] = std::string(name(s.to_move()));
    if (s.seeds_in_play() > max_seeds()) return out;
    std::vector<std::string> best;
    int low, high;
    if (kalah_) {
      // Every move's margin from the database (a child never holds more seeds): the best are
      // those that keep the position's own value.
      low = high = kalah_margin(s);
      py::dict moves;
      typename sowing::State::MoveList list;
      s.legal_moves(list);
      for (auto m : list) {
        sowing::State child = s;
        child.play(m);
        const int margin = child.is_over()
                               ? child.outcome().scores[index(s.to_move())] -
                                     child.outcome().scores[index(opponent(s.to_move()))]
                           : child.to_move() == s.to_move() ? kalah_margin(child)
                                                            : -kalah_margin(child);
        moves[py::str(s.format_move(m))] = margin;
        if (margin == low) best.push_back(s.format_move(m));
        if (margin > low)
          throw Error("the database disagrees with itself at " + s.position() +
                      " (damaged or built for other rules)");
      }
      out["moves"] = moves;
    } else {
      // The sowing databases hold bounds on the seeds still to be won; the stop at a store
      // count and the repetitions since the last capture take a short search on top (as the
      // server's analysis does), with a node budget: the same answer on any machine.
      solve::SowingProof p;
      {
        py::gil_scoped_release release;
        p = solve::solve_sowing(s, sowing_.get(), 0, before(t), nodes);
      }
      if (!p.decided()) return out;
      low = p.low;
      high = p.high;
      best = p.optimal_moves;
    }
    out["known"] = true;
    out["result"] = result_word(low, high);
    out["exact"] = low == high;
    out["margin_low"] = low;
    out["margin_high"] = high;
    out["best_moves"] = best;
    out["best_actions"] = actions_of(state, best);
    return out;
  }

 private:
  explicit EndgameDb(const std::string& spec)
      : game_(load_game(spec)), probe_(game_.game->new_game()) {
    kalah_rules_ = solve::kalah_rules_if_any(rules());
    if (!kalah_rules_) solve::db_rules(rules());  // throws what the databases cannot hold
  }

  const sowing::Rules& rules() const { return typed_sowing(*probe_, spec()).typed().rules(); }

  void check_game(const sowing::State& s) const {
    const auto k = solve::kalah_rules_if_any(s.rules());
    if (kalah_ ? !(k && *k == *kalah_rules_) : (k.has_value() || !fits(s.rules())))
      throw Error("this database is of " + spec() + "; the state is of other rules");
  }
  bool fits(const sowing::Rules& r) const {
    try {
      sowing_->check_rules(r);
      return true;
    } catch (const Error&) {
      return false;
    }
  }

  // The final margin of the player to move under perfect play (the pits within the database).
  int kalah_margin(const sowing::State& s) const {
    const Player me = s.to_move();
    const solve::Board b = solve::board_of(s);
    const int n = b.seeds();
    return s.store(me) - s.store(opponent(me)) + 2 * kalah_->value(b, n) - n;
  }

  Game game_;
  std::unique_ptr<AnyState> probe_;  // the rules live as long as the game's states
  std::optional<solve::KalahRules> kalah_rules_;
  std::shared_ptr<const solve::EndgameDb> kalah_;
  std::shared_ptr<const solve::SowingDb> sowing_;
};

// `naqala solve` for one state: Kalah's MTD(f) solver (with its database) for Kalah-like
// rulesets, the database and a bounded search for the others.
py::dict solve_state(const State& state, const EndgameDb* db, double seconds, std::uint64_t nodes,
                     std::size_t table_mb, bool result_only) {
  const auto& t = typed_sowing(*state.state, state.game.game->spec());
  const sowing::State& s = t.typed();
  if (s.is_over())
    throw Error("the game is over (" + s.outcome().result_tag() + "); there is nothing to solve");
  const auto kalah = solve::kalah_rules_if_any(s.rules());
  if (db && (kalah ? !db->kalah() || *db->kalah_rules() != *kalah : !db->sowing()))
    throw Error("the database is of " + db->spec() + ", not of " + state.game.game->spec());
  if (db && db->sowing()) db->sowing()->check_rules(s.rules());
  py::dict out;
  out["to_move"] = std::string(name(s.to_move()));
  out["db_seeds"] = db ? db->max_seeds() : 0;
  int low, high;
  std::string best;
  std::vector<std::string> optimal;
  if (kalah) {
    if (nodes > 0)
      throw Error("solve: Kalah's solver takes seconds, not nodes (nodes bound the others)");
    if (table_mb < 1 || table_mb > 65536)
      throw Error("solve: table_mb " + std::to_string(table_mb) + "; allowed 1 to 65536");
    solve::MarginProof p;
    {
      py::gil_scoped_release release;
      solve::Solver solver(*kalah, s.rules().total_seeds, db ? db->kalah() : nullptr, table_mb);
      p = solve::prove_margin(s, solver, seconds, result_only);
    }
    low = p.low, high = p.high, best = p.best_move;
    out["nodes"] = p.nodes;
    out["seconds"] = p.seconds;
  } else {
    solve::SowingProof p;
    {
      py::gil_scoped_release release;
      p = solve::solve_sowing(s, db ? db->sowing() : nullptr, seconds, before(t), nodes);
    }
    low = p.low, high = p.high, best = p.best_move, optimal = p.optimal_moves;
    out["nodes"] = p.nodes;
    out["seconds"] = p.seconds;
    out["depth"] = p.depth;
    out["optimal_moves"] = optimal;
    out["optimal_actions"] = actions_of(state, optimal);
  }
  out["decided"] = low >= 1 || high <= -1 || (low == 0 && high == 0);
  out["exact"] = low == high;
  out["result"] = result_word(low, high);
  out["margin_low"] = low;
  out["margin_high"] = high;
  out["best_move"] = best;
  out["best_action"] =
      best.empty() ? py::object(py::none())
                   : py::object(py::int_(state.game.actions->string_to_action(*state.state, best)));
  return out;
}

}  // namespace

void add_solver(py::module_& m) {
  py::class_<EndgameDb>(m, "EndgameDb")
      .def_static("build", &EndgameDb::build, py::arg("spec"), py::arg("max_seeds"),
                  py::arg("threads") = 1,
                  "The database of every board of the variant with up to max_seeds seeds in the "
                  "pits (as `naqala solve VARIANT --build-db K`).")
      .def_static("load", &EndgameDb::load, py::arg("spec"), py::arg("path"),
                  "A database file of the variant (`naqala solve --build-db` writes them).")
      .def("save", &EndgameDb::save, py::arg("path"))
      .def("query", &EndgameDb::query, py::arg("state"), py::arg("nodes") = 200'000,
           "The result, margin and best moves of a state with perfect play.")
      .def_property_readonly("max_seeds", &EndgameDb::max_seeds)
      .def_property_readonly("boards", &EndgameDb::boards)
      .def_property_readonly("spec", &EndgameDb::spec)
      .def_property_readonly("kind", &EndgameDb::kind)
      .def("__repr__", [](const EndgameDb& d) {
        return "<naqala.EndgameDb " + d.spec() + " up to " + std::to_string(d.max_seeds()) +
               " seeds>";
      });

  m.def("solve", &solve_state, py::arg("state"), py::arg("db") = nullptr, py::arg("seconds") = 0.0,
        py::arg("nodes") = 0, py::arg("table_mb") = 64, py::arg("result_only") = false,
        "Solves a two-row sowing position exactly (as `naqala solve`): the final margin of "
        "the player to move, its bounds when limits stop it first, and the best move.");
}

}  // namespace naqala::python
