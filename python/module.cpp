// The `naqala` Python module (docs/python.md): games and states in OpenSpiel's manner,
// batched environments in Gymnasium's vector shape, engines and the prover. A thin shell
// over the library: every rule, search and message is the library's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>

#include "core/error.h"
#include "engine/engine.h"
#include "game_actions.h"
#include "games/registry.h"
#include "solver.h"
#include "state.h"
#include "vector_env.h"

namespace py = pybind11;

namespace naqala::python {

namespace {

// An engine spec played on any game: one engine per game spec, kept between calls (its hash
// table too).
class PyEngine {
 public:
  explicit PyEngine(std::string spec) : spec_(std::move(spec)) {}

  int best_move(const State& s, double seconds, int depth, std::uint64_t nodes) {
    engine::Analysis a;
    {
      py::gil_scoped_release release;
      a = engine_for(s).think(*s.state, request(seconds, depth, nodes));
    }
    return s.game.actions->string_to_action(*s.state, a.best_move);
  }

  // One search per state, in order, in one call with the GIL released: the same moves as
  // best_move on each in turn (the engine's hash table carries over alike).
  std::vector<int> best_moves(const py::sequence& states, double seconds, int depth,
                              std::uint64_t nodes) {
    std::vector<const State*> batch;
    for (std::size_t i = 0; i < states.size(); ++i) {
      const py::object item = states[i];
      if (!py::isinstance<State>(item))
        throw py::type_error("Engine.best_moves: item " + std::to_string(i) + " is a " +
                             std::string(py::str(item.get_type().attr("__name__"))) +
                             ", not a naqala.State");
      const State& s = item.cast<const State&>();
      if (s.state->is_over())
        throw IllegalMoveError("state " + std::to_string(i) +
                               ": the game is over; there is no move to choose");
      if (s.state->is_chance_node())
        throw IllegalMoveError("state " + std::to_string(i) +
                               ": a chance event (the dice) is due; apply a chance outcome first");
      batch.push_back(&s);
    }
    std::vector<int> out;
    out.reserve(batch.size());
    py::gil_scoped_release release;
    const engine::SearchRequest r = request(seconds, depth, nodes);
    for (const State* s : batch) {
      const auto a = engine_for(*s).think(*s->state, r);
      out.push_back(s->game.actions->string_to_action(*s->state, a.best_move));
    }
    return out;
  }

  py::dict analyze(const State& s, double seconds, int depth, std::uint64_t nodes) {
    engine::Analysis a;
    {
      py::gil_scoped_release release;
      a = engine_for(s).analyze(*s.state, {seconds, depth, nodes});
    }
    py::list scores;
    for (const auto& m : a.scores)
      scores.append(py::dict(py::arg("move") = m.move,
                             py::arg("action") = s.game.actions->string_to_action(*s.state, m.move),
                             py::arg("value") = m.value));
    return py::dict(
        py::arg("best_move") = a.best_move,
        py::arg("best_action") = s.game.actions->string_to_action(*s.state, a.best_move),
        py::arg("value") = a.value, py::arg("pv") = a.pv, py::arg("scores") = scores,
        py::arg("depth") = a.depth, py::arg("nodes") = a.nodes, py::arg("seconds") = a.seconds,
        py::arg("proven") = a.proven);
  }

  const std::string& spec() const { return spec_; }

 private:
  static engine::SearchRequest request(double seconds, int depth, std::uint64_t nodes) {
    if (seconds < 0 || depth < 0)
      throw Error("Engine: seconds and depth must be 0 (the spec's limits) or more");
    engine::SearchRequest r;
    r.limits.seconds = seconds;
    r.limits.depth = depth;
    r.limits.nodes = nodes;
    return r;
  }

  engine::Engine& engine_for(const State& s) {
    const std::string key = s.game.game->spec();
    auto it = engines_.find(key);
    if (it == engines_.end())
      it = engines_.emplace(key, engine::make_engine(*s.game.game, spec_)).first;
    return *it->second;
  }

  std::string spec_;
  std::map<std::string, std::unique_ptr<engine::Engine>> engines_;
};

class VectorEnv {
 public:
  VectorEnv(const std::string& spec, int n, std::uint64_t seed, int max_episode_steps, bool copy)
      : game_(load_game(spec)),
        core_(make_vector_env(*game_.game, n, seed, max_episode_steps)),
        copy_(copy) {
    if (!copy_) out_ = std::make_unique<Out>(*core_);
  }

  py::tuple reset(std::optional<std::uint64_t> seed) {
    Out& out = buffers();
    const StepBuffers b = out.buffers();
    {
      py::gil_scoped_release release;
      core_->reset(seed.value_or(0), seed.has_value(), b);
    }
    return py::make_tuple(out.observations, out.info());
  }

