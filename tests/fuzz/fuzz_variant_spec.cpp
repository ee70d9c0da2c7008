// Variant specs ("kalah:seeds=6,...") and TOML variant files: each input is a clear
// VariantError or a game whose rules print and whose start plays.
#include <string>

#include "core/error.h"
#include "fuzz_support.h"
#include "games/registry.h"
#include "games/sowing/family.h"
#include "games/sowing/rules_toml.h"

using namespace naqala;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    std::unique_ptr<AnyGame> game;
    if (data[0] & 1) {
      if (text.find('/') != std::string::npos || text.find(".toml") != std::string::npos)
        return 0;  // a spec naming a file would read the fuzzing machine's files
      game = make_game(text);
    } else {
      game = sowing::make_sowing_game(sowing::load_rules(text, "fuzz.toml", {}));
    }
    (void)game->rules_text();
    auto s = game->new_game();
    (void)s->position();
    if (!s->is_over() && !s->is_chance_node()) {
      const auto moves = s->legal_moves();
      fuzz::check(!moves.empty(), "no legal move at the start of " + game->spec());
      s->play(moves.front());
    }
  } catch (const Error&) {
  }
  return 0;
}
