// envoy-ring: Envoy's ring_hash load balancer (RingHashLoadBalancer, xxHash,
// envoy/source/extensions/load_balancing_policies/ring_hash/ring_hash_lb.cc).
//
// Weights are normalised to w/W in double; with min_w the smallest of them,
//   scale = min(ceil(min_w * min_ring) / min_w, max_ring)
// (Envoy's minimum_ring_size 1024 and maximum_ring_size 8388608 by default),
// so the lightest host gets a whole number of points and the ring holds about
// `scale` points in all. Walking the hosts in list order with doubles
// `target += scale * w`, each host pushes xxh64(name + "_" + decimal(i), 0)
// for i = 0, 1, ... while `current < target` (`current += 1` per point). The
// ring is sorted by hash; a key goes to the first point >= xxh64(key, 0),
// wrapping to the first point (Envoy's port of libketama's binary search,
// which is exactly this lower bound).
//
// Not minimally disruptive: the points per host depend on the whole list
// (ceil(1024 / n) at equal weights: 103 each for 10 hosts, 114 for 9), and
// the double running sum can hand one host an extra point (99 equal hosts:
// 1090 points, one host with 12), so removing a host also moves keys between
// survivors: 7.8% of all keys for 10 -> 9 hosts, 0.24% for 100 -> 99 (see
// tests/envoy_test.cpp).
//
// Equal hashes: Envoy's std::sort compares the hash alone, so which host owns
// a duplicated 64-bit value is unspecified there; here the earlier host in
// the list wins (sort by hash, then list index). With at most 2^23 random
// 64-bit points a tie has probability below 2^-18 per ring, and the vectors
// hold none.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/hashes.hpp"
#include "node_set_algorithms.hpp"

namespace jumphash::node_set {
namespace {

/// Envoy's upper bound on both ring sizes (the proto's `lte: 8388608`);
/// keeps every ring well under kMaxPlacementPoints.
constexpr std::int64_t kEnvoyRingSizeLimit = 8388608;
static_assert(static_cast<std::uint64_t>(kEnvoyRingSizeLimit) + 1 < kMaxPlacementPoints);

constexpr std::array<OptionSpec, 2> kOptions{{
    {.name = "min_ring",
     .default_value = "1024",
     .description = "Envoy's minimum_ring_size: points the ring holds at least, 1..8388608",
     .min = 1,
     .max = kEnvoyRingSizeLimit},
    {.name = "max_ring",
     .default_value = "8388608",
     .description = "Envoy's maximum_ring_size: points the ring holds at most, 1..8388608",
     .min = 1,
     .max = kEnvoyRingSizeLimit},
}};

class EnvoyRingPlacement final : public ListPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues& options) {
    const std::int64_t min_ring = options.integer("min_ring");
    const std::int64_t max_ring = options.integer("max_ring");
    if (min_ring > max_ring) {
      // Envoy rejects the cluster the same way.
      return fail("envoy-ring: min_ring (", std::to_string(min_ring), ") > max_ring (",
                  std::to_string(max_ring), ")");
    }
    auto placement = std::unique_ptr<EnvoyRingPlacement>(new EnvoyRingPlacement(
        std::move(nodes), static_cast<double>(min_ring), static_cast<double>(max_ring)));
    Result<bool> built = placement->rebuild();
    if (!built) return Error{built.error()};
    return std::unique_ptr<Placement>(std::move(placement));
  }

  std::uint32_t locate(std::string_view key) const override {
    const std::uint64_t key_hash = xxh64(key, 0);
    auto first_at_or_after = std::lower_bound(hashes_.begin(), hashes_.end(), key_hash);
    if (first_at_or_after == hashes_.end()) first_at_or_after = hashes_.begin();
    return owners_[static_cast<std::size_t>(first_at_or_after - hashes_.begin())];
  }

  std::size_t state_bytes() const override {
    return hashes_.size() * (sizeof(std::uint64_t) + sizeof(std::uint32_t));
  }

