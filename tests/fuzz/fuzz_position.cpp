// Position text of every family: each input is a ParseError or a position that writes back
// the same text, whose legal moves all play and whose successors read back too.
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "fuzz_support.h"
#include "games/registry.h"

using namespace naqala;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static std::vector<std::unique_ptr<AnyGame>> games = [] {
    std::vector<std::unique_ptr<AnyGame>> out;
    for (const auto& v : fuzz::variants()) out.push_back(make_game(v));
    return out;
  }();
  const AnyGame& game = *games[data[0] % games.size()];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::unique_ptr<AnyState> s;
  try {
    s = game.from_position(text);
  } catch (const Error&) {
    return 0;
  }
  const std::string written = s->position();
  std::unique_ptr<AnyState> back;
  try {
    back = game.from_position(written);
  } catch (const Error& e) {
    fuzz::broken(game.spec() + ": position " + written + " does not read back: " + e.what());
  }
  fuzz::check(back->position() == written,
              game.spec() + ": " + written + " reads back as " + back->position());
  (void)s->render();
  (void)s->board_json();
  if (s->is_over() || s->is_chance_node()) return 0;
  const auto moves = s->legal_moves();
  for (std::size_t i = 0; i < moves.size() && i < 16; ++i) {
    auto next = s->clone();
    next->play(moves[i]);  // a listed move must play: an exception here is a finding
    const std::string p = next->position();
    fuzz::check(game.from_position(p)->position() == p, game.spec() + ": successor " + p);
  }
  return 0;
}
