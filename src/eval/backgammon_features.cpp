// The hand-made inputs of the backgammon networks: shots, escapes, primes, containment,
// contact and pip loss.
#include "eval/backgammon_features.h"

#include <emmintrin.h>

#include <algorithm>
#include <bit>

namespace naqala::bgfeatures {

using backgammon::kBar;

int rolls_reaching(std::uint32_t from, std::uint32_t target, std::uint32_t blocked) {
  target &= ~blocked;
  // Where one die takes a checker, and where it can go on from (an open point).
  std::uint32_t land[7], open[7];
  for (int d = 1; d <= 6; ++d) land[d] = from >> d, open[d] = land[d] & ~blocked;
  int count = 0;
  for (int a = 1; a <= 6; ++a) {
    // Doubles: up to four steps, each landing on an open point.
    std::uint32_t at = open[a], seen = land[a];
    for (int step = 1; step < 4; ++step) {
      at >>= a;
      seen |= at;
      at &= ~blocked;
    }
    count += (seen & target) != 0;
    for (int b = a + 1; b <= 6; ++b) {
      const std::uint32_t reach = land[a] | land[b] | open[a] >> b | open[b] >> a;
      count += 2 * ((reach & target) != 0);
    }
  }
  return count;
}

namespace {

// One side's points as bit masks, from its own view (bit i = index i, 0..23): sixteen
// points per SSE2 comparison (every x86-64 has SSE2).
struct Masks {
  std::uint32_t occupied = 0, blots = 0, made = 0;
  explicit Masks(const Side& s) {
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data()));
    const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + 8));
    const auto bits = [&](__m128i value) {
      return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(low, value)) |
                                        _mm_movemask_epi8(_mm_cmpeq_epi8(high, value)) << 8);
    };
    occupied = ~bits(_mm_setzero_si128()) & 0xffffffu;
    blots = bits(_mm_set1_epi8(1));
    made = occupied & ~blots;
  }
};

// The 24 points seen from the other side: bit i becomes bit 23 - i.
std::uint32_t mirrored(std::uint32_t x) {
  static constexpr auto kReversed = [] {
    std::array<std::uint8_t, 256> r{};
    for (int v = 0; v < 256; ++v)
      for (int k = 0; k < 8; ++k)
        if (v >> k & 1) r[v] |= static_cast<std::uint8_t>(1 << (7 - k));
    return r;
  }();
  return std::uint32_t{kReversed[x & 255]} << 16 | std::uint32_t{kReversed[x >> 8 & 255]} << 8 |
         kReversed[x >> 16 & 255];
}

// Shots and pip loss: the blots `other` can hit, cumulated from the one that loses the most
// pips, so each roll counts the largest loss among the blots it hits.
struct Hits {
  float shots = 0, pip_loss = 0;
};
Hits hits(const Masks& s, const Side& other, const Masks& o) {
  // s's blots in other's view: a blot hit on bit j (s's point 24 - j) loses j + 1 pips.
  std::uint32_t blots = mirrored(s.blots);
  // Checkers on the bar must enter first.
  const std::uint32_t shooters = other[kBar] ? 1u << kBar : o.occupied;
  if (!shooters) return {};
  // Checkers move to lower bits: only blots below the rearmost shooter can be hit.
  blots &= (1u << (std::bit_width(shooters) - 1)) - 1;
  if (!blots) return {};
  const std::uint32_t blocked = mirrored(s.made);
  std::uint32_t target = 0;
  int before = 0, loss = 0;
  while (blots) {
    const int j = std::bit_width(blots) - 1;
    blots &= ~(1u << j);
    target |= 1u << j;
    const int now = rolls_reaching(shooters, target, blocked);
    loss += (j + 1) * (now - before);
    before = now;
  }
  return {before / 36.0f, loss / (36.0f * 24.0f)};
}

float escapes(const Side& s, const Masks& m, const Masks& o) {
  const int rear = s[kBar] ? kBar : std::bit_width(m.occupied) - 1;
  if (rear < 0) return 1;
  const std::uint32_t blocks = mirrored(o.made);
  const int low = std::max(0, rear - 12);
  const std::uint32_t window = ((1u << rear) - 1) & ~((1u << low) - 1);
  const std::uint32_t ahead = blocks & window;
  if (!ahead) return 1;
  const int last_block = std::countr_zero(ahead);
  return rolls_reaching(1u << rear, (1u << last_block) - 1, blocks) / 36.0f;
}

// Rolls escaping each 12-point window of made points (bit j = 12 - j pips in front): the
// checker on bit 24, the window on bits 12..23, open points below it.
const std::array<std::uint8_t, 4096>& escape_table() {
  static const auto table = [] {
    std::array<std::uint8_t, 4096> t{};
    for (std::uint32_t w = 0; w < 4096; ++w)
      t[w] = static_cast<std::uint8_t>(
          w ? rolls_reaching(1u << 24, (1u << (std::countr_zero(w) + 12)) - 1, w << 12) : 36);
    return t;
  }();
  return table;
}

}  // namespace

int escaping_rolls(std::uint32_t window) {
  return escape_table()[window & 4095];
}

namespace {

float containment(const Masks& o) {
  const auto& table = escape_table();
  const std::uint32_t blocks = mirrored(o.made);
  int least = 36;
  for (int p = 12; p < 24 && least; ++p)
    least = std::min<int>(least, table[blocks >> (p - 12) & 4095]);
  return 1 - least / 36.0f;
}

float contact(const Side& s, const Side& other) {
  int rear = kBar;
  while (rear >= 0 && !other[rear]) --rear;
  if (rear < 0) return 0;
  // other's rearmost checker on s's point 24 - rear (0 for the bar); s's checker on index i
  // is on its point i + 1 (the bar 25).
  const int line = 24 - rear;
  int pips = 0;
  for (int i = std::max(0, line); i <= kBar; ++i) pips += s[i] * (i + 1 - line);
  return pips / 100.0f;
}

float prime(std::uint32_t made) {
  int run = 0;
  for (; made && run < 6; ++run) made &= made << 1;
  return run / 6.0f;
}

std::array<float, kFeatures> of_side(const Side& s, const Masks& m, const Side& other,
                                     const Masks& o) {
  std::array<float, kFeatures> f{};
  const Hits h = hits(m, other, o);
  f[Shots] = h.shots;
  f[Escapes] = escapes(s, m, o);
  f[Prime] = prime(m.made);
  f[Containment] = containment(o);
  f[Contact] = contact(s, other);
  f[PipLoss] = h.pip_loss;
  return f;
}

}  // namespace

std::array<float, kFeatures> side_features(const Side& s, const Side& other) {
  return of_side(s, Masks(s), other, Masks(other));
}

std::array<float, 2 * kFeatures> both_sides(const Side& me, const Side& opp) {
  const Masks m(me), o(opp);
  const auto a = of_side(me, m, opp, o), b = of_side(opp, o, me, m);
  std::array<float, 2 * kFeatures> f{};
  int k = 0, begin = 0;
  for (const int end : kGenerationEnd) {
    for (int i = begin; i < end; ++i) f[k++] = a[i];
    for (int i = begin; i < end; ++i) f[k++] = b[i];
    begin = end;
  }
  return f;
}

}  // namespace naqala::bgfeatures
