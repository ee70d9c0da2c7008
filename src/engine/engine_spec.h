#pragma once
// Engine specs ("level:7", "alphabeta:depth=9", "mcts:sims=5000") parsed once, and the
// configurations every family builds from them. A family's engines (engine/<family>_engines.cpp)
// take the options here and add their own (weights, setup policy, cube actions).
#include <array>
#include <charconv>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "engine/typed_engines.h"

namespace naqala::engine {

struct EngineSpec {
  std::string text;
  std::string kind;  // "level", "alphabeta", "mcts", "random"
  std::map<std::string, std::string> options;
};

// Splits "kind[:key=value,...]" ("level:N[,seed=S]"); throws VariantError on malformed text.
EngineSpec parse_spec(std::string_view text);

// Throws VariantError naming the spec, what was wrong and every engine form.
[[noreturn]] void bad_spec(const EngineSpec& spec, const std::string& what);

// Refuses an option outside `allowed`, listing them.
void check_keys(const EngineSpec& spec, const std::set<std::string>& allowed);

// Option `key` as a number in [lo, hi] (`fallback` when absent); a clear error otherwise.
double number(const EngineSpec& spec, const std::string& key, double fallback, double lo,
              double hi);
std::uint64_t whole(const EngineSpec& spec, const std::string& key, std::uint64_t fallback,
                    std::uint64_t lo, std::uint64_t hi);
// seed=S, or a fresh seed from std::random_device when the spec gives none (only then: a
// read of the device costs a system call, once per engine built).
std::uint64_t seed_option(const EngineSpec& spec);

// A strength level: a depth, a softmax temperature in points (how often a worse move is
// played), a time cap that keeps big boards responsive, threads, and a node budget. The top
// level has a node budget instead of a depth, so its games are reproducible and measurable.
// Each family registers its own table (engine/<family>_engines.cpp), measured in
// docs/engines.md.
struct Level {
  int depth;
  double temperature;
  double seconds;
  int threads;
  std::uint64_t nodes = 0;
};
using LevelTable = std::array<Level, 10>;

// The depth ladder of the deterministic two-player boards: Kalah, Oware and most sowing
// rulesets play it, and so do Bao and Omweso (their families register it as their table).
inline constexpr LevelTable kBoardLevels = {{
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

// A level as the `alphabeta:` spec that plays it, e.g. "alphabeta:depth=4,time=1,noise=1".
std::string level_text(const Level& level);

// The alpha-beta of a `level:` (from the family's table) or `alphabeta:` spec (without a limit
// it runs to `fallback`; `weights` says whether the family's evaluation takes weights=).
// Callers send `mcts:` to mcts_config.
AlphaBetaConfig search_config(const EngineSpec& spec, const AlphaBetaConfig& base,
                              const LevelTable& levels, const search::Limits& fallback,
                              bool weights);

// The options every `mcts:` spec takes, whatever the game.
MctsConfig mcts_config(const EngineSpec& spec);

// weights=w1/w2/...: an evaluation's weights in its feature order (hundredths of a point per
// unit of each feature); features after the last number keep the preset's weights.
template <std::size_t N>
std::array<int, N> parse_weights(const EngineSpec& spec, std::array<int, N> w,
                                 const std::array<const char*, N>& names) {
  auto it = spec.options.find("weights");
  if (it == spec.options.end()) return w;
  std::string list;
  for (const char* n : names) {
    if (!list.empty()) list += '/';
    list += n;
  }
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

}  // namespace naqala::engine
