#include "engine/engine.h"

#include <charconv>
#include <ctime>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "core/error.h"
#include "engine/typed_engines.h"
#include "eval/backgammon_eval.h"
#include "eval/bao_eval.h"
#include "eval/omweso_eval.h"
#include "eval/sowing_eval.h"
#include "games/backgammon/bot.h"
#include "games/bao/bao.h"
#include "games/omweso/omweso.h"
#include "games/registry.h"
#include "games/sowing/state.h"
#include "search/prove.h"
#include "solve/sowing_probe.h"

namespace naqala::engine {

namespace {

constexpr std::string_view kSpecForms =
    "level:N[,seed=S] (N = 1..10), "
    "alphabeta[:time=S,depth=D,nodes=N,threads=T,hash=MB,noise=X,seed=N,weights=W/W/...,db=FILE], "
    "mcts[:sims=N,time=S,threads=T,c=X,leaf=playout|eval,batch=N,seed=N], random[:seed=N]";

struct EngineSpec {
  std::string text;
  std::string kind;
  std::map<std::string, std::string> options;
};

[[noreturn]] void bad_spec(const EngineSpec& spec, const std::string& what) {
  throw VariantError("engine '" + spec.text + "': " + what + "; engines are " +
                     std::string(kSpecForms));
}

EngineSpec parse_spec(std::string_view text) {
  EngineSpec spec;
  spec.text = std::string(text);
  const auto colon = text.find(':');
  spec.kind = std::string(text.substr(0, colon));
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  if (spec.kind == "level") {
    // level:N[,seed=S]
    const auto comma = rest.find(',');
    spec.options["level"] = std::string(rest.substr(0, comma));
    if (comma == std::string_view::npos) return spec;
    rest = rest.substr(comma + 1);
  }
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      bad_spec(spec, "option '" + std::string(item) + "' is not of the form key=value");
    const std::string key(item.substr(0, eq));
    if (spec.options.count(key)) bad_spec(spec, "option '" + key + "' is given twice");
    spec.options[key] = std::string(item.substr(eq + 1));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return spec;
}

void check_keys(const EngineSpec& spec, std::set<std::string> allowed) {
  for (const auto& [k, v] : spec.options) {
    if (allowed.count(k)) continue;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    bad_spec(spec, "unknown option '" + k + "' for " + spec.kind + " (allowed: " + list + ")");
  }
}

double number(const EngineSpec& spec, const std::string& key, double fallback, double lo,
              double hi) {
  auto it = spec.options.find(key);
  if (it == spec.options.end()) return fallback;
  double v = 0;
  const auto& t = it->second;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || !(v >= lo && v <= hi))
    bad_spec(spec, key + "=" + t + " is not a number from " + std::to_string(lo).substr(0, 6) +
                       " to " + std::to_string(hi).substr(0, 12));
  return v;
}

std::uint64_t whole(const EngineSpec& spec, const std::string& key, std::uint64_t fallback,
                    std::uint64_t lo, std::uint64_t hi) {
  auto it = spec.options.find(key);
  if (it == spec.options.end()) return fallback;
  std::uint64_t v = 0;
  const auto& t = it->second;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || v < lo || v > hi)
    bad_spec(spec, key + "=" + t + " is not a whole number from " + std::to_string(lo) + " to " +
                       std::to_string(hi));
  return v;
}

