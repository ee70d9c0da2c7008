#include "games/registry.h"

#include "core/error.h"
#include "games/backgammon/family.h"
#include "games/bao/family.h"
#include "games/omweso/family.h"
#include "games/sowing/family.h"

namespace naqala {

const std::vector<GameFamily>& game_families() {
  // Each family adds itself here; order is the order `naqala variants` lists them.
  static const std::vector<GameFamily> families = {
      sowing::family(),
      backgammon::family(),
      bao::family(),
      omweso::family(),
  };
  return families;
}

std::vector<VariantInfo> list_variants() {
  std::vector<VariantInfo> out;
  for (const auto& f : game_families())
    for (auto& v : f.variants()) out.push_back(std::move(v));
  return out;
}

VariantSpec parse_variant_spec(std::string_view spec) {
  VariantSpec out;
  // A Windows-free world: the first ':' after the last '/' separates options from the name,
  // so a path like ./dir/my.toml:seeds=5 works.
  const auto slash = spec.rfind('/');
  const auto colon = spec.find(':', slash == std::string_view::npos ? 0 : slash);
  out.name = std::string(spec.substr(0, colon));
  if (out.name.empty()) throw VariantError("empty variant name; try `naqala variants`");
  if (colon == std::string_view::npos) return out;
  std::string_view rest = spec.substr(colon + 1);
  if (rest.empty())
    throw VariantError("variant spec '" + std::string(spec) +
                       "' has ':' but no options; write name:key=value[,key=value...]");
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      throw VariantError("option '" + std::string(item) + "' in variant spec '" +
                         std::string(spec) + "' is not of the form key=value");
    const std::string key(item.substr(0, eq));
    for (const auto& [k, v] : out.options)
      if (k == key)
        throw VariantError("option '" + key + "' is given twice in variant spec '" +
                           std::string(spec) + "'; give each option once");
    out.options.emplace_back(key, std::string(item.substr(eq + 1)));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
    if (rest.empty()) throw VariantError("variant spec '" + std::string(spec) + "' ends with ','");
  }
  return out;
}

std::unique_ptr<AnyGame> make_game(std::string_view text) {
  const VariantSpec spec = parse_variant_spec(text);
  const bool is_file = spec.name.ends_with(".toml") || spec.name.find('/') != std::string::npos;
  for (const auto& f : game_families()) {
    if (is_file) {
      if (f.load_file) return f.load_file(spec.name, spec.options);
      continue;
    }
    if (auto g = f.make(spec)) return g;
  }
  std::string known;
  for (const auto& v : list_variants()) {
    known += known.empty() ? "" : ", ";
    known += v.name;
    for (const auto& a : v.aliases) known += ", " + a;
  }
  throw UnknownVariantError(spec.name, known);
}

}  // namespace naqala
