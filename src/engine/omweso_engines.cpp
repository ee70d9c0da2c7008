// Omweso's engines (omweso, omweso-s0): North's setup chosen by a search over whole layouts,
// South's (and with setup=spread both) the even spread (omweso::State::spread_setup_move); play
// by alpha-beta over eval::OmwesoEval, or MCTS.
#include <algorithm>
#include <array>
#include <chrono>
#include <map>
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

// `base` with `seeds` more in `pits`: 2 a pit while they last, the rest one at a time into a
// drawn pit.
Layout filled(Layout base, const std::vector<int>& pits, int seeds, Rng& rng) {
  for (int i : pits) {
    const int two = std::min(seeds, 2);
    base[i] = static_cast<std::uint8_t>(two);
    seeds -= two;
  }
  for (; seeds > 0; --seeds) ++base[pits[rng.below(static_cast<std::uint32_t>(pits.size()))]];
  return base;
}

// Candidate completions of the mover's layout (the pits placed so far kept): the even spread;
// the seeds left evenly over the free back pits, over the free front pits, over one pit of each
// column (front on even columns, back on odd, and the other way round), and over each half of
// the board; then random ones (each free pit drawn in with probability 0.3-0.8, 2 seeds each
// while they last, the rest one seed at a time into a drawn pit). Distinct, at most `count`.
std::vector<Layout> candidate_layouts(const omweso::State& s, int count, Rng& rng) {
  int k = 0;
  const Layout base = placed_layout(s, &k);
  int left = 32;
  for (int i = 0; i < k; ++i) left -= base[i];
  std::vector<Layout> out;
  auto add = [&](const Layout& l) {
    if (static_cast<int>(out.size()) < count && std::find(out.begin(), out.end(), l) == out.end())
      out.push_back(l);
  };
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
    add(filled(base, pits, left, rng));
  }
  return out;
}

// A setup ply's limit (time, nodes) shared over the searches it runs: the ply's clock is read
// before each one, which gets at most what is left of the ply's time and nodes.
class PlyBudget {
 public:
  explicit PlyBudget(const search::Limits& limits)
      : limits_(limits), start_(std::chrono::steady_clock::now()) {}
  // A search to `depth` within what is left; nullopt once nothing is left.
  std::optional<Limits> next(int depth) const {
    Limits l;
    l.depth = depth;
    if (limits_.nodes) {
      if (nodes_ >= limits_.nodes) return std::nullopt;
      l.nodes = limits_.nodes - nodes_;
    }
    if (limits_.seconds > 0) {
      l.seconds = limits_.seconds -
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      if (l.seconds <= 1e-4) return std::nullopt;
    }
    return l;
  }
  void spend(std::uint64_t nodes) { nodes_ += nodes; }

 private:
  search::Limits limits_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t nodes_ = 0;
};

// North's setup by search. North lays out after South, so a North layout's value (the search of
// the position it leaves, South to move, to a fixed depth) stays the same through North's 15
// setup plies: North climbs over layouts by local changes (a seed or two, or a whole pit, moved
// between the pits not yet placed), keeping a change the search scores better at the same depth
// (values of different depths are not compared: an odd depth ends on South's move and favours
// him) and the values found at earlier plies; after kPatience changes in a row fail, the depth
// grows by one. The climb starts from the best of the candidate layouts above and of random
// layouts with at most one pit a column (South captures only a column whose two pits both hold
// seeds, so these stop South's first capture). Each setup ply stays within its own limit and
// plays the next pit of the best layout so far (a depth limit caps the climb's depth). (South lays
// out the even spread: docs/engines.md "Omweso's setup".)
class LayoutSearch {
 public:
  static constexpr int kCandidates = 16;
  static constexpr int kColumnLayouts = 24;
  static constexpr int kPatience = 24;
  static constexpr int kStartDepth = 3;
  static constexpr int kStepsWithoutLimit = 4 * kPatience;  // a ply's searches under a depth alone

