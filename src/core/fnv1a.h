#pragma once
// FNV-1a, 64 bits: the checksum of the backgammon files (network weights, bear-off tables,
// training data). `h` carries a running hash across several pieces.
#include <cstddef>
#include <cstdint>

namespace naqala {

inline constexpr std::uint64_t kFnv1aBasis = 0xcbf29ce484222325ULL;

inline std::uint64_t fnv1a(const void* p, std::size_t n, std::uint64_t h = kFnv1aBasis) {
  const auto* c = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) {
    h ^= c[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace naqala
