#pragma once
// A fast seeded generator (xoshiro256**, seeded through splitmix64). Deterministic for a
// given seed on every platform, so random games and benchmarks replay exactly.
#include <cstdint>

namespace naqala {

constexpr std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  using result_type = std::uint64_t;
  explicit constexpr Rng(std::uint64_t seed = 0x6e6171616c61ULL) { reseed(seed); }
  constexpr void reseed(std::uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~0ULL; }
  constexpr result_type operator()() { return next(); }
  constexpr std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32
  // for the small n games use).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }
  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

// A lighter generator for random playouts, where drawing the number is a good part of a ply:
// one add and one 64x64->128 multiply a number (wyrand). Deterministic for a seed.
class PlayoutRng {
 public:
  explicit constexpr PlayoutRng(std::uint64_t seed = 1) : s_(seed) {}
  std::uint64_t next() {
    s_ += 0xa0761d6478bd642fULL;
    const unsigned __int128 m = static_cast<unsigned __int128>(s_) *
                                static_cast<unsigned __int128>(s_ ^ 0xe7037ed1a0b428dbULL);
    return static_cast<std::uint64_t>(m >> 64) ^ static_cast<std::uint64_t>(m);
  }
  // Uniform integer in [0, n), n > 0 (multiply-shift, as Rng::below).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

 private:
  std::uint64_t s_;
};

}  // namespace naqala