  explicit LayoutSearch(std::uint64_t seed) : rng_(seed) {}

  // North's next setup move (North to move in the setup).
  std::string choose(Engine& search, const AnyState& state, const search::Limits& limits) {
    const auto& s = typed_state<omweso::State>(state, search.name());
    const Layout& l = climb(search, state, limits);
    int k = 0;
    placed_layout(s, &k);
    return s.format_move(
        omweso::Move{static_cast<std::uint8_t>(omweso::State::setup_pit(k)), 0, l[k]});
  }

  void clear() { climb_ = {}; }

 private:
  // The climb: the values found (by layout and depth, North's view), for South's layout.
  struct Climb {
    Layout south{};
    std::map<std::pair<Layout, int>, double> values;
    std::optional<Layout> best;
    std::optional<double> best_value;  // at `depth`; unset when not yet searched there
    int depth = kStartDepth;
    int fails = 0;
  };

  const Layout& climb(Engine& search, const AnyState& state, const search::Limits& limits) {
    const auto& s = typed_state<omweso::State>(state, search.name());
    int k = 0;
    const Layout base = placed_layout(s, &k);
    Layout south{};
    for (int i = 0; i < 16; ++i)
      south[i] = static_cast<std::uint8_t>(s.pit(Player::South, omweso::State::setup_pit(i)));
    // A depth limit caps the climb's depth; without a time or node limit a ply runs at most
    // kStepsWithoutLimit steps.
    const int max_depth = limits.depth > 0 ? limits.depth : search::kMaxPly - 1;
    const bool limited = limits.nodes > 0 || limits.seconds > 0;
    Climb& c = climb_;
    if (c.south != south || !c.best ||
        !std::equal(base.begin(), base.begin() + k, c.best->begin())) {
      c = Climb{};
      c.south = south;
      c.depth = std::min(kStartDepth, max_depth);
    }
    PlyBudget budget(limits);
    // North's value of layout `l` at depth `depth`, or nullopt when the ply's limit cut it short.
    auto value = [&](const Layout& l, int depth) -> std::optional<double> {
      if (auto it = c.values.find({l, depth}); it != c.values.end()) return it->second;
      const auto each = budget.next(depth);
      if (!each) return std::nullopt;
      auto after = state.clone();
      play_layout(*after, l);
      double v;
      if (after->is_over()) {
        v = -(after->outcome().south_points() - 0.5) * 2 * kDecided;
      } else {
        const Analysis a = search.analyze(*after, *each);
        budget.spend(a.nodes);
        if (a.depth < depth && !a.proven) return std::nullopt;
        v = after->to_move() == Player::South ? -a.value : a.value;
      }
      c.values[{l, depth}] = v;
      return v;
    };
    if (!c.best) {
      std::vector<Layout> seeds = candidate_layouts(s, kCandidates, rng_);
      for (int i = 0; i < kColumnLayouts; ++i) {
        const Layout l = column_layout(base, k);
        if (std::find(seeds.begin(), seeds.end(), l) == seeds.end()) seeds.push_back(l);
      }
      c.best = seeds.front();
      for (const Layout& l : seeds) {
        const auto v = value(l, c.depth);
        if (!v) break;
        if (!c.best_value || *v > *c.best_value) {
          c.best = l;
          c.best_value = v;
        }
      }
    }
    // No free pit to change (the last takes the rest), or no seed left to move.
    if (k >= 15 || std::all_of(c.best->begin() + k, c.best->end(), [](int n) { return n == 0; }))
      return *c.best;
    for (int steps = 0; limited || steps < kStepsWithoutLimit; ++steps) {
      if (!c.best_value) {
        c.best_value = value(*c.best, c.depth);
        if (!c.best_value) break;
      }
      const Layout n = neighbour(*c.best, k);
      const auto v = value(n, c.depth);
      if (!v) break;
      if (*v > *c.best_value) {
        c.best = n;
        c.best_value = v;
        c.fails = 0;
      } else if (++c.fails >= kPatience) {
        c.fails = 0;
        if (c.depth >= max_depth) break;  // a local optimum at the deepest depth allowed
        ++c.depth;
        c.best_value.reset();
      }
    }
    return *c.best;
  }

