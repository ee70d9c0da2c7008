#pragma once
// What the four-row games (Bao la Kiswahili, Bao la Kujifunza, Omweso) share: each player's
// 16 pits as one ring, the pit names of docs/games/bao.md, relay sowing with exact and fast proof
// of endless relays.
//
// Ring index r of a player's own pits (RULES.md section 0: F = front/inner row, B = back row,
// both counted from the owner's left):   r = 0..7 -> B[r],   r = 8..15 -> F[15 - r].
// Counter-clockwise sowing (seen from above) is r + 1, clockwise r - 1, both modulo 16.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
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

// Relay sowing and exact proof of an endless one.
//
// relay() lifts the pit `e` where a last seed has just landed and sows on in `dir`, lap after
// lap, until a last seed lands in an empty pit (Empty), in an occupied pit whose bit is set in
// `special` (Special: a capture, the nyumba, a takasia pit; the caller decides), or the relay
// is proven endless (Endless). Between special pits a relay is a plain walk that commutes
// with turning the ring, so Brent's cycle finding runs on the ring seen from the pit last
// landed in: when that view repeats after m laps, the ring has turned by k pits. Then the next
// 16/gcd(k,16) stretches of m laps are the same stretch turned by k, 2k, ... and the last
// lands exactly where it began: the relay never ends unless a turned stretch lands on a
// special pit, which is checked on the 16-bit mask of pits landed in; if one does, the relay
// jumps straight there (one replay of the stretch). The turned period is 8 to 16 times
// shorter than the period, but endless relays of 60 seeds can still have turned periods of
// 10^8 laps: after `max_laps` laps (0 = no limit) the relay stops as OverTime, the rule of
// S4:255 that a sowing not finished within two minutes is endless (kMaxRelayLaps is 65536
// laps, some 250,000 seeds, a millisecond or two; the longest finite relay in a million random
// rings took 607 laps). Allocation-free. Most relays end within a few laps: the first
// `plain_laps` laps run without the cycle finding's bookkeeping (on two 64-bit words, no
// turned views); a relay that has not ended by then starts again from the beginning with it,
// so every result (the pits and steps of an endless relay too) is that of the cycle finding.
enum class RelayEnd : std::uint8_t { Empty, Special, Endless, OverTime };
constexpr std::uint64_t kMaxRelayLaps = 1u << 16;
constexpr int kPlainRelayLaps = 16;

namespace detail {
// The 16 pits as one 128-bit number, a byte a pit: a relay runs in two registers.
using Pits128 = unsigned __int128;
inline Pits128 load(const std::array<std::uint8_t, kPits>& p) {
  Pits128 x;
  std::memcpy(&x, p.data(), sizeof x);
  return x;
}
inline void store(std::array<std::uint8_t, kPits>& p, Pits128 x) {
  std::memcpy(p.data(), &x, sizeof x);
}
inline int pit_of(Pits128 x, int r) {
  return static_cast<int>(static_cast<std::uint64_t>(x >> (8 * r)) & 0xff);
}
// The ring turned so that pit `k` comes first.
inline Pits128 turned_from(Pits128 x, int k) {
  k &= 15;
  return k ? (x >> (8 * k)) | (x << (128 - 8 * k)) : x;
}
inline std::uint16_t turn_mask(std::uint16_t m, int k) {  // bit r -> bit r + k
  k &= 15;
  return static_cast<std::uint16_t>(k ? (m << k) | (m >> (16 - k)) : m);
}
// Lifts pit e and sows its seeds on; returns the pit of the last seed.
inline int lap(Pits128& x, int e, int dir, std::uint64_t& steps) {
  constexpr Pits128 kOnes =
      (static_cast<Pits128>(0x0101010101010101ULL) << 64) | 0x0101010101010101ULL;
  const int seeds = pit_of(x, e);
  x &= ~(static_cast<Pits128>(0xff) << (8 * e));
  steps += static_cast<std::uint64_t>(seeds);
  const int from = next(e, dir);
  const auto& m = (dir == CCW ? sow_masks().ccw : sow_masks().cw)[from][seeds & 15];
  x += static_cast<Pits128>(seeds >> 4) * kOnes + ((static_cast<Pits128>(m[1]) << 64) | m[0]);
  return (from + dir * (seeds - 1)) & 15;
}
}  // namespace detail

