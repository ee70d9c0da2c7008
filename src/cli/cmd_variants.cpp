// naqala variants [--json]: every preset with its options, defaults and allowed values.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/json_text.h"
#include "games/registry.h"

namespace naqala::cli {

void add_variants_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("variants", "List the variants (presets) with their options");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->callback([json] {
    const auto variants = list_variants();
    if (*json) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& v : variants) out.push_back(to_json(v));
      std::cout << json_text(out, 2) << "\n";
      return;
    }
    for (const auto& v : variants) {
      std::cout << v.name;
      for (const auto& a : v.aliases) std::cout << " (alias " << a << ")";
      std::cout << " - " << v.title << ": " << v.summary << "\n";
      for (const auto& o : v.options) {
        std::cout << "    " << o.name << "=";
        for (std::size_t i = 0; i < o.allowed.size(); ++i)
          std::cout << (i ? "|" : "") << o.allowed[i];
        std::cout << "  (default " << o.default_value << ")  " << o.help << "\n";
      }
    }
    std::cout
        << "\nA variant is written name[:key=value,...], e.g. kalah:seeds=6; a path to your own "
           ".toml file works wherever a variant does (docs/variants.md).\n";
  });
}

}  // namespace naqala::cli
