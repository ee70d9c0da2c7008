#pragma once
// A two-row sowing ruleset, compiled from its TOML description (docs/variants.md) into
// tables the engine walks without asking what game it is playing.
//
// Holes: South's pits are 0..n-1 and North's n..2n-1, each row numbered from its owner's
// left; South's store is 2n and North's 2n+1. Pit k of a player (1-based, from his left)
// is hole p*n + k-1, and the pit opposite hole h is 2n-1-h.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/player.h"
#include "core/zobrist.h"
#include "games/any_game.h"

namespace naqala::sowing {

inline constexpr int kMaxPitsPerRow = 11;
inline constexpr int kMaxHoles = 2 * kMaxPitsPerRow + 2;
inline constexpr int kMaxSeedsPerHole = 255;  // board cells are bytes

enum class Direction : std::uint8_t { Ccw, Cw };
enum class SowStart : std::uint8_t { Next, Origin };  // first seed into the next hole, or the origin
enum class StoreSowing : std::uint8_t { None, Own, Both };
enum class CaptureKind : std::uint8_t {
  None,
  Opposite,  // last seed in an own empty pit takes the opposite pit (Kalah)
  Counts,    // last seed makes the pit hold one of `counts` (Oware 2-3), chained backwards
};
enum class CaptureSide : std::uint8_t { Own, Opponent, Both };
enum class GrandSlam : std::uint8_t { NoCapture, Forbidden, CaptureAll };
enum class RowEmptyCheck : std::uint8_t {
  Immediate,  // the game ends as soon as either row is empty (Kalah)
  AtTurn,     // the game ends when the player to move cannot move (Oware, with feeding)
};
enum class Remaining : std::uint8_t {
  Owner,    // seeds left in the pits go to the store of the pits' owner
  Emptied,  // ... to the player whose row emptied (Bantumi's Nokia counting)
  None,     // ... to nobody: stores alone decide
};
enum class CannotFeed : std::uint8_t {
  MoverTakes,     // the player who cannot feed takes every seed left (abapa)
  OwnerTakes,     // each player takes the seeds on his side
};
enum class CycleRule : std::uint8_t { None, Owner, Draw };
enum class TieBreak : std::uint8_t { Draw, FirstEmpty };

struct Rules {
  // Identity
  std::string name;     // preset name or the file's `name`
  std::string title;
  std::string summary;
  std::string description;  // free prose from the file, shown by `naqala rules`
  std::string source;       // which seed lines it follows

  // Board
  int pits = 6;         // per row
  int initial_seeds = 4;  // per pit
  int total_seeds = 48;
  Player first = Player::South;

  // Sowing
  Direction direction = Direction::Ccw;
  SowStart start = SowStart::Next;
  StoreSowing stores = StoreSowing::None;
  bool skip_origin = false;  // the origin is passed over when a lap comes round
  int skip_full = 0;         // pits already holding >= this many are passed over (0 = off)
  int min_seeds = 1;         // a pit needs this many seeds to be played

  // Capture
  CaptureKind capture = CaptureKind::None;
  bool empty_capture = false;      // Opposite: capture even when the opposite pit is empty
  CaptureSide capture_side = CaptureSide::Opponent;
  std::uint32_t count_mask = 0;    // Counts: bit c set = a pit holding c seeds is captured
  bool chain = false;              // Counts: also take preceding pits that qualify
  GrandSlam grand_slam = GrandSlam::NoCapture;

  // Turn and feeding
  bool extra_turn = false;  // last seed in own store: move again
  bool must_feed = false;
  CannotFeed cannot_feed = CannotFeed::MoverTakes;

  // End and scoring
  RowEmptyCheck row_empty = RowEmptyCheck::Immediate;
  Remaining remaining = Remaining::Owner;
  int threshold = 0;  // a store reaching this ends the game (0 = off); half+1 for "majority"
  bool draw_at_half = false;  // with a threshold: both stores at exactly half ends in a draw
  CycleRule cycle = CycleRule::None;
  TieBreak tie = TieBreak::Draw;

  // Options as `naqala variants` shows them, and the values chosen for this instance.
  std::vector<OptionInfo> options;
  std::vector<std::pair<std::string, std::string>> chosen;  // non-default options only
  std::vector<std::string> aliases;

  // ---- derived tables, filled by finalize() ----
  int holes = 14;
  std::array<std::array<std::uint8_t, kMaxHoles>, 2> next{};  // sowing successor per player
  std::array<std::array<std::uint8_t, kMaxHoles>, 2> prev{};  // predecessor (capture chains)
  std::array<int, 2> cycle_length{};                          // holes in each player's cycle
  std::uint64_t row_mask = 0;  // the bytes of one row in a 64-bit load (rows of up to 8 pits)
  ZobristTable zobrist{kMaxHoles, 256, 4};

  int store(Player p) const { return 2 * pits + index(p); }
  int first_pit(Player p) const { return index(p) * pits; }
  Player owner(int hole) const {
    return hole < pits || hole == 2 * pits ? Player::South : Player::North;
  }
  bool is_pit(int hole) const { return hole < 2 * pits; }
  int opposite(int hole) const { return 2 * pits - 1 - hole; }
  bool sows_store(Player mover, Player store_owner) const {
    return stores == StoreSowing::Both || (stores == StoreSowing::Own && mover == store_owner);
  }

  // Builds the derived tables; call after every field above is set.
  void finalize();
};

}  // namespace naqala::sowing