  std::unique_ptr<Placement> clone() const override {
    return std::unique_ptr<Placement>(new EnvoyRingPlacement(*this));
  }

 private:
  EnvoyRingPlacement(NodeList nodes, double min_ring, double max_ring)
      : ListPlacement(std::move(nodes)), min_ring_(min_ring), max_ring_(max_ring) {}
  EnvoyRingPlacement(const EnvoyRingPlacement&) = default;

  struct Point {
    std::uint64_t hash;
    std::uint32_t owner;  ///< index into nodes()
  };

  Result<bool> rebuild() override {
    // normalizeHostWeights: weight * 1.0 / sum, in double.
    const auto total = static_cast<double>(total_weight(nodes_));
    std::vector<double> normalized(nodes_.size());
    double min_normalized = 1.0;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      normalized[i] = static_cast<double>(nodes_[i].weight) / total;
      min_normalized = std::min(min_normalized, normalized[i]);
    }
    const double scale =
        std::min(std::ceil(min_normalized * min_ring_) / min_normalized, max_ring_);

    // At most ceil(scale) + 1 <= 8388609 points (rounding of the running sum).
    std::vector<Point> ring;
    ring.reserve(static_cast<std::size_t>(std::ceil(scale)));
    double current = 0.0;
    double target = 0.0;
    std::string point_name;  // name + "_" + decimal(i), rewritten in place
    for (std::size_t host = 0; host < nodes_.size(); ++host) {
      point_name = nodes_[host].name + "_";
      const std::size_t prefix_bytes = point_name.size();
      target += scale * normalized[host];
      for (std::uint64_t i = 0; current < target; ++i, current += 1.0) {
        std::array<char, 20> digits{};
        const auto [end, error] = std::to_chars(digits.data(), digits.data() + digits.size(), i);
        point_name.replace(prefix_bytes, std::string::npos, digits.data(),
                           static_cast<std::size_t>(end - digits.data()));
        ring.push_back({xxh64(point_name, 0), static_cast<std::uint32_t>(host)});
      }
    }
    std::sort(ring.begin(), ring.end(), [](const Point& a, const Point& b) {
      return a.hash != b.hash ? a.hash < b.hash : a.owner < b.owner;
    });

    std::vector<std::uint64_t> hashes(ring.size());
    std::vector<std::uint32_t> owners(ring.size());
    for (std::size_t i = 0; i < ring.size(); ++i) {
      hashes[i] = ring[i].hash;
      owners[i] = ring[i].owner;
    }
    hashes_ = std::move(hashes);
    owners_ = std::move(owners);
    return true;
  }

  double min_ring_;
  double max_ring_;
  std::vector<std::uint64_t> hashes_;  // the ring's points, sorted
  std::vector<std::uint32_t> owners_;  // owners_[i]: index into nodes() of hashes_[i]'s host
};

}  // namespace

const Algorithm kEnvoyRing{
    .id = AlgorithmId::envoy_ring,
    .kind = AlgorithmKind::node_set,
    .name = "envoy-ring",
    .title = "Envoy ring hash",
    .paper =
        "Envoy proxy, ring_hash load balancer (RingHashLoadBalancer) with xxHash and the "
        "default ring sizes; after Karger et al. (1997) and last.fm's libketama lookup",
    .expected_cost =
        "O(log points): one xxh64 of the key, then a binary search over the ring. "
        "Not minimally disruptive: the points per host depend on the node count, "
        "so a node change also moves keys between the other nodes (7.8% of all "
        "keys when 1 of 10 nodes leaves, 0.24% for 1 of 100)",
    .memory =
        "12 bytes per ring point: ceil(s x min_ring) / s points, s the lightest node's "
        "share of the total weight (1030 for 10 equal nodes, 1100 for 100), at most "
        "max_ring",
    .consistent = true,
    .removes_any_bucket = false,
    .weights = true,
    .build = &EnvoyRingPlacement::build,
    .options = kOptions,
};

}  // namespace jumphash::node_set
