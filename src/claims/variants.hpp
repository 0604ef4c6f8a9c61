// Variants that only the claims need, kept out of the algorithm registry:
// fig. 1 of Lamping & Veach with its loop counted, the ring the paper
// compares against (random points per bucket on a 32-bit circle), the
// key-as-V shortcut of JumpBackHash, and a salted second routing level.
#pragma once

#include <cstdint>
#include <vector>

#include "jumphash/splitmix64.hpp"

namespace jumphash::claims_detail {

/// Fig. 1 of Lamping & Veach, "A Fast, Minimal Memory, Consistent Hash
/// Algorithm", unchanged, with its loop iterations added to `*iterations`.
/// Returns the same bucket as jump_hash. Precondition: n >= 1.
inline std::int32_t jump_hash_counting(std::uint64_t key, std::int32_t n,
                                       std::uint64_t* iterations) {
  std::int64_t b = -1, j = 0;
  while (j < n) {
    ++*iterations;
    b = j;
    key = key * 2862933555777941757ULL + 1;
    j = static_cast<std::int64_t>(
        static_cast<double>(b + 1) *
        (static_cast<double>(1LL << 31) / static_cast<double>((key >> 33) + 1)));
  }
  return static_cast<std::int32_t>(b);
}

/// The consistent-hash ring of Karger et al. as the paper measures it:
/// `points_per_bucket` random points per bucket on a circle of 2^32
/// positions, kept as a sorted vector of (position, bucket) pairs of 8 bytes
/// each; a key goes to the first point at or after its position, wrapping
/// around. Point p of bucket b sits at the top 32 bits of SplitMix64's mix of
/// (b * 2^32 + p) plus the golden gamma; a key's position is its top 32 bits
/// (keys here are already random 64-bit values).
class PaperRing {
 public:
  struct Point {
    std::uint32_t position;
    std::int32_t bucket;
  };

  PaperRing(std::int32_t buckets, std::uint32_t points_per_bucket);

  /// Position of point `point` of `bucket`.
  static std::uint32_t point_position(std::int32_t bucket, std::uint32_t point) {
    const std::uint64_t id = (static_cast<std::uint64_t>(bucket) << 32) | point;
    return static_cast<std::uint32_t>(splitmix64_mix(id + kSplitMix64Gamma) >> 32);
  }

  /// The bucket of `key` (binary search).
  std::int32_t bucket(std::uint64_t key) const;

  /// Each bucket's exact share of the circle (its arcs' lengths / 2^32).
  std::vector<double> shares() const;

  const std::vector<Point>& points() const { return points_; }
  std::int32_t buckets() const { return buckets_; }

 private:
  std::int32_t buckets_;
  std::vector<Point> points_;
};

/// JumpBackHash* (Algorithm 6 of Ertl's paper) with the shortcut of its
/// "future work": the key itself is V (V0 = low 32 bits, V1 = high 32 bits)
/// instead of the first SplitMix64 output; the W draws still come from
/// SplitMix64 seeded with the key. Precondition: n >= 1.
std::int32_t jump_back_hash_key_as_v(std::uint64_t key, std::int32_t n);

/// The second routing level's key when it is salted: SplitMix64's mix of
/// key ^ kRoutingSalt, so that ch(salted, 4) is independent of ch(key, 16).
inline constexpr std::uint64_t kRoutingSalt = 0x5A17ED5EC0DD1E7EULL;
inline std::uint64_t salted_key(std::uint64_t key) { return splitmix64_mix(key ^ kRoutingSalt); }

}  // namespace jumphash::claims_detail
