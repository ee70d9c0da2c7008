// Omweso's engines (omweso, omweso-s0): the setup chosen by a search over whole layouts (or the
// even spread, omweso::State::spread_setup_move), play by alpha-beta over eval::OmwesoEval, or
// MCTS.
#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <optional>
#include <vector>

#include "engine/board4_search.h"
#include "engine/engine_family.h"
#include "engine/engine_spec.h"
#include "eval/omweso_eval.h"
#include "games/omweso/omweso.h"
#include "search/values.h"

namespace naqala::engine {

namespace {

// Depth, noise in seeds, time cap: the sowing games' ladder (docs/engines.md measures level 5
// against 1 and 8 against 5 on Omweso); a table of its own goes here when it is retuned.
constexpr const LevelTable& kOmwesoLevels = kBoardLevels;

// One side's layout: the seeds of its 16 pits in the setup order (a1..h1, then a2..h2).
using Layout = std::array<std::uint8_t, 16>;

// The mover's pits placed so far (the setup order's first `placed` pits) and how many.
Layout placed_layout(const omweso::State& s, int* placed) {
  omweso::State::MoveList moves;
  s.legal_moves(moves);
  int k = 0;
  while (omweso::State::setup_pit(k) != moves[0].pit) ++k;
  Layout l{};
  for (int i = 0; i < k; ++i)
    l[i] = static_cast<std::uint8_t>(s.pit(s.to_move(), omweso::State::setup_pit(i)));
  *placed = k;
  return l;
}

// Candidate completions of the mover's layout (the pits placed so far kept): the even spread;
// the seeds left evenly over the free back pits, over the free front pits, over one pit of each
// column (front on even columns, back on odd, and the other way round), and over each half of
// the board; then random ones (each free pit drawn in with probability 0.3-0.8, 2 seeds each
// while they last, the rest one seed at a time into a drawn pit). Distinct, at most `count`,
// `incumbent` first when it completes the pits placed.
std::vector<Layout> candidate_layouts(const omweso::State& s, int count, Rng& rng,
                                      const std::optional<Layout>& incumbent) {
  int k = 0;
  const Layout base = placed_layout(s, &k);
  int left = 32;
  for (int i = 0; i < k; ++i) left -= base[i];
  std::vector<Layout> out;
  auto add = [&](const Layout& l) {
    if (static_cast<int>(out.size()) < count && std::find(out.begin(), out.end(), l) == out.end())
      out.push_back(l);
  };
  if (incumbent && std::equal(base.begin(), base.begin() + k, incumbent->begin())) add(*incumbent);
  // Evenly over the free pits `chosen` picks (the last pit takes any rest when none is chosen).
  auto even = [&](auto chosen) {
    std::vector<int> pits;
    for (int i = k; i < 16; ++i)
      if (chosen(i)) pits.push_back(i);
    if (pits.empty()) return;
    Layout l = base;
    const int n = static_cast<int>(pits.size());
    for (int j = 0; j < n; ++j) l[pits[j]] = static_cast<std::uint8_t>(left / n + (j < left % n));
    add(l);
  };
  even([](int) { return true; });
  even([](int i) { return i >= 8; });
  even([](int i) { return i < 8; });
  even([](int i) { return (i < 8) == (i % 8 % 2 == 0); });
  even([](int i) { return (i < 8) != (i % 8 % 2 == 0); });
  even([](int i) { return i % 8 < 4; });
  even([](int i) { return i % 8 >= 4; });
  for (int tries = 0; static_cast<int>(out.size()) < count && tries < 8 * count; ++tries) {
    const double p = 0.3 + 0.1 * rng.below(6);
    std::vector<int> pits;
    for (int i = k; i < 16; ++i)
      if (rng.uniform() < p) pits.push_back(i);
    if (pits.empty()) continue;
    Layout l = base;
    int rest = left;
    for (int i : pits) {
      const int two = std::min(rest, 2);
      l[i] = static_cast<std::uint8_t>(two);
      rest -= two;
    }
    for (; rest > 0; --rest) ++l[pits[rng.below(static_cast<std::uint32_t>(pits.size()))]];
    add(l);
  }
  return out;
}

// The setup by search: each setup ply, the candidate completions of the mover's layout are
// played out to the start of play and searched, and the best one's next pit is played. North
// (who sees South's layout) scores a layout by the search of the position it leaves (South to
// move); South scores one by its worst outcome over North's candidate replies. The move's
// limits are shared over the searches, so every setup ply stays within its own limit, and the
// layout chosen last is kept as a candidate for the next ply.
class LayoutSearch {
 public:
  static constexpr int kNorthLayouts = 16;
  static constexpr int kSouthLayouts = 6;
  static constexpr int kNorthReplies = 8;

