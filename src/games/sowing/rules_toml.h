#pragma once
// Reading a sowing ruleset from TOML (docs/variants.md): the schema, validation with the key,
// the line and the allowed values in every error, and the options a variant spec can set.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "games/registry.h"
#include "games/sowing/rules.h"

namespace naqala::sowing {

// Compiles `text` (the contents of `origin`, a file name or "preset kalah") with the given
// option values applied. Throws VariantError.
std::shared_ptr<const Rules> load_rules(std::string_view text, const std::string& origin,
                                        const OptionValues& options);

// The presets shipped inside the binary, by name, as TOML text.
struct Preset {
  std::string_view name;
  std::string_view toml;
};
const std::vector<Preset>& presets();

}  // namespace naqala::sowing
