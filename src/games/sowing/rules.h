#pragma once
// A two-row sowing ruleset, compiled from its TOML description (docs/variants.md) into
// tables the engine walks without asking what game it is playing.
//
// Holes: South's pits are 0..n-1 and North's n..2n-1, each row numbered from its owner's
// left; South's store is 2n and North's 2n+1. Pit k of a player (1-based, from his left)
// is hole p*n + k-1, and the pit opposite hole h is 2n-1-h. A three-row board (Gabata) puts
// the middle row at n..2n-1 (column order from South's left), North's row at 2n..3n-1 and
// the stores at 3n and 3n+1.
//
// Rulesets that need nothing beyond single laps, Kalah/Oware/even captures (one or both),
// the automatic tuz and feeding run on the engine's fast path; every other rule (relay,
// rounds, setup, a tuz by choice, ...) sets `general` and runs out of line (sowing.h, capture.h,
// turn.cpp, rounds.cpp, lockstep.cpp), so the fast path never tests for them.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/player.h"
#include "core/zobrist.h"
#include "games/any_game.h"

namespace naqala::sowing {

inline constexpr int kMaxPitsPerRow = 11;
inline constexpr int kMaxHoles = 2 * kMaxPitsPerRow + 2;  // also holds 3 rows of up to 7
inline constexpr int kMaxLabels = 2 * kMaxPitsPerRow;     // pits one player may own
inline constexpr int kMaxSeedsPerHole = 255;              // board cells are bytes

// Sixteen board cells as one vector (GCC/Clang vector extension: SSE2 on x86-64, NEON on ARM).
using Cells16 = std::uint8_t __attribute__((vector_size(16)));
inline constexpr int kVectorHoles = 16;

enum class Direction : std::uint8_t { Ccw, Cw };
enum class SowStart : std::uint8_t {
  Next,
  Origin
};  // first seed into the next hole, or the origin
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
  MoverTakes,  // the player who cannot feed takes every seed left (abapa)
  OwnerTakes,  // each player takes the seeds on his side
};
enum class CycleRule : std::uint8_t { None, Owner, Draw };
enum class TieBreak : std::uint8_t { Draw, FirstEmpty };

// ---- rules of the general path ----
enum class Laps : std::uint8_t {
  Single,   // the move ends with the last seed
  Relay,    // last seed in an occupied hole: lift it all and sow on (relay, "laps")
  NextPit,  // pussa-kanawa: lift the hole after the last one while it holds seeds
};
enum CaptureBits : std::uint8_t {  // capture rules a ruleset combines
  kCapOpposite = 1,
  kCapCounts = 2,
  kCapColumn = 4,
  kCapAfterEmpty = 8,  // Pallanguzhi: the hole after the empty one, and its opposite
};
enum class Taker : std::uint8_t { None, Sower, Owner, Continue };
enum class ChainDir : std::uint8_t { Backward, Forward };
enum class PitChoice : std::uint8_t { Any, Rightmost };
enum class Singletons : std::uint8_t { Any, LastResort };
enum class NoMove : std::uint8_t {
  End,       // the game (or round) ends: seeds left go as end.remaining says
  Pass,      // the player passes; when neither can move the game (or round) ends
  PassOnce,  // he passes; if the reply still leaves him nothing, the game (or round) ends
  Loses,     // the player who cannot move loses
};
enum class Start : std::uint8_t { Alternate, Simultaneous };
enum class TuzKind : std::uint8_t { None, Auto, Choice };
enum class SetupKind : std::uint8_t { None, Free, Mirror };
enum class FirstAfterSetup : std::uint8_t { Arranger, Other };
enum class Feeding : std::uint8_t { Move, Gift };
enum class RoundKind : std::uint8_t {
  None,
  NamNam,  // the winner of a round claims pits of the loser's row (a decision)
  Refill,  // Pallanguzhi: refill N per pit from the store, pits left empty are burnt
  Gabata,  // the weaker lays out his seeds, the stronger mirrors them
  Points,  // a new layout every round; captures add up to a target
};

struct Rules {
  // Identity
  std::string name;  // preset name or the file's `name`
  std::string title;
  std::string summary;
  std::string description;  // free prose from the file, shown by `naqala rules`
  std::string source;       // which seed lines it follows
  std::shared_ptr<const nlohmann::json> tournament;  // [tournament]: match rules, or null

  // Board
  int pits = 6;           // per row
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
  bool empty_capture = false;  // Opposite: capture even when the opposite pit is empty
  CaptureSide capture_side = CaptureSide::Opponent;
  std::uint32_t count_mask = 0;  // Counts: bit c set = a pit holding c seeds is captured
  bool chain = false;            // Counts: also take preceding pits that qualify
  GrandSlam grand_slam = GrandSlam::NoCapture;
  bool even = false;  // Counts: every even count (Toguz, Mangala); Oware's grand slam rules apply
                      // only to the listed counts

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