  py::tuple step(py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> actions) {
    if (actions.ndim() != 1 || actions.shape(0) != core_->size())
      throw Error("VectorEnv.step: actions must have shape (" + std::to_string(core_->size()) +
                  ",), one per game");
    Out& out = buffers();
    const StepBuffers b = out.buffers();
    {
      py::gil_scoped_release release;
      core_->step(actions.data(), b);
    }
    return py::make_tuple(out.observations, out.rewards, out.terminated, out.truncated, out.info());
  }

  py::array_t<std::int64_t> sample_legal() {
    py::array_t<std::int64_t> out(core_->size());
    std::int64_t* data = out.mutable_data();
    {
      py::gil_scoped_release release;
      core_->sample_legal(data);
    }
    return out;
  }

  int num_envs() const { return core_->size(); }
  int num_actions() const { return core_->num_actions(); }
  std::vector<int> observation_shape() const { return core_->observation_shape(); }
  std::string position(int i) const { return core_->position(i); }
  const Game& game() const { return game_; }

 private:
  // The arrays a call returns, every one written by the core (no fill needed).
  struct Out {
    py::array_t<float> observations, rewards;
    py::array_t<bool> terminated, truncated, legal_mask;
    py::array_t<std::int32_t> current_player;
    explicit Out(const VectorEnvCore& core) {
      const py::ssize_t n = core.size();
      std::vector<py::ssize_t> shape{n};
      for (int d : core.observation_shape()) shape.push_back(d);
      observations = py::array_t<float>(shape);
      rewards = py::array_t<float>(std::vector<py::ssize_t>{n, 2});
      terminated = py::array_t<bool>(n);
      truncated = py::array_t<bool>(n);
      legal_mask = py::array_t<bool>(std::vector<py::ssize_t>{n, core.num_actions()});
      current_player = py::array_t<std::int32_t>(n);
    }
    StepBuffers buffers() {
      return {observations.mutable_data(), rewards.mutable_data(),
              terminated.mutable_data(),   truncated.mutable_data(),
              legal_mask.mutable_data(),   current_player.mutable_data()};
    }
    py::dict info() const {
      return py::dict(py::arg("legal_mask") = legal_mask,
                      py::arg("current_player") = current_player);
    }
  };

  // copy=True: fresh arrays for every call (the caller may keep them); copy=False: the same
  // arrays every call, overwritten by the next one (no allocation).
  Out& buffers() {
    if (copy_) {
      fresh_ = std::make_unique<Out>(*core_);
      return *fresh_;
    }
    return *out_;
  }

  Game game_;
  std::unique_ptr<VectorEnvCore> core_;
  bool copy_;
  std::unique_ptr<Out> out_, fresh_;
};

py::dict prove(const State& s, double seconds) {
  engine::Proof p;
  {
    py::gil_scoped_release release;
    p = engine::prove(*s.state, seconds);
  }
  return py::dict(py::arg("decided") = p.decided, py::arg("exact") = p.exact,
                  py::arg("low") = p.low, py::arg("high") = p.high, py::arg("nodes") = p.nodes,
                  py::arg("seconds") = p.seconds);
}

}  // namespace

}  // namespace naqala::python