// A uniformly random legal move: works for every game, through the type-erased state.
class RandomEngine : public Engine {
 public:
  explicit RandomEngine(std::uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  std::string choose_move(const AnyState& state) override {
    if (state.is_over()) throw IllegalMoveError("the game is over; there is no move to choose");
    if (state.is_chance_node()) throw IllegalMoveError("a chance event (dice) is due, not a move");
    const auto moves = state.legal_moves();
    if (moves.empty()) throw IllegalMoveError("no legal move in this position");
    return moves[rng_.below(static_cast<std::uint32_t>(moves.size()))];
  }
  Analysis analyze(const AnyState& state, const Limits&) override {
    // A random mover has no opinion: every move scores 0 and one is drawn.
    Analysis a;
    a.best_move = choose_move(state);
    a.pv = {a.best_move};
    for (const auto& m : state.legal_moves()) a.scores.push_back({m, 0.0});
    return a;
  }

 private:
  Rng rng_;
};

// A strength level: a depth, a softmax temperature in points (how often a worse move is
// played), a time cap that keeps big boards responsive, threads, and a node budget. The top
// level has a node budget instead of a depth, so its games are reproducible and measurable.
// The tables are measured in docs/engines.md.
struct Level {
  int depth;
  double temperature;
  double seconds;
  int threads;
  std::uint64_t nodes = 0;
};
using LevelTable = std::array<Level, 10>;

// Kalah, Oware and the other sowing rulesets (and Bao and Omweso).
constexpr LevelTable kSowingLevels = {{
    {1, 4.0, 1, 1},
    {2, 2.5, 1, 1},
    {3, 1.5, 1, 1},
    {4, 1.0, 1, 1},
    {5, 0.6, 2, 1},
    {6, 0.3, 2, 1},
    {8, 0.1, 2, 1},
    {10, 0, 2, 1},
    {14, 0, 1, 1},
    {0, 0, 5, 1, 1'000'000},
}};

// Toguz korgool: nine pits a row and long games; each ply of depth costs about as much as
// two on Kalah, so the depths are smaller.
constexpr LevelTable kToguzLevels = {{
    {1, 4.0, 1, 1},
    {2, 2.5, 1, 1},
    {3, 1.5, 1, 1},
    {4, 1.0, 1, 1},
    {5, 0.5, 2, 1},
    {6, 0.2, 2, 1},
    {7, 0, 2, 1},
    {8, 0, 2, 1},
    {10, 0, 2, 1},
    {0, 0, 5, 1, 500'000},
}};

const LevelTable& sowing_levels(const sowing::Rules& rules) {
  return rules.tuz != sowing::TuzKind::None ? kToguzLevels : kSowingLevels;
}

bool same_ruleset(const sowing::Rules& a, const sowing::Rules& b) {
  return a.name == b.name && a.chosen == b.chosen && a.pits == b.pits && a.holes == b.holes;
}

// Alpha-beta over sowing states that refuses states of another ruleset (the evaluation's
// tables are the ruleset's).
class SowingAlphaBeta : public AlphaBetaEngine<sowing::State, eval::SowingEval> {
 public:
  SowingAlphaBeta(std::string name, std::shared_ptr<const sowing::Rules> rules,
                  AlphaBetaConfig config, eval::SowingWeights weights)
      : AlphaBetaEngine(std::move(name), eval::SowingEval(*rules, weights), config),
        rules_(std::move(rules)) {}
  std::string choose_move(const AnyState& state) override {
    check(state);
    return AlphaBetaEngine::choose_move(state);
  }
  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    check(state);
    return AlphaBetaEngine::choose_move_on_clock(state, clock);
  }
  Analysis analyze(const AnyState& state, const Limits& limits) override {
    check(state);
    return AlphaBetaEngine::analyze(state, limits);
  }

 private:
  void check(const AnyState& state) const {
    const auto& s = typed_state<sowing::State>(state, name());
    if (!same_ruleset(s.rules(), *rules_))
      throw Error("engine '" + name() + "' was made for " + rules_->name + " and cannot play " +
                  s.rules().name);
  }
  std::shared_ptr<const sowing::Rules> rules_;
};

// weights=w1/w2/...: an evaluation's weights in its feature order (hundredths of a point per
// unit of each feature); features after the last number keep the preset's weights.
template <std::size_t N>
std::array<int, N> parse_weights(const EngineSpec& spec, std::array<int, N> w,
                                 const std::array<const char*, N>& names) {
  auto it = spec.options.find("weights");
  if (it == spec.options.end()) return w;
  std::string list;
  for (const char* n : names) list += (list.empty() ? "" : "/") + std::string(n);
  std::string_view rest = it->second;
  for (std::size_t i = 0;; ++i) {
    const auto slash = rest.find('/');
    const std::string_view item = rest.substr(0, slash);
    int v = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (i >= N || ec != std::errc() || end != item.data() + item.size())
      bad_spec(spec, "weights=" + it->second + " must be 1 to " + std::to_string(N) +
                         " whole numbers separated by '/', in the order " + list);
    w[i] = v;
    if (slash == std::string_view::npos) return w;
    rest = rest.substr(slash + 1);
  }
}

// The options every `alphabeta:` spec takes, whatever the game (`weights` where the family's
// evaluation has weights); without a limit the search runs to `fallback`.
AlphaBetaConfig alphabeta_config(const EngineSpec& spec, AlphaBetaConfig c,
                                 const search::Limits& fallback, bool weights) {
  std::set<std::string> keys{"time", "depth", "nodes", "threads", "hash", "noise", "seed"};
  if (weights) keys.insert("weights");
  check_keys(spec, keys);
  c.limits.seconds = number(spec, "time", 0, 0, 86400);
  c.limits.depth = static_cast<int>(whole(spec, "depth", 0, 0, search::kMaxPly - 1));
  c.limits.nodes = whole(spec, "nodes", 0, 0, ~0ULL);
  if (c.limits.seconds <= 0 && c.limits.depth <= 0 && c.limits.nodes == 0) c.limits = fallback;
  c.options.threads = static_cast<int>(whole(spec, "threads", 1, 1, 256));
  c.options.hash_mb = whole(spec, "hash", c.options.hash_mb, 1, 65536);
  c.temperature = number(spec, "noise", 0, 0, 100);
  c.seed = whole(spec, "seed", 1, 0, ~0ULL);
  return c;
}

// level:N[,seed=S], from the family's table; unseeded levels play differently every time.
AlphaBetaConfig level_config(const EngineSpec& spec, AlphaBetaConfig c, const LevelTable& table) {
  check_keys(spec, {"level", "seed"});
  const int level = static_cast<int>(whole(spec, "level", 5, 1, 10));
  const Level& l = table[level - 1];
  c.limits = {l.seconds, l.depth, l.nodes};
  c.temperature = l.temperature;
  c.options.threads = l.threads;
  c.options.hash_mb = level >= 8 ? 64 : 16;
  c.seed = whole(spec, "seed", std::random_device{}(), 0, ~0ULL);
  return c;
}

// The alpha-beta of a `level:` or `alphabeta:` spec (callers have sent `mcts:` elsewhere).
AlphaBetaConfig search_config(const EngineSpec& spec, const AlphaBetaConfig& base,
                              const LevelTable& levels, const search::Limits& fallback,
                              bool weights) {
  if (spec.kind == "level") return level_config(spec, base, levels);
  if (spec.kind == "alphabeta") return alphabeta_config(spec, base, fallback, weights);
  bad_spec(spec, "unknown engine '" + spec.kind + "'");
}

// The options every `mcts:` spec takes, whatever the game.
MctsConfig mcts_config(const EngineSpec& spec) {
  check_keys(spec, {"sims", "time", "threads", "c", "leaf", "batch", "seed"});
  MctsConfig c;
  c.simulations = whole(spec, "sims", 0, 0, ~0ULL);
  c.seconds = number(spec, "time", 0, 0, 86400);
  if (c.simulations == 0 && c.seconds <= 0) c.simulations = 10000;
  c.options.threads = static_cast<int>(whole(spec, "threads", 1, 1, 256));
  c.options.exploration = number(spec, "c", 1.0, 0, 100);
  c.options.seed = whole(spec, "seed", 1, 0, ~0ULL);
  c.options.batch =
      static_cast<int>(whole(spec, "batch", search::MctsOptions{}.batch, 1, search::kMaxMctsBatch));
  if (auto it = spec.options.find("leaf"); it != spec.options.end()) {
    if (it->second != "playout" && it->second != "eval")
      bad_spec(spec, "leaf=" + it->second + " is not allowed (allowed: playout, eval)");
    c.options.eval_leaf = it->second == "eval";
  }
  return c;
}

std::unique_ptr<Engine> make_sowing_engine(const sowing::Rules& game_rules,
                                           const EngineSpec& spec) {
  // The engine keeps its own copy of the ruleset: the game object may go away first.
  auto rules = std::make_shared<const sowing::Rules>(game_rules);
  if (spec.kind == "mcts") {
    const MctsConfig c = mcts_config(spec);
    eval::SowingEval eval(*rules);
    // The engine owns a copy of the ruleset; the leaf evaluation captures it with the tables.
    return std::make_unique<MctsEngine<sowing::State>>(
        spec.text, c, [eval, rules](const sowing::State& s) { return eval(s); });
  }
  AlphaBetaConfig base;
  base.options.hash_mb = 64;
  // db=FILE: the search probes an endgame database (naqala solve VARIANT --build-db K).
  EngineSpec rest = spec;
  std::string db_file;
  if (auto it = rest.options.find("db"); it != rest.options.end() && spec.kind == "alphabeta") {
    db_file = it->second;
    rest.options.erase(it);
  }
  AlphaBetaConfig c = search_config(rest, base, sowing_levels(*rules), {1, 0, 0}, true);
  if (!db_file.empty()) {
    auto db = std::make_shared<const solve::SowingDb>(solve::SowingDb::load(db_file));
    db->check_rules(*rules);
    c.options.probe = solve::sowing_probe(db);
  }
  eval::SowingWeights w = eval::default_sowing_weights(*rules);
  w.w = parse_weights(spec, w.w, eval::kSowingFeatureNames);
  return std::make_unique<SowingAlphaBeta>(spec.text, rules, c, w);
}

// Backgammon: checker plays by expectiminimax over the simple evaluation (Star1 pruning at the
// chance nodes), cube actions by the bot's cube rules. Levels: 1-ply with less and less noise,
// then 2-ply (depth 3: the move, the opponent's cube turn, his roll and best reply) and, at
// level 10, deeper as time allows.
constexpr LevelTable kBackgammonLevels = {{
    {1, 0.30, 5, 1},
    {1, 0.15, 5, 1},
    {1, 0.08, 5, 1},
    {1, 0.04, 5, 1},
    {1, 0.02, 5, 1},
    {1, 0, 5, 1},
    {3, 0.01, 5, 1},
    {3, 0, 5, 1},
    {3, 0, 10, 2},
    {0, 0, 5, 2},
}};

class BackgammonEngine : public AlphaBetaEngine<backgammon::State, eval::BackgammonEval> {
 public:
  BackgammonEngine(std::string name, AlphaBetaConfig config)
      : AlphaBetaEngine(std::move(name), eval::BackgammonEval{}, config) {}
  std::string choose_move(const AnyState& state) override {
    const auto& s = typed_state<backgammon::State>(state, name());
    if (s.phase() != backgammon::Phase::Moving)
      return s.format_move(backgammon::choose_move(s).move);
    return AlphaBetaEngine::choose_move(state);
  }
  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    const auto& s = typed_state<backgammon::State>(state, name());
    if (s.phase() != backgammon::Phase::Moving)
      return s.format_move(backgammon::choose_move(s).move);
    return AlphaBetaEngine::choose_move_on_clock(state, clock);
  }
};

