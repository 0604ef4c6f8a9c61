// Guava's variant of Jump Consistent Hash: its body and its registry entry.
// Included by jumphash/algorithms.hpp (include that); the registry lists the
// entry below.
#pragma once

#include <cstdint>

#include "jumphash/algorithms.hpp"

namespace jumphash {

namespace detail {
/// Java's (int) cast of a double: NaN -> 0, saturating at the int range.
inline std::int32_t java_double_to_int(double d) {
  if (d != d) return 0;
  if (d >= 2147483647.0) return 2147483647;
  if (d <= -2147483648.0) return -2147483647 - 1;
  return static_cast<std::int32_t>(d);
}
}  // namespace detail

/// Guava 31's `Hashing.consistentHash(long, int)`: the same LCG, but
/// next = (c+1) / (((int)(state>>>33)+1) / 2^31), one division instead of
/// two, and Java's int overflow of `(int)(state>>>33)+1` when the top 31 bits
/// are all ones (the loop then stops). Differs from `jump_hash` on about one
/// key in 10^7. Precondition: 1 <= n <= kMaxBuckets.
inline std::int32_t jump_hash_guava(std::uint64_t key, std::int32_t n) {
  std::uint64_t state = key;
  std::int32_t candidate = 0;
  for (;;) {
    state = 2862933555777941757ULL * state + 1;
    // (int)(state >>> 33) + 1 in Java wraps to -2^31 when the top 31 bits
    // are all ones; compute it in 64 bits and wrap the same way.
    std::int64_t top = static_cast<std::int64_t>(state >> 33) + 1;
    if (top > 2147483647) top -= 4294967296LL;
    const double next_double = static_cast<double>(top) / 2147483648.0;
    const std::int32_t next =
        detail::java_double_to_int(static_cast<double>(candidate + 1) / next_double);
    if (next >= 0 && next < n) {
      candidate = next;
    } else {
      return candidate;
    }
  }
}

inline constexpr Algorithm kJumpHashGuava{
    .id = AlgorithmId::jump_guava,
    .kind = AlgorithmKind::bucket_count,
    .name = "jump-guava",
    .title = "Jump Consistent Hash, Guava's variant",
    .paper =
        "Guava 31 Hashing.consistentHash(long, int); Lamping & Veach's algorithm with one "
        "divide per step",
    .expected_cost = "O(ln n), like jump; differs from jump on about 1 key in 10^7",
    .memory = kNoState,
    .consistent = true,
    .removes_any_bucket = false,
    .weights = false,
    .function = &jump_hash_guava,
};

}  // namespace jumphash
