#pragma once
// The engines over a typed state: alpha-beta and MCTS behind the Engine interface. Each game
// family builds them for its state type in engine/<family>_engines.cpp (engine_family.h).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "core/error.h"
#include "core/rng.h"
#include "engine/engine.h"
#include "games/typed_state.h"
#include "search/alphabeta.h"
#include "search/mcts.h"

namespace naqala::engine {

// Checks that `state` is a state of game type S that this engine can play, and returns it
// with the game's history (TypedState::history).
template <TextGameState S>
const TypedState<S>& typed_game(const AnyState& state, const std::string& engine_name) {
  const auto* t = dynamic_cast<const TypedState<S>*>(&state);
  if (!t)
    throw Error("engine '" + engine_name +
                "' was made for another game and cannot play this position");
  if (state.is_over()) throw IllegalMoveError("the game is over; there is no move to choose");
  if (state.is_chance_node()) throw IllegalMoveError("a chance event (dice) is due, not a move");
  return *t;
}

template <TextGameState S>
const S& typed_state(const AnyState& state, const std::string& engine_name) {
  return typed_game<S>(state, engine_name).typed();
}

// The mover's moves likely left, for a game clock: sowing games last about as long as the
// seeds still in play; Bao's namua stage as long as the mover's hand (a seed a move) and its
// mtaji stage about 10 moves (docs/engines.md, "Bao on a clock"); 0 (unknown) for the other
// games.
template <class S>
int moves_left_estimate(const S& s) {
  if constexpr (requires {
                  s.rules().total_seeds;
                  s.store(Player::South);
                }) {
    const int total = std::max(1, s.rules().total_seeds);
    const int in_play = total - s.store(Player::South) - s.store(Player::North);
    return 10 + 40 * std::clamp(in_play, 0, total) / total;
  } else if constexpr (requires { s.rules().hand_seeds(); }) {
    // Bao la Kujifunza starts in the mtaji stage, with no hand: unknown.
    return s.rules().hand_seeds() > 0 ? s.hand(s.to_move()) + 10 : 0;
  } else {
    (void)s;
    return 0;
  }
}

struct AlphaBetaConfig {
  search::Limits limits;
  search::AlphaBetaOptions options;
  double temperature = 0;  // points; > 0 picks moves at random, better ones more often
  std::uint64_t seed = 1;
};

template <TextGameState S, search::Evaluation<S> Eval>
class AlphaBetaEngine : public Engine {
 public:
  AlphaBetaEngine(std::string name, Eval eval, AlphaBetaConfig config)
      : name_(std::move(name)),
        config_(config),
        search_(std::move(eval), options_for(config)),
        rng_(config.seed) {}

  std::string name() const override { return name_; }

  std::string choose_move(const AnyState& state) override { return choose(state, config_.limits); }

  // Search values in points: the evaluation's own unit when it declares one.
  static double points(int value) {
    if constexpr (requires { Eval::kUnit; }) {
      return static_cast<double>(value) / Eval::kUnit;
    } else {
      return search::to_points(value);
    }
  }

  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    search::Limits limits = config_.limits;
    const double budget = search::time_for_move(
        clock.remaining, clock.increment,
        clock.moves_to_go > 0 ? clock.moves_to_go
                              : moves_left_estimate(typed_state<S>(state, name_)));
    limits.seconds = limits.seconds > 0 ? std::min(limits.seconds, budget) : budget;
    return choose(state, limits);
  }

  Analysis analyze(const AnyState& state, const Limits& limits) override {
    const auto& game = typed_game<S>(state, name_);
    const S& s = game.typed();
    search::Limits l = config_.limits;
    if (limits.seconds > 0 || limits.depth > 0 || limits.nodes > 0)
      l = {limits.seconds, limits.depth, limits.nodes};
    if (l.seconds <= 0 && l.depth <= 0 && l.nodes <= 0) l.seconds = 1;
    auto options = search_.options();
    const auto saved = options;
    options.score_all_moves = false;
    options.multipv = std::max(1, limits.multipv);
    search_.set_options(options);
    const auto r = search_.search(s, l, {}, game.history());
    search_.set_options(saved);
    return to_analysis(s, r);
  }

  Analysis think(const AnyState& state, const SearchRequest& request) override {
    const auto& game = typed_game<S>(state, name_);
    const S& s = game.typed();
    search::Limits limits = config_.limits;
    const Limits& l = request.limits;
    if (l.seconds > 0 || l.depth > 0 || l.nodes > 0) limits = {l.seconds, l.depth, l.nodes};
    if (request.on_clock) {
      const auto& c = request.clock;
      const double budget = search::time_for_move(
          c.remaining, c.increment, c.moves_to_go > 0 ? c.moves_to_go : moves_left_estimate(s));
      limits.seconds = l.seconds > 0 ? std::min(l.seconds, budget) : budget;
      limits.depth = l.depth;
      limits.nodes = l.nodes;
    }
    if (request.infinite) limits = {1e9, 0, 0};
    typename search::AlphaBeta<S, Eval>::Progress progress;
    if (request.progress) progress = [&](const auto& r) { request.progress(to_analysis(s, r)); };
    const auto r = search_.search(s, limits, progress, game.history());
    if (!r.has_move) throw IllegalMoveError("no legal move in this position");
    Analysis a = to_analysis(s, r);
    a.best_move = s.format_move(pick(r));
    return a;
  }

  void stop() override { search_.stop(); }

