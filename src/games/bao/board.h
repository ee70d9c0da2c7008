#pragma once
// What the four-row games (Bao la Kiswahili, Bao la Kujifunza, Omweso) share: each player's
// 16 pits as one ring, the pit names of docs/bao.md, and exact detection of endless relays.
//
// Ring index r of a player's own pits (RULES.md section 0: F = front/inner row, B = back row,
// both counted from the owner's left):   r = 0..7 -> B[r],   r = 8..15 -> F[15 - r].
// Counter-clockwise sowing (seen from above) is r + 1, clockwise r - 1, both modulo 16.
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "core/player.h"

namespace naqala::board4 {

constexpr int kPits = 16;
enum Dir : std::int8_t { CW = -1, CCW = 1 };

constexpr int next(int r, int dir) {
  return (r + dir) & 15;
}
constexpr bool is_front(int r) {
  return r >= 8;
}
constexpr int front(int i) {
  return 15 - i;
}  // F[i], i = 0 leftmost
constexpr int back(int i) {
  return i;
}  // B[i]
// Column from the owner's left, 0..7.
constexpr int column(int r) {
  return r < 8 ? r : 15 - r;
}
// The opponent's front pit facing my front pit r (own F[i] faces opponent F'[7-i]).
constexpr int facing(int r) {
  return 23 - r;
}
// The opponent's back pit behind that one (B'[7-i]).
constexpr int facing_back(int r) {
  return r - 8;
}

constexpr int kLeftKichwa = front(0);  // F[0]; sowing from it toward the centre is clockwise
constexpr int kRightKichwa =
    front(7);  // F[7]; sowing from it toward the centre is counter-clockwise

// Pit names: column letter a..h from the owner's left, row digit 1 = front, 2 = back; lower case
// for South, upper case for North ("e1" is South's nyumba, "A1" North's left kichwa).
inline std::string pit_name(Player p, int r) {
  char letter = static_cast<char>('a' + column(r));
  if (p == Player::North) letter = static_cast<char>(letter - 'a' + 'A');
  return std::string{letter, is_front(r) ? '1' : '2'};
}

// Parses a pit name; returns the owner and ring index.
inline std::optional<std::pair<Player, int>> parse_pit(std::string_view t) {
  if (t.size() != 2) return std::nullopt;
  const char l = t[0], d = t[1];
  Player p;
  int col;
  if (l >= 'a' && l <= 'h') {
    p = Player::South;
    col = l - 'a';
  } else if (l >= 'A' && l <= 'H') {
    p = Player::North;
    col = l - 'A';
  } else {
    return std::nullopt;
  }
  if (d == '1') return std::pair{p, front(col)};
  if (d == '2') return std::pair{p, back(col)};
  return std::nullopt;
}

// Direction markers as Bao players write them: '<' toward the mover's left, '>' toward his
// right, read from the start pit's row (so '<' is counter-clockwise on the front row and
// clockwise on the back row).
inline char dir_marker(int r, int dir) {
  const bool ccw = dir == CCW;
  return (is_front(r) == ccw) ? '<' : '>';
}
inline int dir_from_marker(int r, char marker) {
  const bool left = marker == '<';
  return (is_front(r) == left) ? CCW : CW;
}

// Sows `seeds` seeds one per pit, the first into `from`, going `dir`; returns the pit of the
// last seed. Branch-free: whole laps add to every pit at once and the rest is one masked add
// on two 64-bit words (a pit never holds 255 seeds, so no byte carries into the next).
struct SowMasks {
  std::array<std::array<std::array<std::uint64_t, 2>, kPits>, kPits> ccw{}, cw{};  // [from][count]
  SowMasks() {
    for (int from = 0; from < kPits; ++from)
      for (int k = 0; k < kPits; ++k)
        for (int i = 0; i < k; ++i) {
          const int up = (from + i) & 15, down = (from - i) & 15;
          ccw[from][k][up / 8] |= 1ULL << (8 * (up % 8));
          cw[from][k][down / 8] |= 1ULL << (8 * (down % 8));
        }
  }
};
inline const SowMasks& sow_masks() {
  static const SowMasks masks;
  return masks;
}
inline int sow_ring(std::array<std::uint8_t, kPits>& pits, int from, int seeds, int dir) {
  std::uint64_t w[2];
  std::memcpy(w, pits.data(), sizeof w);
  const std::uint64_t laps = static_cast<std::uint64_t>(seeds >> 4) * 0x0101010101010101ULL;
  const auto& m = (dir == CCW ? sow_masks().ccw : sow_masks().cw)[from][seeds & 15];
  w[0] += laps + m[0];
  w[1] += laps + m[1];
  std::memcpy(pits.data(), w, sizeof w);
  return (from + dir * (seeds - 1)) & 15;
}

// Exact detection of an endless relay (Brent's cycle finding on the full state of the
// sowing: the 16 pits, the pit being lifted and the direction). A relay is deterministic,
// so a repeated state means it never ends. Allocation-free; reset whenever anything outside
// the compared state changes (a capture, a house losing its status).
class CycleGuard {
 public:
  void reset() {
    saved_pos_ = -1;
    power_ = 1;
    lam_ = 0;
  }
  // Called at each relay lift; true when this exact state was seen before.
  bool repeats(const std::array<std::uint8_t, kPits>& pits, int pos, int dir) {
    const int key = pos * 2 + (dir == CCW);
    if (key == saved_pos_ && pits == saved_) return true;
    if (lam_ == power_) {
      saved_ = pits;
      saved_pos_ = key;
      power_ *= 2;
      lam_ = 0;
    } else if (saved_pos_ < 0) {
      saved_ = pits;
      saved_pos_ = key;
    }
    ++lam_;
    return false;
  }

 private:
  std::array<std::uint8_t, kPits> saved_{};
  int saved_pos_ = -1;
  int power_ = 1;
  int lam_ = 0;
};

}  // namespace naqala::board4
