#pragma once
// The two sides of every naqala game. South moves first unless a ruleset says otherwise;
// in backgammon South is the player gnubg calls "player 0" only by convention of each adapter.
#include <cstdint>
#include <string_view>

namespace naqala {

enum class Player : std::uint8_t { South = 0, North = 1 };

constexpr Player opponent(Player p) {
  return p == Player::South ? Player::North : Player::South;
}
constexpr int index(Player p) {
  return static_cast<int>(p);
}
constexpr std::string_view name(Player p) {
  return p == Player::South ? "south" : "north";
}
constexpr char letter(Player p) {
  return p == Player::South ? 'S' : 'N';
}

}  // namespace naqala