  explicit LayoutSearch(std::uint64_t seed) : rng_(seed) {}

  std::string choose(Engine& search, const AnyState& state, const search::Limits& limits) {
    const auto& s = typed_state<omweso::State>(state, search.name());
    const bool south = s.to_move() == Player::South;
    std::optional<Layout>& incumbent = incumbent_[south ? 0 : 1];
    const auto mine = candidate_layouts(s, south ? kSouthLayouts : kNorthLayouts, rng_, incumbent);
    const int searches = static_cast<int>(mine.size()) * (south ? kNorthReplies : 1);
    Limits each;
    each.seconds = limits.seconds / searches;
    each.nodes = limits.nodes ? std::max<std::uint64_t>(limits.nodes / searches, 1) : 0;
    each.depth = limits.depth;
    // With a time limit the ply's clock is read before each search: the searches' own minimum
    // (depth 1) and the copies cost more than a share of a few milliseconds on a loaded
    // machine, so the candidates not reached in time are left out.
    const auto start = std::chrono::steady_clock::now();
    auto time_left = [&] {
      return limits.seconds -
             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    double best = -std::numeric_limits<double>::infinity();
    bool out_of_time = false, chosen = false;
    for (const Layout& l : mine) {
      if (out_of_time && chosen) break;
      auto after = state.clone();
      play_layout(*after, l);
      double value;
      if (south && !after->is_over()) {
        value = std::numeric_limits<double>::infinity();
        const auto& north = typed_state<omweso::State>(*after, search.name());
        for (const Layout& reply : candidate_layouts(north, kNorthReplies, rng_, std::nullopt)) {
          auto game = after->clone();
          play_layout(*game, reply);
          value = std::min(value, south_value(search, *game, timed(each, time_left, out_of_time)));
          if (value <= best) break;  // this layout cannot beat the best one found
          if (out_of_time && chosen) break;
        }
        // A layout not tried against every reply in time is not compared (its value is only
        // an upper bound).
        if (out_of_time && chosen) break;
      } else {
        value = south_value(search, *after, timed(each, time_left, out_of_time)) * (south ? 1 : -1);
      }
      chosen = true;
      if (value > best) {
        best = value;
        incumbent = l;
      }
    }
    int k = 0;
    placed_layout(s, &k);
    return s.format_move(
        omweso::Move{static_cast<std::uint8_t>(omweso::State::setup_pit(k)), 0, (*incumbent)[k]});
  }

  void clear() { incumbent_ = {}; }

 private:
  // Plays the mover's remaining setup plies of layout `l` (the 16th pit takes the rest).
  static void play_layout(AnyState& state, const Layout& l) {
    const Player side = state.to_move();
    while (!state.is_over() && state.to_move() == side) {
      const auto& s = typed_state<omweso::State>(state, "omweso");
      if (!s.in_setup()) break;
      int k = 0;
      placed_layout(s, &k);
      state.play(s.format_move(
          omweso::Move{static_cast<std::uint8_t>(omweso::State::setup_pit(k)), 0, l[k]}));
    }
  }

  // `each` within the time left of the ply (when it has a time limit); `out_of_time` set once
  // no time is left (that search still runs, as short as the search allows).
  template <class TimeLeft>
  static Limits timed(Limits each, TimeLeft time_left, bool& out_of_time) {
    if (each.seconds <= 0) return each;
    const double left = time_left();
    if (left <= each.seconds) {
      out_of_time = true;
      each.seconds = std::max(left, 1e-4);
    }
    return each;
  }

  static constexpr double kDecided = 2000;  // points: beyond any searched value, proven or not
  // South's value of a position after both setups, in points (a finished game: its result).
  static double south_value(Engine& search, const AnyState& state, const Limits& limits) {
    if (state.is_over()) return (state.outcome().south_points() - 0.5) * 2 * kDecided;
    const double v = search.analyze(state, limits).value;
    return state.to_move() == Player::South ? v : -v;
  }

  Rng rng_;
  std::array<std::optional<Layout>, 2> incumbent_;
};

class OmwesoEngine : public Engine {
 public:
  // `layouts`: the limits of a setup ply's layout search; nullopt lays the seeds out evenly
  // (with `noisy`, a seed of jitter a pit).
  OmwesoEngine(std::unique_ptr<Engine> search, bool noisy, std::uint64_t seed,
               std::optional<search::Limits> layouts)
      : search_(std::move(search)),
        noisy_(noisy),
        rng_(seed),
        layouts_(layouts),
        layout_search_(seed) {}
  std::string name() const override { return search_->name(); }
  std::string choose_move(const AnyState& state) override {
    if (auto m = setup_move(state, layouts_)) return *m;
    return search_->choose_move(state);
  }
  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    std::optional<search::Limits> limits = layouts_;
    if (limits) {
      const double budget = search::time_for_move(clock.remaining, clock.increment);
      limits->seconds = limits->seconds > 0 ? std::min(limits->seconds, budget) : budget;
    }
    if (auto m = setup_move(state, limits)) return *m;
    return search_->choose_move_on_clock(state, clock);
  }
  Analysis analyze(const AnyState& state, const Limits& limits) override {
    return search_->analyze(state, limits);
  }
  Analysis think(const AnyState& state, const SearchRequest& request) override {
    if (auto m = setup_move(state, layouts_)) {
      Analysis a;
      a.best_move = *m;
      a.pv = {*m};
      return a;
    }
    return search_->think(state, request);
  }
  void stop() override { search_->stop(); }
  void new_game() override {
    search_->new_game();
    layout_search_.clear();
  }