std::unique_ptr<Engine> make_backgammon_engine(const EngineSpec& spec) {
  if (spec.kind == "mcts")
    bad_spec(spec,
             "the backgammon engines are level:N and alphabeta (MCTS is not offered for "
             "backgammon)");
  AlphaBetaConfig base;
  base.options.hash_mb = 16;
  base.options.eval_ordering_depth = 99;  // ordering by a look costs a full evaluation per move
  return std::make_unique<BackgammonEngine>(
      spec.text, search_config(spec, base, kBackgammonLevels, {0, 3, 0}, false));
}

// Bao and Omweso: the same typed alpha-beta (and MCTS) over the family's own state, with the
// small evaluations of eval/bao_eval.h and eval/omweso_eval.h, and the sowing families' level
// table (depth, noise in seeds, time cap). Annulled games (endless sowing, Omweso's repeated
// positions and S0's impasse) end without a winner and score 0 in the search, as a draw.
// `used`, when given, receives the alpha-beta's configuration (or the MCTS seed).
template <class S, class Eval>
std::unique_ptr<Engine> make_board4_search(const EngineSpec& spec,
                                           AlphaBetaConfig* used = nullptr) {
  if (spec.kind == "mcts") {
    const MctsConfig c = mcts_config(spec);
    if (used) used->seed = c.options.seed;
    return std::make_unique<MctsEngine<S>>(spec.text, c, [](const S& s) { return Eval{}(s); });
  }
  AlphaBetaConfig base;
  base.options.hash_mb = 64;
  const AlphaBetaConfig c = search_config(spec, base, kSowingLevels, {1, 0, 0}, true);
  if (used) *used = c;
  Eval eval;
  eval.weights = parse_weights(spec, eval.weights, Eval::kFeatureNames);
  return std::make_unique<AlphaBetaEngine<S, Eval>>(spec.text, eval, c);
}

