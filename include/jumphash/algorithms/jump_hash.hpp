// Jump Consistent Hash (Lamping & Veach), the paper's C++: its body and its registry entry.
// Included by jumphash/algorithms.hpp (include that); the registry lists the
// entry below.
#pragma once

#include <cstdint>

#include "jumphash/algorithms.hpp"

namespace jumphash {

/// Jump Consistent Hash, exactly the C++ of fig. 1 of Lamping & Veach,
/// "A Fast, Minimal Memory, Consistent Hash Algorithm" (arXiv:1406.2294),
/// as ClickHouse's jumpConsistentHash: LCG 2862933555777941757*k+1, then
/// j = (b+1) * (2^31 / ((k>>33)+1)) in double. Expected ln(n)+1 iterations.
/// Precondition: 1 <= n <= kMaxBuckets.
inline std::int32_t jump_hash(std::uint64_t key, std::int32_t n) {
  // Fig. 1 of the paper, unchanged. (b + 1) * (2^31 / x) <= 2^31 * 2^31 fits
  // int64, so the conversion of the double is always defined.
  std::int64_t b = -1, j = 0;
  while (j < n) {
    b = j;
    key = key * 2862933555777941757ULL + 1;
    j = static_cast<std::int64_t>(
        static_cast<double>(b + 1) *
        (static_cast<double>(1LL << 31) / static_cast<double>((key >> 33) + 1)));
  }
  return static_cast<std::int32_t>(b);
}

inline constexpr Algorithm kJumpHash{
    .id = AlgorithmId::jump,
    .kind = AlgorithmKind::bucket_count,
    .name = "jump",
    .title = "Jump Consistent Hash",
    .paper =
        "Lamping & Veach, A Fast, Minimal Memory, Consistent Hash Algorithm (2014), "
        "arXiv:1406.2294, fig. 1",
    .expected_cost =
        "O(ln n): fewer than ln(n) + 1 loop iterations, each with a floating-point divide",
    .memory = kNoState,
    .consistent = true,
    .removes_any_bucket = false,
    .weights = false,
    .function = &jump_hash,
};

}  // namespace jumphash
