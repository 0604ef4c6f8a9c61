// JumpBackHash* (Ertl), bit-exact with hash4j: its body and its registry entry.
// Included by jumphash/algorithms.hpp (include that); the registry lists the
// entry below.
#pragma once

#include <bit>
#include <cstdint>

#include "jumphash/algorithms.hpp"
#include "jumphash/splitmix64.hpp"

namespace jumphash {

namespace detail {
/// Algorithm 6 of Ertl's paper as hash4j implements it; `Counter` observes
/// each SplitMix64 draw (a no-op for the plain function).
template <class Counter>
inline std::int32_t jump_back_hash_impl(std::uint64_t key, std::int32_t n, Counter count) {
  if (n <= 1) return 0;
  std::uint64_t state = key;
  count();
  const std::uint64_t v = splitmix64_next(state);  // V0 = low 32 bits, V1 = high
  const std::uint32_t bits_of_n_minus_1 =
      32U - static_cast<std::uint32_t>(std::countl_zero(static_cast<std::uint32_t>(n - 1)));
  std::uint32_t u = static_cast<std::uint32_t>(v ^ (v >> 32)) &
                    static_cast<std::uint32_t>((std::uint64_t{1} << bits_of_n_minus_1) - 1);
  const std::uint32_t un = static_cast<std::uint32_t>(n);
  while (u != 0) {
    const std::uint32_t q = std::uint32_t{1} << (31 - std::countl_zero(u));  // I_m = [q, 2q)
    const unsigned parity_shift = (std::popcount(u) & 1U) * 32U;
    std::uint32_t b = q + (static_cast<std::uint32_t>(v >> parity_shift) & (q - 1));
    for (;;) {
      if (b < un) return static_cast<std::int32_t>(b);
      count();
      const std::uint64_t w = splitmix64_next(state);  // two W draws per word
      const std::uint32_t mask = (q << 1) - 1;
      b = static_cast<std::uint32_t>(w) & mask;
      if (b < q) break;
      if (b < un) return static_cast<std::int32_t>(b);
      b = static_cast<std::uint32_t>(w >> 32) & mask;
      if (b < q) break;
    }
    u ^= q;
  }
  return 0;
}
}  // namespace detail

/// JumpBackHash* (Algorithm 6 of Ertl, "JumpBackHash: Say Goodbye to the
/// Modulo Operation to Distribute Keys Uniformly to Buckets",
/// arXiv:2403.18682) with SplitMix64 seeded by the key; bit-exact with
/// hash4j's `ConsistentHashing.jumpBackHashSplitMix64()`. Expected fewer than
/// 5/3 generator calls (eq. 25). Precondition: 1 <= n <= kMaxBuckets.
inline std::int32_t jump_back_hash(std::uint64_t key, std::int32_t n) {
  return detail::jump_back_hash_impl(key, n, [] {});
}

/// Same as `jump_back_hash`, and adds the number of SplitMix64 outputs drawn
/// to `*generator_calls` (for checking eq. 25 of the paper).
inline std::int32_t jump_back_hash_counting(std::uint64_t key, std::int32_t n,
                                            std::uint64_t* generator_calls) {
  return detail::jump_back_hash_impl(key, n, [generator_calls] { ++*generator_calls; });
}

inline constexpr Algorithm kJumpBackHash{
    .id = AlgorithmId::jumpback,
    .kind = AlgorithmKind::bucket_count,
    .name = "jumpback",
    .title = "JumpBackHash*",
    .paper =
        "Ertl, JumpBackHash (2024), arXiv:2403.18682, Algorithm 6; hash4j "
        "jumpBackHashSplitMix64()",
    .expected_cost =
        "O(1): fewer than 5/3 SplitMix64 calls in expectation (eq. 25), integer operations only",
    .memory = kNoState,
    .consistent = true,
    .removes_any_bucket = false,
    .weights = false,
    .function = &jump_back_hash,
};

}  // namespace jumphash
