// Move strings: a few plies into a game of some variant, the input is played as a move. It is
// a ParseError or IllegalMoveError, or one of the legal moves (never a crash, never a move the
// rules do not list).
#include <algorithm>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "fuzz_support.h"
#include "games/registry.h"

using namespace naqala;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static std::vector<std::unique_ptr<AnyGame>> games = [] {
    std::vector<std::unique_ptr<AnyGame>> out;
    for (const auto& v : fuzz::variants()) out.push_back(make_game(v));
    return out;
  }();
  const AnyGame& game = *games[data[0] % games.size()];
  auto s = game.new_game();
  Rng rng(data[1]);
  for (int ply = 0; ply < data[1] % 12 && !s->is_over(); ++ply) {
    if (s->is_chance_node()) {
      s->apply_chance(s->sample_chance(rng));
      continue;
    }
    const auto moves = s->legal_moves();
    s->play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
  }
  if (s->is_over()) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);
  auto next = s->clone();
  try {
    if (s->is_chance_node())
      next->apply_chance(text);
    else
      next->play(text);
  } catch (const Error&) {
    return 0;
  }
  if (s->is_chance_node()) return 0;
  // A resignation offer ("resign gammon") is an action, not one of the listed moves: the
  // opponent's answers (accept, decline) are listed next.
  const std::vector<std::string> answers{"accept", "decline"};
  if (next->legal_moves() == answers && s->legal_moves() != answers) return 0;
  // The move played must be one the rules list: some legal move leads to the same position.
  // The listed move spelled as the input is tried first: playing every move of a lock-step
  // sowing (hundreds of joint moves) was a third of this target's time.
  auto moves = s->legal_moves();
  const auto same = std::find(moves.begin(), moves.end(), text);
  if (same != moves.end()) std::iter_swap(moves.begin(), same);
  const std::string played = next->position();
  const bool listed = std::any_of(moves.begin(), moves.end(), [&](const std::string& m) {
    auto t = s->clone();
    t->play(m);
    return t->position() == played;
  });
  fuzz::check(listed, game.spec() + ": '" + text + "' played at " + s->position() +
                          " gives a position no legal move gives");
  return 0;
}
