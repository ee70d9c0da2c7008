// Omweso's engines (omweso, omweso-s0): the setup spread (omweso::State::spread_setup_move), play
// by alpha-beta over eval::OmwesoEval, or MCTS.
#include <optional>

#include "engine/board4_search.h"
#include "engine/engine_family.h"
#include "eval/omweso_eval.h"
#include "games/omweso/omweso.h"

namespace naqala::engine {

namespace {

// Depth, noise in seeds, time cap: the sowing games' ladder (docs/engines.md measures level 5
// against 1 and 8 against 5 on Omweso); a table of its own goes here when it is retuned.
constexpr const LevelTable& kOmwesoLevels = kBoardLevels;

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
  Analysis think(const AnyState& state, const SearchRequest& request) override {
    if (auto m = setup_move(state)) {
      Analysis a;
      a.best_move = *m;
      a.pv = {*m};
      return a;
    }
    return search_->think(state, request);
  }
  void stop() override { search_->stop(); }

 private:
  std::optional<std::string> setup_move(const AnyState& state) {
    const auto& s = typed_state<omweso::State>(state, name());
    if (!s.in_setup()) return std::nullopt;
    return s.format_move(s.spread_setup_move(noisy_ ? &rng_ : nullptr));
  }

  std::unique_ptr<Engine> search_;
  bool noisy_;
  Rng rng_;
};

std::unique_ptr<Engine> make(const AnyGame& game, const EngineSpec& spec) {
  AlphaBetaConfig c;  // the search's noise and seed also drive the setup policy
  // No late move reductions: Omweso's matches do not measure them yet (the setup decides the
  // games, docs/engines.md "Pit tables (Bao, Omweso)").
  auto search =
      make_board4_search<omweso::State, eval::OmwesoEval>(game, spec, kOmwesoLevels, 0, &c);
  return std::make_unique<OmwesoEngine>(std::move(search), c.temperature > 0, c.seed ^ 0x5e7u);
}

const LevelTable& levels(const AnyGame&) {
  return kOmwesoLevels;
}

}  // namespace

EngineFamily omweso_engines() {
  return {"omweso", make, levels};
}

}  // namespace naqala::engine
