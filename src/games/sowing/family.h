#pragma once
// The sowing family in the registry: every preset of presets/ and users' .toml files.
#include <memory>
#include <string>

#include "games/registry.h"
#include "games/sowing/rules.h"

namespace naqala::sowing {

GameFamily family();

// The AnyGame of a compiled ruleset (also used by tests and tools that load TOML directly);
// `file` is the variant file it came from, if any (its spec names the file).
std::unique_ptr<AnyGame> make_sowing_game(std::shared_ptr<const Rules> rules,
                                          std::string file = {});

// Plain-English rules generated from the data.
std::string rules_text(const Rules& rules);

}  // namespace naqala::sowing
