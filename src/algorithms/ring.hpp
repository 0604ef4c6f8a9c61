// The 32-bit hash ring that ketama, libketama, nginx and groupcache share:
// points sorted by hash, each owned by a node, and the lookup they all make
// (the first point at or after the key's hash, wrapping to the first point).
// How each one builds and orders its points, ties included, stays in its
// own file.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace jumphash::node_set {

/// One point of a ring: its hash and the index in nodes() of its owner.
struct RingPoint {
  std::uint32_t hash;
  std::uint32_t node;
};

/// The owner of the first point of `ring` (sorted by hash, non-empty) whose
/// hash is at least `hash`, or of the first point when there is none.
inline std::uint32_t ring_owner(const std::vector<RingPoint>& ring, std::uint32_t hash) {
  auto first_at_or_after = std::lower_bound(
      ring.begin(), ring.end(), hash,
      [](const RingPoint& point, std::uint32_t value) { return point.hash < value; });
  if (first_at_or_after == ring.end()) first_at_or_after = ring.begin();
  return first_at_or_after->node;
}

}  // namespace jumphash::node_set
