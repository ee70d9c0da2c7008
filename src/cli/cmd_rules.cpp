// naqala rules VARIANT: the rules of a variant in plain English.
#include <iostream>

#include "cli/commands.h"
#include "cli/terminal.h"
#include "games/registry.h"

namespace naqala::cli {

void add_rules_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("rules", "Print the rules of a variant in plain English");
  auto variant = std::make_shared<std::string>();
  cmd->add_option("variant", *variant, "Variant, e.g. oware or kalah:seeds=6 or my.toml")
      ->required();
  // Wrapped to the terminal (80 columns when the output goes to a file or a pipe).
  cmd->callback(
      [variant] { std::cout << wrap(make_game(*variant)->rules_text(), terminal_width()); });
}

}  // namespace naqala::cli