 private:
  std::optional<std::string> setup_move(const AnyState& state,
                                        const std::optional<search::Limits>& layouts) {
    const auto& s = typed_state<omweso::State>(state, name());
    if (!s.in_setup()) return std::nullopt;
    if (layouts) return layout_search_.choose(*search_, state, *layouts);
    return s.format_move(s.spread_setup_move(noisy_ ? &rng_ : nullptr));
  }

  std::unique_ptr<Engine> search_;
  bool noisy_;
  Rng rng_;
  std::optional<search::Limits> layouts_;
  LayoutSearch layout_search_;
};

// setup=search (the default of alpha-beta without noise) or setup=spread (the even layout; the
// default of noisy levels and MCTS), taken out of the spec before the search reads it.
std::unique_ptr<Engine> make(const AnyGame& game, const EngineSpec& given) {
  EngineSpec spec = given;
  std::string setup;
  if (auto it = spec.options.find("setup"); it != spec.options.end()) {
    setup = it->second;
    spec.options.erase(it);
    if (setup != "search" && setup != "spread")
      bad_spec(given, "setup=" + setup +
                          ": the setup is 'search' (a search over layouts) or "
                          "'spread' (the seeds laid out evenly)");
  }
  AlphaBetaConfig c;  // the search's noise and seed also drive the setup policy
  // No late move reductions: Omweso's matches do not measure them yet (the setup decides the
  // games, docs/engines.md "Pit tables (Bao, Omweso)").
  auto search =
      make_board4_search<omweso::State, eval::OmwesoEval>(game, spec, kOmwesoLevels, 0, &c);
  const bool noisy = c.temperature > 0;
  const bool searched =
      setup.empty() ? spec.kind != "mcts" && spec.kind != "random" && !noisy : setup == "search";
  if (searched && spec.kind == "mcts")
    bad_spec(given, "setup=search needs an alpha-beta engine (alphabeta: or level:)");
  std::optional<search::Limits> layouts;
  if (searched) layouts = c.limits;  // (omweso-s0 has no setup)
  return std::make_unique<OmwesoEngine>(std::move(search), noisy, c.seed ^ 0x5e7u, layouts);
}

const LevelTable& levels(const AnyGame&) {
  return kOmwesoLevels;
}

}  // namespace

EngineFamily omweso_engines() {
  return {"omweso", make, levels};
}

}  // namespace naqala::engine