PYBIND11_MODULE(naqala, m) {
  using namespace naqala::python;
  m.doc() = "naqala: the mancala family and backgammon, exact rules and strong engines";

  // naqala's errors as Python exceptions, all under naqala.Error (a ValueError): the message
  // is the one the CLI prints.
  static py::exception<naqala::Error> error(m, "Error", PyExc_ValueError);
  static py::exception<naqala::VariantError> variant_error(m, "VariantError", error.ptr());
  static py::exception<naqala::ParseError> parse_error(m, "ParseError", error.ptr());
  static py::exception<naqala::IllegalMoveError> illegal(m, "IllegalMoveError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const naqala::VariantError& e) {
      variant_error(e.what());
    } catch (const naqala::ParseError& e) {
      parse_error(e.what());
    } catch (const naqala::IllegalMoveError& e) {
      illegal(e.what());
    } catch (const naqala::Error& e) {
      error(e.what());
    }
  });

  py::class_<Game>(m, "Game")
      .def("num_distinct_actions", [](const Game& g) { return g.actions->num_distinct_actions(); })
      .def("max_chance_outcomes", [](const Game& g) { return g.actions->max_chance_outcomes(); })
      .def("num_players", [](const Game&) { return 2; })
      .def("new_initial_state", [](const Game& g) { return State(g, g.game->new_game()); })
      .def(
          "deserialize_state",
          [](const Game& g, const std::string& text) {
            return State(g, g.game->from_position(text));
          },
          py::arg("text"))
      .def("observation_tensor_shape", [](const Game& g) { return g.actions->observation_shape(); })
      .def("observation_tensor_size", [](const Game& g) { return g.actions->observation_size(); })
      .def("spec", [](const Game& g) { return g.game->spec(); })
      .def("family", [](const Game& g) { return g.game->info().family; })
      .def("rules", [](const Game& g) { return g.game->rules_text(); })
      .def("__str__", [](const Game& g) { return g.game->spec(); })
      .def("__repr__", [](const Game& g) { return "naqala.load_game('" + g.game->spec() + "')"; });

  py::class_<State>(m, "State")
      .def("current_player", &State::current_player)
      .def("legal_actions", [](const State& s) { return s.game.actions->legal_actions(*s.state); })
      .def(
          "legal_actions",
          [](const State& s, int player) {
            if (player != s.current_player()) return std::vector<int>{};
            return s.game.actions->legal_actions(*s.state);
          },
          py::arg("player"))
      .def("legal_actions_mask", &State::legal_actions_mask)
      .def("legal_moves", [](const State& s) { return s.state->legal_moves(); })
      .def("apply_action", &State::apply_action, py::arg("action"))
      .def(
          "action_to_string",
          [](const State& s, int action) {
            return s.game.actions->action_to_string(*s.state, action);
          },
          py::arg("action"))
      .def(
          "action_to_string",
          [](const State& s, int, int action) {
            return s.game.actions->action_to_string(*s.state, action);
          },
          py::arg("player"), py::arg("action"))
      .def(
          "string_to_action",
          [](const State& s, const std::string& text) {
            return s.game.actions->string_to_action(*s.state, text);
          },
          py::arg("text"))
      .def("clone", [](const State& s) { return State(s); })
      .def("__copy__", [](const State& s) { return State(s); })
      .def("__deepcopy__", [](const State& s, py::dict) { return State(s); })
      .def("is_terminal", [](const State& s) { return s.state->is_over(); })
      .def("returns", &State::returns)
      .def("is_chance_node",
           [](const State& s) { return !s.state->is_over() && s.state->is_chance_node(); })
      .def("chance_outcomes",
           [](const State& s) { return s.game.actions->chance_outcomes(*s.state); })
      .def("observation_tensor", [](const State& s) { return s.observation_tensor(); })
      .def(
          "observation_tensor", [](const State& s, int) { return s.observation_tensor(); },
          py::arg("player"))
      .def("serialize", [](const State& s) { return s.state->position(); })
      .def("history", [](const State& s) { return s.history; })
      .def("outcome",
           [](const State& s) {
             const auto o = s.state->outcome();
             return py::dict(py::arg("result") = o.result_tag(), py::arg("scores") = o.scores);
           })
      .def("get_game", [](const State& s) { return s.game; })
      .def("__str__", [](const State& s) { return s.state->render(); })
      .def("__repr__", [](const State& s) { return "<naqala.State " + s.state->position() + ">"; });

  m.def("load_game", &load_game, py::arg("spec"),
        "A game by its variant spec: a preset ('oware'), options ('oware:grand_slam=forbidden') "
        "or a variant file ('my-village.toml').");
  m.def(
      "deserialize_state",
      [](const std::string& spec, const std::string& text) {
        Game g = load_game(spec);
        return State(g, g.game->from_position(text));
      },
      py::arg("spec"), py::arg("text"));
  m.def("variants", [] {
    std::vector<std::string> names;
    for (const auto& v : naqala::list_variants()) names.push_back(v.name);
    return names;
  });

  py::class_<PyEngine>(m, "Engine")
      .def(py::init<std::string>(), py::arg("spec"))
      .def("best_move", &PyEngine::best_move, py::arg("state"), py::arg("seconds") = 0.0,
           py::arg("depth") = 0, py::arg("nodes") = 0,
           "The engine's action for the state (with its spec's limits, or those given).")
      .def("best_moves", &PyEngine::best_moves, py::arg("states"), py::arg("seconds") = 0.0,
           py::arg("depth") = 0, py::arg("nodes") = 0,
           "The engine's action for each state, in one call with the GIL released.")
      .def("analyze", &PyEngine::analyze, py::arg("state"), py::arg("seconds") = 0.0,
           py::arg("depth") = 0, py::arg("nodes") = 0)
      .def("__repr__", [](const PyEngine& e) { return "naqala.Engine('" + e.spec() + "')"; });

  add_solver(m);

  m.def("prove", &prove, py::arg("state"), py::arg("seconds") = 0.0,
        "Proves the final margin of the player to move (sowing games without cycles).");

  py::class_<VectorEnv>(m, "VectorEnv")
      .def(py::init<const std::string&, int, std::uint64_t, int, bool>(), py::arg("spec"),
           py::arg("num_envs"), py::arg("seed") = 0, py::arg("max_episode_steps") = 10000,
           py::arg("copy") = true)
      .def("reset", &VectorEnv::reset, py::arg("seed") = py::none())
      .def("step", &VectorEnv::step, py::arg("actions"))
      .def("sample_legal", &VectorEnv::sample_legal)
      .def("position", &VectorEnv::position, py::arg("index"))
      .def_property_readonly("num_envs", &VectorEnv::num_envs)
      .def_property_readonly("num_actions", &VectorEnv::num_actions)
      .def_property_readonly("observation_shape", &VectorEnv::observation_shape)
      .def_property_readonly("game", &VectorEnv::game);
}
