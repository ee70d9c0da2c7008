#include "engine/engine_spec.h"

#include <random>

#include "core/error.h"

namespace naqala::engine {

namespace {

constexpr std::string_view kSpecForms =
    "level:N[,seed=S,book=FILE|none] (N = 1..10), "
    "alphabeta[:time=S,depth=D,nodes=N,threads=T,hash=MB,lmr=D,noise=X,seed=N,weights=W/W/...,"
    "db=FILE,book=FILE|none], "
    "mcts[:sims=N,time=S,threads=T,c=X,leaf=playout|eval,batch=N,seed=N], random[:seed=N]; "
    "backgammon also net[:plies=P,noise=X,keep=K0/K1,evals=N,time=S,threads=T,cube=P,seed=N]";

}  // namespace

void bad_spec(const EngineSpec& spec, const std::string& what) {
  throw VariantError("engine '" + spec.text + "': " + what + "; engines are " +
                     std::string(kSpecForms));
}

void check_keys(const EngineSpec& spec, const std::set<std::string>& allowed) {
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

std::uint64_t seed_option(const EngineSpec& spec) {
  return spec.options.contains("seed") ? whole(spec, "seed", 0, 0, ~0ULL) : std::random_device{}();
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

namespace {

// The options every `alphabeta:` spec takes, whatever the game (`weights` where the family's
// evaluation has weights); without a limit the search runs to `fallback`.
AlphaBetaConfig alphabeta_config(const EngineSpec& spec, AlphaBetaConfig c,
                                 const search::Limits& fallback, bool weights) {
  std::set<std::string> keys{"time",  "depth", "nodes", "threads",  "hash",
                             "noise", "seed",  "lmr",   "futility", "futility_margin"};
  if (weights) keys.insert("weights");
  check_keys(spec, keys);
  c.limits.seconds = number(spec, "time", 0, 0, 86400);
  c.limits.depth = static_cast<int>(whole(spec, "depth", 0, 0, search::kMaxPly - 1));
  c.limits.nodes = whole(spec, "nodes", 0, 0, ~0ULL);
  if (c.limits.seconds <= 0 && c.limits.depth <= 0 && c.limits.nodes == 0) c.limits = fallback;
  c.options.threads = static_cast<int>(whole(spec, "threads", 1, 1, 256));
  c.options.hash_mb = whole(spec, "hash", c.options.hash_mb, 1, 65536);
  // lmr=D: late move reductions from depth D up, 0 off (the family's default otherwise).
  c.options.lmr_from_depth =
      static_cast<int>(whole(spec, "lmr", c.options.lmr_from_depth, 0, search::kMaxPly - 1));
  // futility=D,futility_margin=M: reverse futility pruning with D plies left or fewer, margin M
  // hundredths of a point a ply.
  c.options.futility_depth =
      static_cast<int>(whole(spec, "futility", c.options.futility_depth, 0, search::kMaxPly - 1));
  c.options.futility_margin = static_cast<int>(
      whole(spec, "futility_margin", c.options.futility_margin, 0, search::kWin / 4));
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
  c.seed = seed_option(spec);
  return c;
}

}  // namespace

AlphaBetaConfig search_config(const EngineSpec& spec, const AlphaBetaConfig& base,
                              const LevelTable& levels, const search::Limits& fallback,
                              bool weights) {
  if (spec.kind == "level") return level_config(spec, base, levels);
  if (spec.kind == "alphabeta") return alphabeta_config(spec, base, fallback, weights);
  bad_spec(spec, "unknown engine '" + spec.kind + "'");
}

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

std::string level_text(const Level& l) {
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

}  // namespace naqala::engine
