// Bodies of the hash functions declared in jumphash/algorithms.hpp. They are
// inline so that report loops and benchmarks can inline them; read the
// declarations for what each one computes and where it comes from.
#pragma once

#include <bit>
#include <cstdint>

#include "jumphash/splitmix64.hpp"

namespace jumphash {

inline std::int32_t jump_hash(std::uint64_t key, std::int32_t n) {
  // Fig. 1 of the paper, unchanged. (b + 1) * (2^31 / x) <= 2^31 * 2^31 fits
  // int64, so the conversion of the double is always defined.
  std::int64_t b = -1, j = 0;
  while (j < n) {
    b = j;
    key = key * 2862933555777941757ULL + 1;
    j = static_cast<std::int64_t>(static_cast<double>(b + 1) *
                                  (static_cast<double>(1LL << 31) /
                                   static_cast<double>((key >> 33) + 1)));
  }
  return static_cast<std::int32_t>(b);
}

namespace detail {
/// Java's (int) cast of a double: NaN -> 0, saturating at the int range.
inline std::int32_t java_double_to_int(double d) {
  if (d != d) return 0;
  if (d >= 2147483647.0) return 2147483647;
  if (d <= -2147483648.0) return -2147483647 - 1;
  return static_cast<std::int32_t>(d);
}
}  // namespace detail

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

inline std::int32_t jump_back_hash(std::uint64_t key, std::int32_t n) {
  return detail::jump_back_hash_impl(key, n, [] {});
}

inline std::int32_t jump_back_hash_counting(std::uint64_t key, std::int32_t n,
                                            std::uint64_t* generator_calls) {
  return detail::jump_back_hash_impl(key, n, [generator_calls] { ++*generator_calls; });
}

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

inline std::int32_t modulo_hash(std::uint64_t key, std::int32_t n) {
  return static_cast<std::int32_t>(key % static_cast<std::uint64_t>(n));
}

}  // namespace jumphash