// Omweso: the setup by the engines' setup policy (eval::setup_move), play by the search.
class OmwesoEngine : public Engine {
 public:
  OmwesoEngine(std::unique_ptr<Engine> search, bool noisy, std::uint64_t seed)
      : search_(std::move(search)), noisy_(noisy), rng_(seed) {}
  std::string name() const override { return search_->name(); }
  std::string choose_move(const AnyState& state) override {
    if (auto m = setup_move(state)) return *m;
    return search_->choose_move(state);
  }
  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    if (auto m = setup_move(state)) return *m;
    return search_->choose_move_on_clock(state, clock);
  }
  Analysis analyze(const AnyState& state, const Limits& limits) override {
    return search_->analyze(state, limits);
  }

 private:
  std::optional<std::string> setup_move(const AnyState& state) {
    const auto& s = typed_state<omweso::State>(state, name());
    if (!s.in_setup()) return std::nullopt;
    return s.format_move(eval::setup_move(s, noisy_ ? &rng_ : nullptr));
  }

  std::unique_ptr<Engine> search_;
  bool noisy_;
  Rng rng_;
};

std::unique_ptr<Engine> make_omweso_engine(const EngineSpec& spec) {
  AlphaBetaConfig c;  // the search's noise and seed also drive the setup policy
  auto search = make_board4_search<omweso::State, eval::OmwesoEval>(spec, &c);
  return std::make_unique<OmwesoEngine>(std::move(search), c.temperature > 0, c.seed ^ 0x5e7u);
}

}  // namespace

