// key % n, the baseline: its body and its registry entry.
// Included by jumphash/algorithms.hpp (include that); the registry lists the
// entry below.
#pragma once

#include <cstdint>

#include "jumphash/algorithms.hpp"

namespace jumphash {

/// key % n: the baseline. Uniform, but growing n to n+1 moves n/(n+1) of all
/// keys. Precondition: 1 <= n <= kMaxBuckets.
inline std::int32_t modulo_hash(std::uint64_t key, std::int32_t n) {
  return static_cast<std::int32_t>(key % static_cast<std::uint64_t>(n));
}

inline constexpr Algorithm kModuloHash{
    .id = AlgorithmId::modulo,
    .kind = AlgorithmKind::bucket_count,
    .name = "modulo",
    .title = "Modulo (key % n)",
    .paper = "The baseline every consistent hash is measured against",
    .expected_cost = "O(1): one 64-bit division; growing n to n+1 moves n/(n+1) of the keys",
    .memory = kNoState,
    .consistent = false,
    .removes_any_bucket = false,
    .weights = false,
    .function = &modulo_hash,
};

}  // namespace jumphash
