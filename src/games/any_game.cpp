#include "games/any_game.h"

#include "core/error.h"

namespace naqala {

void AnyState::apply_chance(std::string_view) {
  throw IllegalMoveError("this game has no chance events");
}

std::string AnyState::sample_chance(Rng&) const {
  throw IllegalMoveError("this game has no chance events");
}

std::string join_moves(const std::vector<std::string>& moves) {
  if (moves.empty()) return "(none)";
  std::string out;
  for (const auto& m : moves) {
    if (!out.empty()) out += ' ';
    out += m;
  }
  return out;
}

}  // namespace naqala