  // Nothing of the last game stays in the table: a game's moves do not depend on the games
  // played before it (an arena or tournament resumed part-way plays the same games).
  void new_game() override { search_.clear(); }

 protected:
  const search::Limits& limits() const { return config_.limits; }

  std::string choose(const AnyState& state, const search::Limits& limits) {
    const auto& game = typed_game<S>(state, name_);
    const S& s = game.typed();
    const auto r = search_.search(s, limits, {}, game.history());
    if (!r.has_move) throw IllegalMoveError("no legal move in this position");
    return s.format_move(pick(r));
  }

 private:
  static search::AlphaBetaOptions options_for(const AlphaBetaConfig& c) {
    auto o = c.options;
    o.score_all_moves = c.temperature > 0;
    return o;
  }

  using SearchResult = typename search::AlphaBeta<S, Eval>::Result;

  // The search's best move, or with noise a move drawn by its value.
  typename S::Move pick(const SearchResult& r) {
    if (config_.temperature <= 0 || r.scores.size() < 2) return r.best;
    // Softmax sampling by the Gumbel trick: the move with the largest value / T + Gumbel
    // noise is drawn with probability proportional to exp(value / T). Proven results are
    // capped so a won line is preferred but not certain at the lowest levels.
    double best = -1e300;
    auto pick = r.best;
    for (const auto& mv : r.scores) {
      const double value = std::clamp(points(mv.value), -60.0, 60.0);
      const double u = std::max(rng_.uniform(), 1e-300);
      const double key = value / config_.temperature - std::log(-std::log(u));
      if (key > best) {
        best = key;
        pick = mv.move;
      }
    }
    return pick;
  }

  static Analysis to_analysis(const S& s, const SearchResult& r) {
    Analysis a;
    a.best_move = s.format_move(r.best);
    a.value = points(r.value);
    S walk = s;
    for (auto m : r.pv) {
      a.pv.push_back(walk.format_move(m));
      walk.play(m);
    }
    for (const auto& mv : r.scores)
      a.scores.push_back({s.format_move(mv.move), points(mv.value), mv.exact});
    a.depth = r.depth;
    a.nodes = r.nodes;
    a.seconds = r.seconds;
    a.proven = r.exact;
    return a;
  }

  std::string name_;
  AlphaBetaConfig config_;
  search::AlphaBeta<S, Eval> search_;
  Rng rng_;
};

struct MctsConfig {
  std::uint64_t simulations = 0;
  double seconds = 0;
  search::MctsOptions options;
};

template <TextGameState S>
class MctsEngine : public Engine {
 public:
  MctsEngine(std::string name, MctsConfig config, typename search::Mcts<S>::LeafEval eval = {})
      : name_(std::move(name)), config_(config), mcts_(config.options, std::move(eval)) {}

  std::string name() const override { return name_; }

  std::string choose_move(const AnyState& state) override {
    const S& s = typed_state<S>(state, name_);
    const auto r = mcts_.search(s, config_.simulations, config_.seconds);
    if (!r.has_move) throw IllegalMoveError("no legal move in this position");
    return s.format_move(r.best);
  }

  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    const S& s = typed_state<S>(state, name_);
    const double budget =
        search::time_for_move(clock.remaining, clock.increment, moves_left_estimate(s));
    const auto r = mcts_.search(s, config_.simulations,
                                config_.seconds > 0 ? std::min(config_.seconds, budget) : budget);
    return s.format_move(r.best);
  }

  Analysis analyze(const AnyState& state, const Limits& limits) override {
    const S& s = typed_state<S>(state, name_);
    std::uint64_t sims = config_.simulations;
    double seconds = config_.seconds;
    if (limits.seconds > 0 || limits.nodes > 0) {
      sims = limits.nodes;
      seconds = limits.seconds;
    }
    return to_analysis(s, mcts_.search(s, sims, seconds));
  }

  // MCTS reports once, at the end: it has no iterations.
  Analysis think(const AnyState& state, const SearchRequest& request) override {
    const S& s = typed_state<S>(state, name_);
    std::uint64_t sims = config_.simulations;
    double seconds = config_.seconds;
    const Limits& l = request.limits;
    if (l.seconds > 0 || l.nodes > 0) {
      sims = l.nodes;
      seconds = l.seconds;
    }
    if (request.on_clock) {
      const auto& c = request.clock;
      const double budget = search::time_for_move(c.remaining, c.increment, c.moves_to_go);
      seconds = seconds > 0 ? std::min(seconds, budget) : budget;
    }
    if (request.infinite) {
      sims = 0;
      seconds = 1e9;
    }
    const auto r = mcts_.search(s, sims, seconds);
    if (!r.has_move) throw IllegalMoveError("no legal move in this position");
    Analysis a = to_analysis(s, r);
    if (request.progress) request.progress(a);
    return a;
  }

  void stop() override { mcts_.stop(); }

 private:
  static Analysis to_analysis(const S& s, const typename search::Mcts<S>::Result& r) {
    Analysis a;
    a.best_move = s.format_move(r.best);
    a.value = r.margin;
    S walk = s;
    for (auto m : r.pv) {
      a.pv.push_back(walk.format_move(m));
      walk.play(m);
    }
    for (const auto& mv : r.moves) a.scores.push_back({s.format_move(mv.move), mv.margin});
    a.depth = r.depth;
    a.nodes = r.simulations;
    a.seconds = r.seconds;
    return a;
  }

  std::string name_;
  MctsConfig config_;
  search::Mcts<S> mcts_;
};

}  // namespace naqala::engine