  // ---- general path (any of these set `general`) ----
  int rows = 2;
  Laps laps = Laps::Single;
  std::uint8_t capture_set = 0;        // CaptureBits; `capture` above is the first of them
  std::array<bool, 256> capturable{};  // Counts: by the pit's count after the last seed
  bool with_last_seed = true;          // Opposite: the capturing seed goes to the store too
  bool with_opposite = false;          // Counts: each captured pit also takes the pit opposite
  ChainDir chain_dir = ChainDir::Backward;
  bool column_enemy_only = false;       // Column: only the opponent's pits of the column
  Taker during = Taker::None;           // a pit reaching `during_count` while sowing goes to ...
  Taker during_last = Taker::Continue;  // ... and when the last seed makes it
  int during_count = 4;
  int sweep = 0;  // a capture leaving <= this many on the board takes them too
  PitChoice pit_choice = PitChoice::Any;
  Singletons singletons = Singletons::Any;
  NoMove no_move = NoMove::End;
  Start start_rule = Start::Alternate;
  Feeding feeding = Feeding::Move;
  bool gift_to_first = false;  // Gift: the seed goes to the opponent's pit 1 (Lane), not opposite
  bool fed_by_sowing = false;  // Move: a seed sown onto his side feeds, even if captured back
  bool one_each_ends = false;  // each side holding exactly one seed ends the round
  TuzKind tuz = TuzKind::None;
  int tuz_count = 3;
  SetupKind setup = SetupKind::None;
  Player arranger = Player::South;
  int setup_min = 0;
  FirstAfterSetup setup_first = FirstAfterSetup::Arranger;
  bool pie = false;
  RoundKind rounds = RoundKind::None;
  int refill = 5;
  int target = 60;          // Points: the set's target (0 = none: the rounds decide)
  int round_count = 0;      // Points: the set is this many rounds (0 = until the target)
  bool difference = false;  // Points: the round's winner scores the difference (Lane)
  bool general = false;
  bool extras = false;  // the position has more than the board (general path, or a tuz)

  // Options as `naqala variants` shows them, and the values chosen for this instance.
  std::vector<OptionInfo> options;
  std::vector<std::pair<std::string, std::string>> chosen;  // non-default options only
  std::vector<std::string> aliases;

  // A sowing of more laps than this is endless (R13; sowing.h says why). No key sets it: the
  // tests lower it to see a long sowing cut.
  int max_laps = 10000;

  // ---- derived tables, filled by finalize() ----
  int holes = 14;
  std::array<std::array<std::uint8_t, kMaxHoles>, 2> next{};  // sowing successor per player
  std::array<std::array<std::uint8_t, kMaxHoles>, 2> prev{};  // predecessor (capture chains)
  std::array<int, 2> cycle_length{};                          // holes in each player's cycle
  std::uint64_t row_mask = 0;  // the bytes of one row in a 64-bit load (rows of up to 8 pits)
  ZobristTable zobrist{kMaxHoles, 256, 4};

  // A sowing in one vector step, for boards of up to 16 holes where no pit is passed over
  // when full (every fast-path preset but Toguz and Kenyan Bao). By origin (always a pit of its
  // owner, who sows it): the holes a whole lap sows (0xff each), the holes the first k seeds of a
  // lap sow (1 each), where the k-th seed falls, and the seeds of a lap. The loop of one seed at a
  // time chains a table load per seed.
  struct VectorSowing {
    Cells16 lap;
    std::array<Cells16, kVectorHoles + 1> first;
    std::array<std::uint8_t, kVectorHoles + 1> landing;
    int lap_length;
  };
  bool vector_sow = false;
  std::array<Cells16, kVectorHoles + 1> hole_cell{};  // 0xff at the hole (the last: none)
  std::array<VectorSowing, kVectorHoles> vector_sowing{};
  // With vector_sow and no tuz, a whole move is played on the vector (State::play_vector):
  // captures without branches, the end checks from one comparison of the board with zero.
  bool vector_play = false;
  std::array<std::uint32_t, 2> row_bits{};  // bit h: hole h is a pit of the player's row
  std::array<Cells16, 2> row_cells{};       // 0xff at the player's pits
  std::array<std::uint8_t, kVectorHoles> opposite_hole{};  // a store maps to itself
  // By capture (0 none, 1 Kalah's) and last hole: the cells the capture empties.
  std::array<std::array<Cells16, kVectorHoles>, 2> capture_cells{};
  std::array<std::uint8_t, 8> count_list{};  // Counts (not even): the capturing counts
  int count_list_size = 0;
  // The k-th pit (from the row's start) holding seeds, by the mask of pits that do; the number
  // of set bits by mask: a uniformly random move without building a list.
  std::array<std::array<std::uint8_t, 8>, 256> nth_pit{};
  std::array<std::uint8_t, 256> pit_count_of{};
  // The legal moves are the pits holding seeds (vector play, one seed enough, no forbidden
  // grand slam; a starving opponent checked apart).
  bool random_by_mask = false;

  // Per player: the pits he may own, numbered along his sowing path from his pit 1 (his row,
  // then the middle row or the opponent's row); moves name pits by this number.
  std::array<std::array<std::uint8_t, kMaxLabels>, 2> label_hole{};
  std::array<std::array<std::int8_t, kMaxHoles>, 2> hole_label{};
  int labels = 6;                                // labels per player
  std::uint32_t north_owned = 0;                 // initial owners: bit h set = North owns pit h
  std::array<std::uint8_t, kMaxHoles> column{};  // Gabata: column of each pit

  int all_pits = 12;  // rows * pits, kept for the hot path
  int north_first = 6;

  int pit_count() const { return all_pits; }
  int store(Player p) const { return all_pits + index(p); }
  int first_pit(Player p) const { return p == Player::South ? 0 : north_first; }
  Player owner(int hole) const {
    return hole < pits || hole == all_pits ? Player::South : Player::North;
  }
  bool is_pit(int hole) const { return hole < all_pits; }
  int opposite(int hole) const { return 2 * pits - 1 - hole; }
  bool sows_store(Player mover, Player store_owner) const {
    return stores == StoreSowing::Both || (stores == StoreSowing::Own && mover == store_owner);
  }

  // Builds the derived tables; call after every field above is set.
  void finalize();
};

}  // namespace naqala::sowing
