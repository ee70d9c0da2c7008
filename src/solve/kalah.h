#pragma once
// Kalah reduced to what decides the rest of the game: the pits. The stores never change a
// move, so the value of a position is "how many of the n seeds still on the board the player
// to move ends up with" (the rest go to the opponent: seeds are never lost), and the final
// margin is store(me) - store(opponent) + 2 * value - n. The endgame database and the solver
// both work on this reduced game, seen from the player to move.
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>

#include "games/sowing/rules.h"

namespace naqala::sowing {
class State;
}

namespace naqala::solve {

// The rules the solver follows: Kalah's (docs/games/kalah.md) with the board width and the two
// options of the Kalah presets as parameters.
struct KalahRules {
  int pits = 6;                // per row, 1..8
  bool empty_capture = false;  // capture from an own empty pit even when the opposite is empty
  bool extra_turn = true;      // last seed in the own store: move again
  bool operator==(const KalahRules&) const = default;
};

// The Kalah rules of a sowing ruleset; throws VariantError naming the first rule the solver
// does not follow (only Kalah-like rulesets qualify: own store sown, single laps, opposite
// captures, immediate end on an empty row with the pits going to their owner).
KalahRules kalah_rules(const sowing::Rules& rules);
// The same, or nothing for a ruleset the solver does not take (engines and the Python module
// choose between the Kalah solver and the sowing database by it).
std::optional<KalahRules> kalah_rules_if_any(const sowing::Rules& rules);

// A position as the player to move sees it: his pits from his left in pit[0..P), the
// opponent's, from the opponent's left, in pit[8..8+P). Each row has its own 8 bytes, so a row
// sum is one load and the other player's view is a swap of two words.
struct Board {
  std::array<std::uint8_t, 16> pit{};

  int row(int side) const {
    std::uint64_t w;
    std::memcpy(&w, pit.data() + 8 * side, 8);
    // Adds the eight bytes (exact while a row holds fewer than 256 seeds).
    return static_cast<int>((w * 0x0101010101010101ULL) >> 56);
  }
  int seeds() const { return row(0) + row(1); }
  void flip() {
    std::uint64_t a, b;
    std::memcpy(&a, pit.data(), 8);
    std::memcpy(&b, pit.data() + 8, 8);
    std::memcpy(pit.data(), &b, 8);
    std::memcpy(pit.data() + 8, &a, 8);
  }
  bool operator==(const Board&) const = default;
};

// The board of a sowing state, seen from the player to move.
Board board_of(const sowing::State& s);

// What a sowing did. `gained`: seeds the mover put in his store (sown and captured).
struct Sowing {
  int gained = 0;
  bool over = false;   // a row is empty: the game ended, every pit goes to its owner
  bool extra = false;  // the mover moves again (never set when `over`)
};

// Plays the mover's pit `from` (which holds seeds) on `b`. The board is left from the mover's
// view; flip it when the turn passes.
inline Sowing sow(const KalahRules& r, Board& b, int from) {
  const int pits = r.pits, cycle = 2 * pits + 1;  // his pits, his store, the opponent's pits
  Sowing out;
  int seeds = b.pit[from];
  b.pit[from] = 0;
  if (seeds > cycle) {  // whole laps at once; keep at least one seed so the last hole is right
    const int laps = (seeds - 1) / cycle;
    seeds -= laps * cycle;
    for (int i = 0; i < pits; ++i) {
      b.pit[i] += laps;
      b.pit[8 + i] += laps;
    }
    out.gained += laps;
  }
  // Slots along the cycle: 0..P-1 his pits, P his store, P+1..2P the opponent's pits.
  int slot = from;
  do {
    slot = slot + 1 == cycle ? 0 : slot + 1;
    if (slot < pits)
      ++b.pit[slot];
    else if (slot == pits)
      ++out.gained;
    else
      ++b.pit[slot + 7 - pits];
  } while (--seeds);
  if (slot == pits) {
    out.extra = r.extra_turn;
  } else if (slot < pits && b.pit[slot] == 1) {
    const int opposite = 8 + pits - 1 - slot;
    if (b.pit[opposite] != 0 || r.empty_capture) {
      out.gained += b.pit[opposite] + 1;
      b.pit[opposite] = 0;
      b.pit[slot] = 0;
    }
  }
  if (b.row(0) == 0 || b.row(1) == 0) {
    out.over = true;
    out.extra = false;
  }
  return out;
}

}  // namespace naqala::solve
