#include "games/sowing/rules_toml.h"

#include <toml++/toml.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"

namespace naqala::sowing {

namespace {

enum class KeyType { String, StringList, Int, IntList, Bool, Enum, IntOrMajority, EnumList };

struct KeyDef {
  std::string_view path;  // "section.key" or "key"
  KeyType type;
  std::vector<std::string_view> values = {};  // Enum: allowed values
  int min = 0, max = 0;                       // Int ranges
  bool required = false;
};

// The schema: every key a sowing ruleset may contain (docs/variants.md explains each).
const std::vector<KeyDef>& schema() {
  static const std::vector<KeyDef> keys = {
      {"name", KeyType::String, {}, 0, 0, true},
      {"title", KeyType::String},
      {"summary", KeyType::String},
      {"description", KeyType::String},
      {"source", KeyType::String},
      {"aliases", KeyType::StringList},
      {"board.rows", KeyType::Int, {}, 2, 3},
      {"board.pits", KeyType::Int, {}, 1, kMaxPitsPerRow, true},
      {"board.seeds", KeyType::Int, {}, 0, 127, true},
      {"board.first", KeyType::Enum, {"south", "north"}},
      {"sowing.direction", KeyType::Enum, {"ccw", "cw"}},
      {"sowing.start", KeyType::Enum, {"next", "origin"}},
      {"sowing.stores", KeyType::Enum, {"none", "own", "both"}},
      {"sowing.skip_origin", KeyType::Bool},
      {"sowing.skip_full", KeyType::Int, {}, 0, 255},
      {"sowing.min_seeds", KeyType::Int, {}, 1, 255},
      {"sowing.laps", KeyType::Enum, {"single", "relay", "next_pit"}},
      {"sowing.singletons", KeyType::Enum, {"any", "last_resort"}},
      {"capture.kind", KeyType::EnumList, {"none", "opposite", "counts", "even", "column"}},
      {"capture.empty_capture", KeyType::Bool},
      {"capture.side", KeyType::Enum, {"own", "opponent", "both"}},
      {"capture.with_last_seed", KeyType::Bool},
      {"capture.with_opposite", KeyType::Bool},
      {"capture.chain_direction", KeyType::Enum, {"backward", "forward"}},
      {"capture.column", KeyType::Enum, {"both", "enemy"}},
      {"capture.during", KeyType::Enum, {"none", "sower", "owner"}},
      {"capture.during_last", KeyType::Enum, {"continue", "sower", "owner"}},
      {"capture.during_count", KeyType::Int, {}, 1, 255},
      {"capture.sweep", KeyType::Int, {}, 0, 255},
      {"capture.counts", KeyType::IntList, {}, 1, 31},
      {"capture.chain", KeyType::Bool},
      {"capture.grand_slam", KeyType::Enum, {"no_capture", "forbidden", "capture_all"}},
      {"turn.extra_turn", KeyType::Bool},
      {"turn.pit_choice", KeyType::Enum, {"any", "rightmost"}},
      {"turn.start", KeyType::Enum, {"alternate", "simultaneous"}},
      {"feeding.must_feed", KeyType::Bool},
      {"feeding.cannot_feed", KeyType::Enum, {"mover_takes", "owner_takes"}},
      {"feeding.style", KeyType::Enum, {"move", "gift"}},
      {"feeding.gift_to", KeyType::Enum, {"opposite", "first"}},
      {"feeding.fed_by", KeyType::Enum, {"left", "sown"}},
      {"tuz.kind", KeyType::Enum, {"none", "auto", "choice"}},
      {"tuz.count", KeyType::Int, {}, 1, 255},
      {"setup.kind", KeyType::Enum, {"none", "free", "mirror"}},
      {"setup.by", KeyType::Enum, {"south", "north"}},
      {"setup.min", KeyType::Int, {}, 0, 255},
      {"setup.first", KeyType::Enum, {"arranger", "other"}},
      {"setup.pie", KeyType::Bool},
      {"rounds.kind", KeyType::Enum, {"none", "namnam", "refill", "gabata", "points"}},
      {"rounds.refill", KeyType::Int, {}, 1, 255},
      {"rounds.target", KeyType::Int, {}, 0, 65535},
      {"rounds.count", KeyType::Int, {}, 0, 255},
      {"rounds.score", KeyType::Enum, {"captures", "difference"}},
      {"end.row_empty", KeyType::Enum, {"immediate", "at_turn"}},
      {"end.remaining", KeyType::Enum, {"owner", "emptied", "none"}},
      {"end.threshold", KeyType::IntOrMajority, {}, 0, 255},
      {"end.draw_at_half", KeyType::Bool},
      {"end.cycle", KeyType::Enum, {"none", "owner", "draw"}},
      {"end.tie", KeyType::Enum, {"draw", "first_empty"}},
      {"end.no_move", KeyType::Enum, {"end", "pass", "pass_once", "loses"}},
      {"end.one_each", KeyType::Bool},
      // Match and tournament rules (docs/tournaments.md), read by src/play/match_rules.cpp.
      {"tournament.clock_seconds", KeyType::Int, {}, 1, 86400},
      {"tournament.increment_seconds", KeyType::Int, {}, 0, 3600},
      {"tournament.game_cap_seconds", KeyType::Int, {}, 0, 86400},
      {"tournament.flag", KeyType::Enum, {"loss"}},
      {"tournament.draw_offers", KeyType::Int, {}, 0, 99},
      {"tournament.best_of", KeyType::IntList, {}, 1, 99},
      {"tournament.match_draw", KeyType::Enum, {"half", "both_win"}},
      {"tournament.knockout_tie", KeyType::Enum, {"replay", "all_results"}},
      {"tournament.resignation", KeyType::String},
      {"tournament.source", KeyType::String},
  };
  return keys;
}

const KeyDef* find_key(std::string_view path) {
  for (const auto& k : schema())
    if (k.path == path) return &k;
  return nullptr;
}

constexpr const char* kNoValue = "lists no value; give at least one";

std::string list_text(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string join(const std::vector<std::string_view>& items, std::string_view sep = ", ") {
  std::string out;
  for (auto s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

std::string type_text(const KeyDef& k) {
  switch (k.type) {
    case KeyType::String:
      return "a string";
    case KeyType::StringList:
      return "a list of strings";
    case KeyType::Int:
      return "an integer from " + std::to_string(k.min) + " to " + std::to_string(k.max);
    case KeyType::IntList:
      return "a list of integers from " + std::to_string(k.min) + " to " + std::to_string(k.max);
    case KeyType::Bool:
      return "true or false";
    case KeyType::Enum:
      return "one of: " + join(k.values);
    case KeyType::IntOrMajority:
      return "\"majority\" or an integer from " + std::to_string(k.min) + " to " +
             std::to_string(k.max);
    case KeyType::EnumList:
      return "one of (or a list of): " + join(k.values);
  }
  return "";
}

// Builds every error message: "<origin>:<line>: <key>: <what>".
class Reader {
 public:
  Reader(const toml::table& root, std::string origin) : root_(root), origin_(std::move(origin)) {}

  [[noreturn]] void fail(const toml::node* at, std::string_view key,
                         const std::string& what) const {
    std::ostringstream msg;
    msg << origin_;
    if (at && at->source().begin.line) msg << ":" << at->source().begin.line;
    msg << ": " << key << ": " << what;
    throw VariantError(msg.str());
  }

  const toml::node* node(std::string_view path) const { return root_.at_path(path).node(); }

  // Checks that every key of the document is in the schema (options are checked separately).
  void check_known_keys() const {
    for (auto&& [k, v] : root_) {
      const std::string key(k.str());
      if (key == "options") continue;
      if (auto* t = v.as_table()) {
        std::vector<std::string_view> allowed;
        for (const auto& d : schema())
          if (d.path.starts_with(key + ".")) allowed.push_back(d.path.substr(key.size() + 1));
        if (allowed.empty())
          fail(&v, key,
               "unknown section; allowed sections: board, sowing, capture, turn, feeding, tuz, "
               "setup, rounds, end, tournament, options");
        for (auto&& [sk, sv] : *t) {
          const std::string path = key + "." + std::string(sk.str());
          if (!find_key(path))
            fail(&sv, path, "unknown key; allowed keys in [" + key + "]: " + join(allowed));
          check_value(path, sv);
        }
      } else {
        if (!find_key(key) || key.find('.') != std::string::npos)
          fail(&v, key,
               "unknown key; allowed top-level keys: name, title, summary, description, source, "
               "aliases, and the sections board, sowing, capture, turn, feeding, tuz, setup, "
               "rounds, end, tournament, options");
        check_value(key, v);
      }
    }
    for (const auto& d : schema())
      if (d.required && !node(d.path))
        fail(nullptr, d.path, "missing; it is required (" + type_text(d) + ")");
  }

  void check_value(const std::string& path, const toml::node& v) const {
    const KeyDef& d = *find_key(path);
    auto bad = [&] { fail(&v, path, "must be " + type_text(d)); };
    switch (d.type) {
      case KeyType::String:
        if (!v.is_string()) bad();
        break;
      case KeyType::StringList:
        if (!v.is_array() || !v.as_array()->is_homogeneous(toml::node_type::string)) bad();
        break;
      case KeyType::Int:
        if (!v.is_integer() || *v.value<int64_t>() < d.min || *v.value<int64_t>() > d.max) bad();
        break;
      case KeyType::IntList: {
        auto* a = v.as_array();
        if (!a || a->empty()) bad();
        for (auto& e : *a)
          if (!e.is_integer() || *e.value<int64_t>() < d.min || *e.value<int64_t>() > d.max) bad();
        break;
      }
      case KeyType::Bool:
        if (!v.is_boolean()) bad();
        break;
      case KeyType::Enum:
        if (!v.is_string() || std::find(d.values.begin(), d.values.end(),
                                        *v.value<std::string_view>()) == d.values.end())
          bad();
        break;
      case KeyType::EnumList: {
        auto ok = [&](const toml::node& e) {
          return e.is_string() && std::find(d.values.begin(), d.values.end(),
                                            *e.value<std::string_view>()) != d.values.end();
        };
        if (auto* a = v.as_array()) {
          if (a->empty()) bad();
          for (auto& e : *a)
            if (!ok(e)) bad();
        } else if (!ok(v)) {
          bad();
        }
        break;
      }
      case KeyType::IntOrMajority:
        if (v.is_string() && *v.value<std::string_view>() == "majority") break;
        if (!v.is_integer() || *v.value<int64_t>() < d.min || *v.value<int64_t>() > d.max) bad();
        break;
    }
  }

  std::string str(std::string_view path, std::string fallback) const {
    if (auto* n = node(path)) return std::string(*n->value<std::string_view>());
    return fallback;
  }
  int integer(std::string_view path, int fallback) const {
    if (auto* n = node(path)) return static_cast<int>(*n->value<int64_t>());
    return fallback;
  }
  bool boolean(std::string_view path, bool fallback) const {
    if (auto* n = node(path)) return *n->value<bool>();
    return fallback;
  }
  // Index of the enum value in the schema's list, or `fallback`.
  template <class E>
  E choice(std::string_view path, E fallback) const {
    if (auto* n = node(path)) {
      const auto& values = find_key(path)->values;
      auto it = std::find(values.begin(), values.end(), *n->value<std::string_view>());
      return static_cast<E>(it - values.begin());
    }
    return fallback;
  }

  const std::string& origin() const { return origin_; }

 private:
  const toml::table& root_;
  std::string origin_;
};

std::string node_text(const toml::node& n) {
  if (n.is_string()) return std::string(*n.value<std::string_view>());
  if (n.is_boolean()) return *n.value<bool>() ? "true" : "false";
  if (n.is_integer()) return std::to_string(*n.value<int64_t>());
  return "(" + std::string(toml::impl::node_type_friendly_names[static_cast<int>(n.type())]) + ")";
}

// Parses an option value typed on the command line as the schema type of `path`.
std::unique_ptr<toml::node> typed_value(const KeyDef& d, const std::string& text) {
  if (d.type == KeyType::Bool) {
    if (text == "true") return std::make_unique<toml::value<bool>>(true);
    if (text == "false") return std::make_unique<toml::value<bool>>(false);
    return nullptr;
  }
  if (d.type == KeyType::Int || d.type == KeyType::IntOrMajority) {
    if (d.type == KeyType::IntOrMajority && text == "majority")
      return std::make_unique<toml::value<std::string>>(text);
    try {
      std::size_t used = 0;
      long v = std::stol(text, &used);
      if (used != text.size()) return nullptr;
      return std::make_unique<toml::value<int64_t>>(v);
    } catch (...) {
      return nullptr;
    }
  }
  return std::make_unique<toml::value<std::string>>(text);
}

void set_path(toml::table& root, std::string_view path, const toml::node& value) {
  const auto dot = path.find('.');
  if (dot == std::string_view::npos) {
    root.insert_or_assign(std::string(path), value);
    return;
  }
  const std::string section(path.substr(0, dot));
  if (!root[section].is_table()) root.insert_or_assign(section, toml::table{});
  root[section].as_table()->insert_or_assign(std::string(path.substr(dot + 1)), value);
}

struct OptionDef {
  OptionInfo info;
  std::string key;                                   // direct option: the schema path it sets
  std::map<std::string, const toml::table*> mapped;  // mapped option: value -> assignments
  const toml::node* at = nullptr;
};

std::vector<OptionDef> read_options(const Reader& r, const toml::table& root) {
  std::vector<OptionDef> out;
  const toml::node* opts = root.get("options");
  if (!opts) return out;
  if (!opts->is_table()) r.fail(opts, "options", "must be a table of options");
  for (auto&& [name, node] : *opts->as_table()) {
    const std::string oname(name.str());
    const std::string where = "options." + oname;
    auto* t = node.as_table();
    if (!t) r.fail(&node, where, "must be a table with `key` or `values`, and `help`");
    for (auto&& [k, v] : *t) {
      const std::string_view kk = k.str();
      if (kk != "key" && kk != "values" && kk != "help" && kk != "default" && kk != "allowed")
        r.fail(&v, where + "." + std::string(kk),
               "unknown; allowed: key, values, help, default, allowed");
    }
    OptionDef def;
    def.at = &node;
    def.info.name = oname;
    def.info.help = t->get("help") ? node_text(*t->get("help")) : "";
    if (auto* key = t->get("key")) {
      def.key = node_text(*key);
      const KeyDef* kd = find_key(def.key);
      if (!kd) r.fail(key, where + ".key", "'" + def.key + "' is not a key of the schema");
      const toml::node* current = r.node(def.key);
      if (!current)
        r.fail(key, where + ".key",
               "the option's key '" + def.key + "' must be set in the file (it is the default)");
      def.info.default_value = node_text(*current);
      switch (kd->type) {
        case KeyType::Bool:
          def.info.type = "bool";
          def.info.allowed = {"false", "true"};
          break;
        case KeyType::Enum:
        case KeyType::EnumList:
          def.info.type = "enum";
          if (auto* allowed = t->get("allowed")) {
            // A preset may offer only some of the schema's values.
            if (!allowed->is_array())
              r.fail(allowed, where + ".allowed", "must be a list of values");
            for (auto& a : *allowed->as_array()) {
              r.check_value(def.key, a);
              def.info.allowed.push_back(node_text(a));
            }
          } else {
            for (auto v : kd->values) def.info.allowed.emplace_back(v);
          }
          break;
        case KeyType::Int:
        case KeyType::IntOrMajority: {
          def.info.type = "int";
          auto* allowed = t->get("allowed");
          if (!allowed || !allowed->is_array())
            r.fail(&node, where + ".allowed", "an integer option needs `allowed = [...]`");
          for (auto& a : *allowed->as_array()) {
            if (!a.is_integer()) r.fail(&a, where + ".allowed", "must list integers");
            def.info.allowed.push_back(node_text(a));
          }
          break;
        }
        default:
          r.fail(key, where + ".key", "options can set integer, true/false or one-of keys only");
      }
    } else if (auto* values = t->get("values")) {
      if (!values->is_table())
        r.fail(values, where + ".values", "must be a table: value = { \"section.key\" = ... }");
      def.info.type = "enum";
      for (auto&& [vname, assignments] : *values->as_table()) {
        auto* at = assignments.as_table();
        if (!at)
          r.fail(&assignments, where + ".values." + std::string(vname.str()),
                 "must be a table of \"section.key\" = value");
        for (auto&& [path, v] : *at) {
          const KeyDef* kd = find_key(path.str());
          if (!kd)
            r.fail(&v, where + ".values." + std::string(vname.str()),
                   "'" + std::string(path.str()) + "' is not a key of the schema");
          r.check_value(std::string(path.str()), v);
        }
        def.info.allowed.emplace_back(vname.str());
        def.mapped[std::string(vname.str())] = at;
      }
      if (def.info.allowed.empty()) r.fail(values, where + ".values", kNoValue);
      if (def.info.allowed == std::vector<std::string>{"false", "true"} ||
          def.info.allowed == std::vector<std::string>{"true", "false"})
        def.info.type = "bool";
      auto* dflt = t->get("default");
      if (!dflt) r.fail(&node, where + ".default", "an option with `values` needs a `default`");
      def.info.default_value = node_text(*dflt);
      if (!def.mapped.count(def.info.default_value))
        r.fail(dflt, where + ".default", "must be one of its values");
    } else {
      r.fail(&node, where, "needs `key = \"section.key\"` or a `values` table");
    }
    // An option with no value could never be set (and `rules` shows its last value).
    if (def.info.allowed.empty()) r.fail(&node, where + ".allowed", kNoValue);
    if (std::find(def.info.allowed.begin(), def.info.allowed.end(), def.info.default_value) ==
        def.info.allowed.end())
      r.fail(&node, where + ".allowed",
             "the default '" + def.info.default_value + "' (the file's value of " + def.key +
                 ") is not one of the allowed values (" + list_text(def.info.allowed) + ")");
    out.push_back(std::move(def));
  }
  return out;
}

// The [tournament] table as data for src/play/match_rules.cpp (the schema checked its types).
nlohmann::json tournament_json(const toml::table& table) {
  nlohmann::json out = nlohmann::json::object();
  for (auto&& [k, v] : table) {
    const std::string key(k.str());
    if (auto i = v.value<int64_t>(); v.is_integer()) {
      out[key] = *i;
    } else if (v.is_string()) {
      out[key] = std::string(*v.value<std::string_view>());
    } else if (auto* a = v.as_array()) {
      out[key] = nlohmann::json::array();
      for (auto& e : *a) out[key].push_back(*e.value<int64_t>());
    }
  }
  return out;
}

}  // namespace

std::shared_ptr<const Rules> load_rules(std::string_view text, const std::string& origin,
                                        const OptionValues& chosen) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << origin << ":" << e.source().begin.line << ": not valid TOML: " << e.description();
    throw VariantError(msg.str());
  }
  Reader file(root, origin);
  file.check_known_keys();
  std::vector<OptionDef> options = read_options(file, root);

  // Mapped options apply their default's assignments first, so the file needs no copy of them.
  auto apply_mapped = [&](const OptionDef& def, const std::string& value) {
    for (auto&& [path, v] : *def.mapped.at(value)) set_path(root, path.str(), v);
  };
  for (const auto& def : options)
    if (!def.mapped.empty()) apply_mapped(def, def.info.default_value);

  auto rules = std::make_shared<Rules>();
  for (const auto& choice : chosen) {
    // Not a structured binding: clang 14 (make fuzz) cannot capture one in the lambdas below.
    const std::string& name = choice.first;
    const std::string& value = choice.second;
    auto it =
        std::find_if(options.begin(), options.end(), [&](auto& d) { return d.info.name == name; });
    if (it == options.end()) {
      std::vector<std::string> names;
      for (auto& d : options) names.push_back(d.info.name);
      throw VariantError(
          origin + ": unknown option '" + name + "'; " +
          (names.empty() ? "this variant has no options" : "allowed options: " + list_text(names)));
    }
    const auto& allowed = it->info.allowed;
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
      throw VariantError(origin + ": option " + name + "=" + value +
                         " is not allowed; allowed values: " + list_text(allowed) + " (" +
                         it->info.help + ")");
    if (!it->mapped.empty()) {
      apply_mapped(*it, value);
    } else {
      auto v = typed_value(*find_key(it->key), value);
      set_path(root, it->key, *v);
    }
    if (value != it->info.default_value) {
      auto& c = rules->chosen;
      std::erase_if(c, [&](auto& kv) { return kv.first == name; });
      c.emplace_back(name, value);
    }
  }

  Reader r(root, origin);
  Rules& R = *rules;
  R.name = r.str("name", "");
  R.title = r.str("title", R.name);
  R.summary = r.str("summary", "");
  R.description = r.str("description", "");
  R.source = r.str("source", "");
  if (auto* a = root.get("aliases"))
    for (auto& e : *a->as_array()) R.aliases.push_back(std::string(*e.value<std::string_view>()));
  for (auto& d : options) R.options.push_back(d.info);
  if (auto* t = root.get("tournament"))
    R.tournament = std::make_shared<const nlohmann::json>(tournament_json(*t->as_table()));

  R.pits = r.integer("board.pits", 6);
  R.initial_seeds = r.integer("board.seeds", 4);
  R.first = r.choice("board.first", Player::South);
  R.direction = r.choice("sowing.direction", Direction::Ccw);
  R.start = r.choice("sowing.start", SowStart::Next);
  R.stores = r.choice("sowing.stores", StoreSowing::None);
  R.skip_origin = r.boolean("sowing.skip_origin", false);
  R.skip_full = r.integer("sowing.skip_full", 0);
  R.min_seeds = r.integer("sowing.min_seeds", 1);
  R.rows = r.integer("board.rows", 2);
  bool even = false;
  if (auto* kind = r.node("capture.kind")) {
    std::vector<std::string_view> kinds;
    if (auto* a = kind->as_array())
      for (auto& e : *a) kinds.push_back(*e.value<std::string_view>());
    else
      kinds.push_back(*kind->value<std::string_view>());
    for (auto k : kinds) {
      if (k == "opposite") R.capture_set |= kCapOpposite;
      if (k == "counts") R.capture_set |= kCapCounts;
      if (k == "even") R.capture_set |= kCapCounts, even = true;
      if (k == "column") R.capture_set |= kCapColumn;
    }
  }
  R.capture = R.capture_set & kCapOpposite ? CaptureKind::Opposite
              : R.capture_set & kCapCounts ? CaptureKind::Counts
                                           : CaptureKind::None;
  R.empty_capture = r.boolean("capture.empty_capture", false);
  // The schema lists "own", "opponent", "both"; CaptureSide has the same order.
  R.capture_side = r.choice("capture.side",
                            R.capture_set & kCapCounts ? CaptureSide::Opponent : CaptureSide::Own);
  if (auto* counts = r.node("capture.counts"))
    for (auto& c : *counts->as_array()) {
      R.capturable[*c.value<int64_t>()] = true;
      if (*c.value<int64_t>() < 32) R.count_mask |= 1u << *c.value<int64_t>();
    }
  if (even)
    for (int c = 2; c <= kMaxSeedsPerHole; c += 2) {
      R.capturable[c] = true;
      if (c < 32) R.count_mask |= 1u << c;
    }
  R.laps = r.choice("sowing.laps", Laps::Single);
  R.singletons = r.choice("sowing.singletons", Singletons::Any);
  R.with_last_seed = r.boolean("capture.with_last_seed", true);
  R.with_opposite = r.boolean("capture.with_opposite", false);
  R.chain_dir = r.choice("capture.chain_direction", ChainDir::Backward);
  R.column_enemy_only = r.choice("capture.column", 0) == 1;
  R.during = r.choice("capture.during", Taker::None);
  {
    const int last = r.choice("capture.during_last", 0);  // continue, sower, owner
    R.during_last = last == 0 ? Taker::Continue : last == 1 ? Taker::Sower : Taker::Owner;
  }
  R.during_count = r.integer("capture.during_count", 4);
  R.sweep = r.integer("capture.sweep", 0);
  R.pit_choice = r.choice("turn.pit_choice", PitChoice::Any);
  R.start_rule = r.choice("turn.start", Start::Alternate);
  R.feeding = r.choice("feeding.style", Feeding::Move);
  R.tuz = r.choice("tuz.kind", TuzKind::None);
  R.tuz_count = r.integer("tuz.count", 3);
  R.setup = r.choice("setup.kind", SetupKind::None);
  R.arranger = r.choice("setup.by", Player::South);
  R.setup_min = r.integer("setup.min", 0);
  R.setup_first = r.choice("setup.first", FirstAfterSetup::Arranger);
  R.pie = r.boolean("setup.pie", false);
  R.rounds = r.choice("rounds.kind", RoundKind::None);
  R.refill = r.integer("rounds.refill", 5);
  R.target = r.integer("rounds.target", 60);
  R.round_count = r.integer("rounds.count", 0);
  R.difference = r.choice("rounds.score", 0) == 1;
  R.gift_to_first = r.choice("feeding.gift_to", 0) == 1;
  R.no_move = r.choice("end.no_move", NoMove::End);
  R.one_each_ends = r.boolean("end.one_each", false);
  R.chain = r.boolean("capture.chain", false);
  R.grand_slam = r.choice("capture.grand_slam", GrandSlam::NoCapture);
  R.extra_turn = r.boolean("turn.extra_turn", false);
  R.must_feed = r.boolean("feeding.must_feed", false);
  R.cannot_feed = r.choice("feeding.cannot_feed", CannotFeed::MoverTakes);
  R.fed_by_sowing = r.choice("feeding.fed_by", 0) == 1;
  R.row_empty = r.choice("end.row_empty", RowEmptyCheck::Immediate);
  R.remaining = r.choice("end.remaining", Remaining::Owner);
  R.draw_at_half = r.boolean("end.draw_at_half", false);
  R.cycle = r.choice("end.cycle", CycleRule::None);
  R.tie = r.choice("end.tie", TieBreak::Draw);
  R.total_seeds = R.rows * R.pits * R.initial_seeds;
  if (auto* t = r.node("end.threshold")) {
    R.threshold = t->is_string() ? R.total_seeds / 2 + 1 : static_cast<int>(*t->value<int64_t>());
  }

  // Combinations that contradict each other or that this engine does not play.
  auto conflict = [&](std::string_view key, const std::string& what) {
    r.fail(r.node(key), key, what);
  };
  if (R.total_seeds > kMaxSeedsPerHole)
    conflict("board.seeds", "2 x pits x seeds = " + std::to_string(R.total_seeds) +
                                " seeds; at most " + std::to_string(kMaxSeedsPerHole) +
                                " are allowed");
  if (R.total_seeds == 0) conflict("board.seeds", "the board needs at least one seed");
  if ((R.capture_set & kCapCounts) && !even && !r.node("capture.counts"))
    conflict("capture.counts", "capture.kind = \"counts\" needs capture.counts, e.g. [2, 3]");
  if (!(R.capture_set & kCapCounts) && r.node("capture.counts"))
    conflict("capture.counts", "only used with capture.kind = \"counts\"");
  if (even && r.node("capture.counts"))
    conflict("capture.counts", "capture.kind = \"even\" already says which counts are taken");
  if (R.capture_set == kCapOpposite && R.capture_side != CaptureSide::Own)
    conflict("capture.side",
             "capture.kind = \"opposite\" captures from an own empty pit: side must be \"own\"");
  if (R.rows == 3) {
    if (R.pits % 2)
      conflict("board.pits",
               "a three-row board splits its middle row in halves: pits must be even");
    if (R.pits > 6) conflict("board.pits", "a three-row board has at most 6 pits per row");
    if (R.stores != StoreSowing::None)
      conflict("sowing.stores", "a three-row board has no sown stores");
    if (R.capture_set & ~kCapColumn)
      conflict("capture.kind", "a three-row board has only \"column\" captures");
  }
  if ((R.capture_set & kCapColumn) && R.rows != 3)
    conflict("capture.kind", "\"column\" needs board.rows = 3");
  if (R.tuz != TuzKind::None && !(R.capture_set & kCapCounts))
    conflict("tuz.kind",
             "a tuz is made by the last seed in an opponent's pit: needs capture.kind = \"counts\" "
             "or \"even\"");
  if (R.laps == Laps::NextPit && R.capture_set)
    conflict("capture.kind",
             "sowing.laps = \"next_pit\" has its own capture (the pit after the empty one): kind "
             "must be \"none\"");
  if (R.during_last != Taker::Continue && R.during == Taker::None)
    conflict("capture.during_last", "needs capture.during");
  if (R.sweep && R.during == Taker::None && !R.capture_set)
    conflict("capture.sweep", "needs some capture");
  if (R.feeding == Feeding::Gift && !R.must_feed)
    conflict("feeding.style", "needs feeding.must_feed = true");
  if (r.node("feeding.gift_to") && R.feeding != Feeding::Gift)
    conflict("feeding.gift_to", "needs feeding.style = \"gift\"");
  if (R.fed_by_sowing && (!R.must_feed || R.feeding != Feeding::Move))
    conflict("feeding.fed_by", "needs feeding.must_feed = true and feeding.style = \"move\"");
  if (R.rounds != RoundKind::Points)
    for (const char* key : {"rounds.count", "rounds.score"})
      if (r.node(key)) conflict(key, "only used with rounds.kind = \"points\"");
  if (R.rounds == RoundKind::Points && R.target == 0 && R.round_count == 0)
    conflict("rounds.target", "a set needs a target or rounds.count, or it never ends");
  if (R.start_rule == Start::Simultaneous &&
      (R.setup != SetupKind::None || R.capture_set & ~(kCapOpposite | kCapColumn) ||
       R.laps == Laps::NextPit || R.during != Taker::None || R.tuz != TuzKind::None))
    conflict("turn.start",
             "a simultaneous start plays two relay or single-lap sowings whose captures are made "
             "by a last seed in an empty pit (\"opposite\" or \"column\"), without a setup");
  if (R.start_rule == Start::Simultaneous && R.rounds == RoundKind::NamNam)
    conflict("turn.start", "a simultaneous start is not played with pits changing hands");
  if (R.setup != SetupKind::None) {
    const int slots = R.setup == SetupKind::Mirror ? R.pits : 2 * R.pits;
    const int seeds = R.setup == SetupKind::Mirror ? R.total_seeds / 2 : R.total_seeds;
    if (R.rows != 2) conflict("setup.kind", "a setup phase needs two rows");
    if (R.setup_min * slots > seeds)
      conflict("setup.min", "the layout needs " + std::to_string(R.setup_min * slots) +
                                " seeds; there are " + std::to_string(seeds));
    if (seeds - R.setup_min * slots + 1 > 128)
      conflict("setup.min",
               "one pit could take " + std::to_string(seeds - R.setup_min * slots + 1) +
                   " different counts; the engine lists at most 128 (raise setup.min)");
  } else if (R.pie || r.node("setup.by") || r.node("setup.min")) {
    conflict(R.pie                ? "setup.pie"
             : r.node("setup.by") ? "setup.by"
                                  : "setup.min",
             "needs setup.kind");
  }
  if (R.rounds == RoundKind::NamNam && (R.rows != 2 || R.pits > 12))
    conflict("rounds.kind", "\"namnam\" needs two rows");
  if (R.rounds == RoundKind::Points && R.setup == SetupKind::None)
    conflict("rounds.kind", "\"points\" starts every round with a new layout: needs setup.kind");
  if (R.rounds == RoundKind::Gabata && R.rows != 3)
    conflict("rounds.kind", "\"gabata\" needs board.rows = 3");
  if (R.rounds == RoundKind::Refill && R.refill * R.pits > R.total_seeds)
    conflict("rounds.refill", "more than the seeds on the board");
  if (R.no_move != NoMove::End && R.row_empty != RowEmptyCheck::AtTurn)
    conflict("end.no_move", "needs end.row_empty = \"at_turn\"");
  if (R.extra_turn && R.stores == StoreSowing::None)
    conflict(
        "turn.extra_turn",
        "an extra turn for a last seed in the own store needs sowing.stores = \"own\" or \"both\"");
  if (R.must_feed && R.row_empty != RowEmptyCheck::AtTurn)
    conflict("feeding.must_feed",
             "feeding a starving opponent needs end.row_empty = \"at_turn\" (with \"immediate\" "
             "the game ends first)");
  if (R.threshold > R.total_seeds)
    conflict("end.threshold",
             "is more than the " + std::to_string(R.total_seeds) + " seeds on the board");
  if (R.draw_at_half && R.threshold == 0) conflict("end.draw_at_half", "needs end.threshold");
  if (R.threshold && R.rounds != RoundKind::None && R.rounds != RoundKind::Points)
    conflict("end.threshold",
             "ends a round only in a set of rounds.kind = \"points\" (the other kinds end a round "
             "when the board says so)");
  // Everything the fast path does not play goes to the general path (docs/games/README.md lists its
  // files).
  R.even = even;
  const bool fast_counts = (R.capture_set & ~kCapOpposite) == kCapCounts &&
                           R.capture_side == CaptureSide::Opponent && !R.with_opposite &&
                           R.chain_dir == ChainDir::Backward;
  const bool fast_capture = R.capture_set == 0 || R.capture_set == kCapOpposite || fast_counts;
  R.general = R.rows != 2 || R.laps != Laps::Single || !fast_capture || R.during != Taker::None ||
              R.sweep || R.pit_choice != PitChoice::Any || R.singletons != Singletons::Any ||
              R.no_move != NoMove::End || R.start_rule != Start::Alternate ||
              R.feeding != Feeding::Move || R.fed_by_sowing || R.one_each_ends ||
              R.tuz == TuzKind::Choice || R.setup != SetupKind::None || R.rounds != RoundKind::None;
  if (R.general && R.skip_full)
    conflict("sowing.skip_full", "is only played with single laps and no rounds");
  if (R.general && R.grand_slam != GrandSlam::NoCapture)
    conflict("capture.grand_slam", "is only played with single laps and Oware's captures");
  if (R.grand_slam != GrandSlam::NoCapture && (even || R.capture_set != kCapCounts))
    conflict("capture.grand_slam",
             "is Oware's rule: needs capture.kind = \"counts\" alone (not \"even\")");
  R.extras = R.general || R.tuz != TuzKind::None;
  // A start no one can move from, or sowings with nowhere to put a seed, never end a game.
  if (R.setup == SetupKind::None && R.min_seeds > R.initial_seeds)
    conflict("sowing.min_seeds", "is " + std::to_string(R.min_seeds) + " but board.seeds puts " +
                                     std::to_string(R.initial_seeds) +
                                     " in a pit: no move is legal at the start");
  // Some pit other than the emptied origin always holds fewer than skip_full seeds only if the
  // seeds cannot fill all the others (else a sowing may find no pit to sow into, or put every
  // seed back where it came from).
  if (const int others = R.rows * R.pits - 1;
      R.skip_full > 0 && R.total_seeds >= others * R.skip_full)
    conflict("sowing.skip_full",
             "is " + std::to_string(R.skip_full) + " with " + std::to_string(R.total_seeds) +
                 " seeds (board.seeds x board.pits x board.rows) on " + std::to_string(others + 1) +
                 " pits: the other pits could all be full, so a "
                 "sowing could change nothing; it must be more than " +
                 std::to_string(R.total_seeds / others) + " here");
  if (R.min_seeds > 1 && R.stores != StoreSowing::None && R.extra_turn)
    conflict("sowing.min_seeds", "with extra turns a minimum above 1 is not supported");
  if (R.tie == TieBreak::FirstEmpty && R.row_empty != RowEmptyCheck::Immediate)
    conflict("end.tie", "\"first_empty\" needs end.row_empty = \"immediate\"");
  R.finalize();
  return rules;
}

}  // namespace naqala::sowing
