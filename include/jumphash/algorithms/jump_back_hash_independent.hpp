// JumpBackHash with independent streams per interval: its body and its registry entry.
// Included by jumphash/algorithms.hpp (include that); the registry lists the
// entry below.
#pragma once

#include <bit>
#include <cstdint>

#include "jumphash/algorithms.hpp"
#include "jumphash/splitmix64.hpp"

namespace jumphash {

/// JumpBackHash with independent SplitMix64 streams per interval [2^m,
/// 2^(m+1)): the `jbh_indep` of the article "JumpBackHash:
/// Constant-Time Consistent Hashing by Walking Active Indices Backwards", exactly. Monotone and
/// uniform like JumpBackHash, and additionally spreads the keys of removed buckets uniformly over
/// the survivors when shrinking by several buckets at once. Precondition: 1 <= n <= kMaxBuckets.
inline std::int32_t jump_back_hash_independent(std::uint64_t key, std::int32_t n) {
  // The article's jbh_indep (see the declaration), line for line.
  if (n <= 1) return 0;
  std::uint64_t s = key;
  const std::uint64_t x = splitmix64_next(s);  // one bit per interval
  const std::uint32_t un = static_cast<std::uint32_t>(n);
  for (int m = 31 - std::countl_zero(un - 1); m >= 0; m--) {
    if (!((x >> m) & 1U)) continue;
    std::uint64_t t = key ^ (static_cast<std::uint64_t>(m + 1) * kSplitMix64Gamma);
    const std::uint32_t q = std::uint32_t{1} << m;
    std::uint32_t b = q + (static_cast<std::uint32_t>(splitmix64_next(t)) & (q - 1));
    for (;;) {
      if (b < un) return static_cast<std::int32_t>(b);
      b = static_cast<std::uint32_t>(splitmix64_next(t)) & ((q << 1) - 1);
      if (b < q) break;
    }
  }
  return 0;
}

inline constexpr Algorithm kJumpBackHashIndependent{
    .id = AlgorithmId::jumpback_indep,
    .kind = AlgorithmKind::bucket_count,
    .name = "jumpback-indep",
    .title = "JumpBackHash with independent streams",
    .paper =
        "JumpBackHash with one SplitMix64 stream per interval, from the article JumpBackHash: "
        "Constant-Time Consistent Hashing by Walking Active Indices Backwards",
    .expected_cost = "O(1) expected; about 1.2-2.2x jumpback",
    .memory = kNoState,
    .consistent = true,
    .removes_any_bucket = false,
    .weights = false,
    .function = &jump_back_hash_independent,
};

}  // namespace jumphash