namespace detail {
// The ring as two 64-bit words, a byte a pit.
inline int pit_of(const std::uint64_t (&w)[2], int r) {
  return static_cast<int>(w[r >> 3] >> (8 * (r & 7)) & 0xff);
}
// lap() on the words: lifts pit e and sows its seeds on; returns the pit of the last seed.
inline int lap(std::uint64_t (&w)[2], int e, int dir, const SowMasks& masks, std::uint64_t& steps) {
  const int shift = 8 * (e & 7);
  std::uint64_t& word = w[e >> 3];
  const int seeds = static_cast<int>(word >> shift & 0xff);
  word &= ~(std::uint64_t{0xff} << shift);
  steps += static_cast<std::uint64_t>(seeds);
  const int from = next(e, dir);
  const auto& m = (dir == CCW ? masks.ccw : masks.cw)[from][seeds & 15];
  const std::uint64_t whole = static_cast<std::uint64_t>(seeds >> 4) * 0x0101010101010101ULL;
  w[0] += whole + m[0];
  w[1] += whole + m[1];
  return (from + dir * (seeds - 1)) & 15;
}
inline Pits128 load(const std::uint64_t (&w)[2]) {
  return (static_cast<Pits128>(w[1]) << 64) | w[0];
}
}  // namespace detail

inline RelayEnd relay(std::array<std::uint8_t, kPits>& pits, int& e, int dir, std::uint16_t special,
                      std::uint64_t& steps, std::uint64_t max_laps = kMaxRelayLaps,
                      int plain_laps = kPlainRelayLaps) {
  using namespace detail;
  const SowMasks& masks = sow_masks();
  std::uint64_t w[2];
  {
    // The plain laps.
    std::memcpy(w, pits.data(), sizeof w);
    const int laps =
        max_laps ? static_cast<int>(std::min<std::uint64_t>(max_laps, plain_laps)) : plain_laps;
    std::uint64_t dropped = 0;
    int p = e;
    for (int k = 0; k < laps; ++k) {
      p = lap(w, p, dir, masks, dropped);
      const int last = pit_of(w, p);
      if (last == 1 || (special >> p & 1)) {
        std::memcpy(pits.data(), w, sizeof w);
        e = p;
        steps += dropped;
        return last == 1 ? RelayEnd::Empty : RelayEnd::Special;
      }
    }
  }
  // From the beginning with the cycle finding. The view is turned and compared only when the
  // pit landed in holds as many seeds as the tortoise's (the views' first pits).
  std::memcpy(w, pits.data(), sizeof w);
  Pits128 saved = load(w);  // Brent's tortoise
  int saved_e = e;
  Pits128 saved_view = turned_from(saved, e);
  int saved_first = pit_of(w, e);
  std::uint16_t landed = 0;  // pits landed in since the tortoise
  std::uint64_t stretch_steps = 0, power = 1, laps = 0, total = 0;
  RelayEnd end;
  while (true) {
    if (++total > max_laps && max_laps) {
      end = RelayEnd::OverTime;
      break;
    }
    std::uint64_t lap_steps = 0;
    e = lap(w, e, dir, masks, lap_steps);
    steps += lap_steps;
    const int last = pit_of(w, e);
    if (last == 1) {
      end = RelayEnd::Empty;
      break;
    }
    if (special >> e & 1) {
      end = RelayEnd::Special;
      break;
    }
    landed = static_cast<std::uint16_t>(landed | 1u << e);
    stretch_steps += lap_steps;
    ++laps;
    if (last == saved_first && turned_from(load(w), e) == saved_view) {
      const int k = (e - saved_e) & 15;
      const int turns = 16 / std::gcd(k ? k : 16, 16);
      int j = 1;
      while (j < turns && !(turn_mask(landed, j * k) & special)) ++j;
      if (j == turns) {
        end = RelayEnd::Endless;
        break;
      }
      // The j-th turned stretch lands on a special pit: replay the stretch to the first such
      // landing and turn the ring by j * k.
      const int shift = (j * k) & 15;
      std::uint64_t part = 0;
      int t = saved_e;
      do t = detail::lap(saved, t, dir, part);
      while (!(special >> ((t + shift) & 15) & 1));
      store(pits, turned_from(saved, 16 - shift));
      e = (t + shift) & 15;
      steps += static_cast<std::uint64_t>(j - 1) * stretch_steps + part;
      return RelayEnd::Special;
    }
    if (laps == power) {
      saved = load(w);
      saved_e = e;
      saved_view = turned_from(saved, e);
      saved_first = last;
      power *= 2;
      laps = 0;
      landed = 0;
      stretch_steps = 0;
    }
  }
  std::memcpy(pits.data(), w, sizeof w);
  return end;
}

// For a trace of the move (games/sow_trace.h): replays a relay from the ring as it was, lap
// by lap through the caller's traced sowing `sow_lap(from, seeds) -> last pit`, until a last
// seed lands in an empty or special pit, or for at most kTracedLaps laps (an endless relay is
// shown going round a while). relay() itself gives the result.
constexpr int kTracedLaps = 1000;
template <class SowLap>
void replay_relay(std::array<std::uint8_t, kPits>& pits, int e, int dir, std::uint16_t special,
                  SowLap sow_lap) {
  for (int laps = 0; laps < kTracedLaps; ++laps) {
    const int seeds = pits[e];
    pits[e] = 0;
    e = sow_lap(next(e, dir), seeds);
    if (pits[e] == 1 || (special >> e & 1)) return;
  }
}

}  // namespace naqala::board4
