// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014): the generator JumpBackHash draws from (hash4j's
// `SplitMix64`), and the generator of `random:COUNT:SEED` key sets.
#pragma once

#include <cstdint>

namespace jumphash {

/// The golden-ratio increment that advances SplitMix64's state.
inline constexpr std::uint64_t kSplitMix64Gamma = 0x9E3779B97F4A7C15ULL;

/// SplitMix64's output function (Stafford's "Mix13" finalizer).
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Advances `state` by the gamma and returns the next 64-bit output.
constexpr std::uint64_t splitmix64_next(std::uint64_t& state) {
  state += kSplitMix64Gamma;
  return splitmix64_mix(state);
}

/// The i-th output (i = 0, 1, ...) of SplitMix64 whose state starts at seed,
/// in O(1): the state after i+1 steps is seed + (i+1) * gamma (mod 2^64).
constexpr std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t i) {
  return splitmix64_mix(seed + (i + 1) * kSplitMix64Gamma);
}

}  // namespace jumphash
