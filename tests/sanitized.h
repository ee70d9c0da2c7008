#pragma once
// Whether this test runs under AddressSanitizer (`make test-asan`, the fuzz tree). There, built
// at -O0 (Debug) with every access checked, the search and sowing code runs 10-25x slower than in
// the release tree, so the heaviest tests play fewer games or positions: the same checks on a
// smaller sample. The release tree (`make test`) always runs the full workload.

namespace naqala::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// `full` in the release tree, `sanitized` under the sanitizers.
constexpr int workload(int full, int sanitized) {
  return kSanitized ? sanitized : full;
}

}  // namespace naqala::testing