  // A layout with at most one pit a column among the free pits (a column with a placed pit that
  // holds seeds keeps its other pit empty); the seeds left 2 a pit, the rest at random.
  Layout column_layout(const Layout& base, int k) {
    int left = 32;
    for (int i = 0; i < k; ++i) left -= base[i];
    std::vector<int> pits;
    for (int col = 0; col < 8; ++col) {
      const int front = col, back = 8 + col;
      if ((front < k && base[front] > 0) || (back < k && base[back] > 0)) continue;
      const double r = rng_.uniform();
      const int pick = r < 0.45 ? front : r < 0.9 ? back : -1;
      if (pick >= k) pits.push_back(pick);
    }
    if (pits.empty()) pits.push_back(15);
    return filled(base, pits, left, rng_);
  }

  // A local change among the free pits (k..15, at least two): one or two seeds, or all of a pit,
  // moved to another pit.
  Layout neighbour(const Layout& l, int k) {
    std::vector<int> full;
    for (int i = k; i < 16; ++i)
      if (l[i] > 0) full.push_back(i);
    Layout n = l;
    const int from = full[rng_.below(static_cast<std::uint32_t>(full.size()))];
    int to = k + static_cast<int>(rng_.below(static_cast<std::uint32_t>(15 - k)));
    if (to >= from) ++to;
    const double r = rng_.uniform();
    const int seeds = r < 0.5 ? 1 : r < 0.7 ? std::min<int>(2, l[from]) : l[from];
    n[from] = static_cast<std::uint8_t>(n[from] - seeds);
    n[to] = static_cast<std::uint8_t>(n[to] + seeds);
    return n;
  }

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

  static constexpr double kDecided = 2000;  // points: beyond any searched value, proven or not

  Rng rng_;
  Climb climb_;
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
    if (layouts && s.to_move() == Player::North)
      return layout_search_.choose(*search_, state, *layouts);
    return s.format_move(s.spread_setup_move(noisy_ ? &rng_ : nullptr));
  }

  std::unique_ptr<Engine> search_;
  bool noisy_;
  Rng rng_;
  std::optional<search::Limits> layouts_;
  LayoutSearch layout_search_;
};

// setup=search (North's layout searched, South's the even spread; the default of alpha-beta,
// every level included: the noisy levels' layouts searched within their own limits grade the
// levels, where the spread left levels 1-7 tied) or setup=spread (the even layout on both sides;
// the default of MCTS), taken out of the spec before the search reads it.
std::unique_ptr<Engine> make(const AnyGame& game, const EngineSpec& given) {
  EngineSpec spec = given;
  std::string setup;
  if (auto it = spec.options.find("setup"); it != spec.options.end()) {
    setup = it->second;
    spec.options.erase(it);
    if (setup != "search" && setup != "spread")
      bad_spec(given, "setup=" + setup +
                          ": the setup is 'search' (North's layout by a search over layouts, "
                          "South's the even spread) or 'spread' (both laid out evenly)");
  }
  AlphaBetaConfig c;  // the search's noise and seed also drive the setup policy
  // No late move reductions: lmr=3 measured weaker with the layout search (docs/engines.md
  // "Measuring Omweso between engines").
  auto search =
      make_board4_search<omweso::State, eval::OmwesoEval>(game, spec, kOmwesoLevels, {}, &c);
  const bool noisy = c.temperature > 0;
  const bool searched =
      setup.empty() ? spec.kind != "mcts" && spec.kind != "random" : setup == "search";
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
