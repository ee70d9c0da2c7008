#include "engine/engine.h"

#include <algorithm>
#include <memory>

#include "core/error.h"
#include "engine/engine_family.h"

namespace naqala::engine {

namespace {

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

const EngineFamily& family_of(const AnyGame& game, const EngineSpec& spec) {
  for (const auto& f : engine_families())
    if (f.family == game.info().family) return f;
  throw VariantError("engine '" + spec.text + "': no search engine knows the " +
                     game.info().family + " family yet; 'random' plays every game");
}

}  // namespace

std::unique_ptr<Engine> make_engine(const AnyGame& game, std::string_view text) {
  const EngineSpec spec = parse_spec(text);
  if (spec.kind == "random") {
    check_keys(spec, {"seed"});
    return std::make_unique<RandomEngine>(seed_option(spec));
  }
  if (spec.kind != "level" && spec.kind != "alphabeta" && spec.kind != "mcts") {
    const auto* f = &family_of(game, spec);
    if (std::find(f->extra_kinds.begin(), f->extra_kinds.end(), spec.kind) == f->extra_kinds.end())
      bad_spec(spec, "unknown engine '" + spec.kind + "'");
  }
  return family_of(game, spec).make(game, spec);
}

std::string level_spec(const AnyGame& game, int level) {
  if (level < 1 || level > 10)
    throw VariantError("level " + std::to_string(level) + " does not exist; levels are 1 to 10");
  const EngineSpec spec = parse_spec("level:" + std::to_string(level));
  const EngineFamily& f = family_of(game, spec);
  if (f.level_text) return f.level_text(level);
  return level_text(f.levels(game)[level - 1]);
}

std::string default_engine_kind(const AnyGame& game) {
  (void)game;
  return "alphabeta";
}

}  // namespace naqala::engine
