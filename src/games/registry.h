#pragma once
// Variant registry: variant spec -> AnyGame. A spec is "name[:key=value[,key=value...]]"
// where name is a preset (or alias) or a path to a user's .toml variant file.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "games/any_game.h"

namespace naqala {

using OptionValues = std::vector<std::pair<std::string, std::string>>;  // in spec order

struct VariantSpec {
  std::string name;  // preset name, alias or .toml path
  OptionValues options;
};

// Splits "name:k=v,k=v"; throws VariantError on malformed text.
VariantSpec parse_variant_spec(std::string_view spec);

// A family of rulesets (the sowing engine, Bao, Omweso, backgammon).
struct GameFamily {
  std::string name;
  std::function<std::vector<VariantInfo>()> variants;
  // Returns nullptr when `name` is not one of this family's presets or aliases.
  std::function<std::unique_ptr<AnyGame>(const VariantSpec&)> make;
  // Optional: loads a user's variant file (only the sowing family does today).
  std::function<std::unique_ptr<AnyGame>(const std::string& path, const OptionValues&)> load_file;
};

// Every registered family, registered once on first use.
const std::vector<GameFamily>& game_families();
std::vector<VariantInfo> list_variants();

// A name that is no preset, alias or file: `known` lists the presets and aliases, so that a
// caller that takes no files (the server) can say what it allows.
class UnknownVariantError : public VariantError {
 public:
  UnknownVariantError(const std::string& name, std::string known)
      : VariantError("unknown variant '" + name + "'; known variants: " + known +
                     " (or a path to a .toml variant file)"),
        name(name),
        known(std::move(known)) {}
  std::string name, known;
};

// Throws VariantError listing the known variants (or the file's problem).
std::unique_ptr<AnyGame> make_game(std::string_view spec);

}  // namespace naqala