std::unique_ptr<Engine> make_engine(const AnyGame& game, std::string_view text) {
  const EngineSpec spec = parse_spec(text);
  if (spec.kind == "random") {
    check_keys(spec, {"seed"});
    return std::make_unique<RandomEngine>(whole(spec, "seed", std::random_device{}(), 0, ~0ULL));
  }
  if (spec.kind != "level" && spec.kind != "alphabeta" && spec.kind != "mcts")
    bad_spec(spec, "unknown engine '" + spec.kind + "'");
  const auto probe = game.new_game();
  if (const auto* s = dynamic_cast<const TypedState<sowing::State>*>(probe.get()))
    return make_sowing_engine(s->typed().rules(), spec);
  if (dynamic_cast<const TypedState<backgammon::State>*>(probe.get()))
    return make_backgammon_engine(spec);
  if (dynamic_cast<const TypedState<bao::State>*>(probe.get()))
    return make_board4_search<bao::State, eval::BaoEval>(spec);
  if (dynamic_cast<const TypedState<omweso::State>*>(probe.get())) return make_omweso_engine(spec);
  throw VariantError("engine '" + spec.text + "': no search engine knows the " +
                     game.info().family + " family yet; 'random' plays every game");
}

std::string level_spec(const AnyGame& game, int level) {
  if (level < 1 || level > 10)
    throw VariantError("level " + std::to_string(level) + " does not exist; levels are 1 to 10");
  const auto probe = game.new_game();
  const LevelTable* table = &kSowingLevels;
  if (const auto* s = dynamic_cast<const TypedState<sowing::State>*>(probe.get()))
    table = &sowing_levels(s->typed().rules());
  if (game.info().family == "backgammon") table = &kBackgammonLevels;
  const Level& l = (*table)[level - 1];
  auto text = [](double v) {
    std::string t = std::to_string(v);
    t.erase(t.find_last_not_of('0') + 1);
    if (t.back() == '.') t.pop_back();
    return t;
  };
  std::string s = "alphabeta:";
  if (l.depth) s += "depth=" + std::to_string(l.depth) + ",";
  if (l.nodes) s += "nodes=" + std::to_string(l.nodes) + ",";
  s += "time=" + text(l.seconds);
  if (l.temperature > 0) s += ",noise=" + text(l.temperature);
  if (l.threads > 1) s += ",threads=" + std::to_string(l.threads);
  return s;
}

namespace {

const sowing::State& sowing_state(const AnyState& state) {
  const auto* t = dynamic_cast<const TypedState<sowing::State>*>(&state);
  if (!t) throw VariantError("search benchmarks know the sowing family only so far");
  if (state.is_over()) throw Error("the game is over; there is nothing to search");
  return t->typed();
}

// Process CPU time (every thread's), for the benchmarks' per-CPU-second rates.
double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

}  // namespace

SearchBench bench_alphabeta(const AnyState& state, int depth, double seconds, int threads) {
  const sowing::State& s = sowing_state(state);
  search::AlphaBetaOptions options;
  options.threads = threads;
  options.hash_mb = 64;
  search::AlphaBeta<sowing::State, eval::SowingEval> ab(eval::SowingEval(s.rules()), options);
  SearchBench out;
  const double cpu_start = cpu_seconds();
  const auto r = ab.search(s, {seconds, depth, 0}, [&](const auto& it) {
    out.iterations.push_back(
        {it.depth, it.nodes, it.seconds, search::to_points(it.value), s.format_move(it.best)});
  });
  out.cpu_seconds = cpu_seconds() - cpu_start;
  out.nodes = r.nodes;
  out.seconds = r.seconds;
  return out;
}

MctsBench bench_mcts(const AnyState& state, double seconds, int threads, bool eval_leaf) {
  const sowing::State& s = sowing_state(state);
  search::MctsOptions options;
  options.threads = threads;
  options.eval_leaf = eval_leaf;
  options.reuse_tree = false;
  eval::SowingEval eval(s.rules());
  search::Mcts<sowing::State> mcts(options, [eval](const sowing::State& x) { return eval(x); });
  const double cpu_start = cpu_seconds();
  const auto r = mcts.search(s, 0, seconds);
  return {r.simulations, r.seconds, cpu_seconds() - cpu_start, r.depth};
}

Proof prove(const AnyState& state, double seconds) {
  const sowing::State& s = sowing_state(state);
  if (s.ends_on_cycle())
    throw VariantError("the prover does not follow repetitions; " + s.rules().name +
                       " ends on cycles, so it cannot be proved this way");
  search::Prover<sowing::State, eval::SowingMarginBounds, eval::SowingEval> prover(
      {}, eval::SowingEval(s.rules()), 1024);
  const Player me = s.to_move();
  Proof p;
  p.low = eval::SowingMarginBounds{}.lower(s, me);
  p.high = eval::SowingMarginBounds{}.upper(s, me);
  const auto start = std::chrono::steady_clock::now();
  auto left = [&] {
    if (seconds <= 0) return 0.0;
    return std::max(
        1e-3,
        seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  // Win (margin >= 1)? Else draw or better (margin >= 0)?
  search::Prover<sowing::State, eval::SowingMarginBounds, eval::SowingEval>::Stats st;
  if (auto win = prover.at_least(s, me, 1, left(), &st)) {
    p.nodes += st.nodes;
    if (*win) {
      p.low = std::max(p.low, 1);
      p.decided = true;
    } else {
      p.high = std::min(p.high, 0);
      auto draw = prover.at_least(s, me, 0, left(), &st);
      p.nodes += st.nodes;
      if (draw) {
        p.decided = true;
        if (*draw)
          p.low = std::max(p.low, 0);
        else
          p.high = -1;
      }
    }
  } else {
    p.nodes += st.nodes;
  }
  // Then the margin, by halving [low, high].
  while (p.decided && p.low < p.high && (seconds <= 0 || left() > 1e-3)) {
    const int mid = p.low + (p.high - p.low + 1) / 2;
    auto answer = prover.at_least(s, me, mid, left(), &st);
    p.nodes += st.nodes;
    if (!answer) break;
    if (*answer)
      p.low = mid;
    else
      p.high = mid - 1;
  }
  p.exact = p.low == p.high;
  p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return p;
}

std::string default_engine_kind(const AnyGame& game) {
  (void)game;
  return "alphabeta";
}

}  // namespace naqala::engine
