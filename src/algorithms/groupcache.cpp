// groupcache: github.com/golang/groupcache/consistenthash (Map.Add, Map.Get),
// the plain Karger ring with a fixed number of points per node.
//
// For each node in list order and each i in 0..replicas-1 the ring gets the
// point crc32(decimal(i) || name) (zlib CRC-32) owned by that node; the
// owner map is written in that order, so of equal points the later node owns
// it. A key goes to the first point >= crc32(key), wrapping to the first
// point. Default replicas: 50, what groupcache's HTTPPool uses. No weights:
// every node gets `replicas` points.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/hashes.hpp"
#include "node_set_algorithms.hpp"
#include "ring.hpp"

namespace jumphash::node_set {
namespace {

constexpr std::array<OptionSpec, 1> kOptions{{
    {.name = "replicas",
     .default_value = "50",
     .description = "ring points per node, 1..100000 (groupcache's HTTPPool uses 50)",
     .min = 1,
     .max = 100000},
}};

class GroupcachePlacement final : public ListPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues& options) {
    auto placement = std::unique_ptr<GroupcachePlacement>(new GroupcachePlacement(
        std::move(nodes), static_cast<std::uint32_t>(options.integer("replicas"))));
    Result<bool> built = placement->rebuild();
    if (!built) return Error{built.error()};
    return std::unique_ptr<Placement>(std::move(placement));
  }

  std::uint32_t locate(std::string_view key) const override {
    const std::uint32_t key_hash = crc32(key);
    return ring_owner(ring_, key_hash);
  }

  std::size_t state_bytes() const override { return ring_.size() * sizeof(RingPoint); }

  std::unique_ptr<Placement> clone() const override {
    return std::unique_ptr<Placement>(new GroupcachePlacement(*this));
  }

 private:
  GroupcachePlacement(NodeList nodes, std::uint32_t replicas)
      : ListPlacement(std::move(nodes)), replicas_(replicas) {}
  GroupcachePlacement(const GroupcachePlacement&) = default;

  Result<bool> rebuild() override {
    const std::uint64_t points = std::uint64_t{replicas_} * nodes_.size();
    if (points > kMaxPlacementPoints) {
      return fail("groupcache would place replicas x nodes = ", std::to_string(replicas_), " x ",
                  std::to_string(nodes_.size()), " = ", std::to_string(points),
                  " points, more than ", std::to_string(kMaxPlacementPoints),
                  ": lower replicas or the node count");
    }
    std::vector<RingPoint> ring;
    ring.reserve(static_cast<std::size_t>(points));
    for (std::uint32_t node = 0; node < nodes_.size(); ++node) {
      for (std::uint32_t i = 0; i < replicas_; ++i) {
        ring.push_back({crc32(std::to_string(i) + nodes_[node].name), node});
      }
    }
    // Of equal hashes the last written owner wins (Go's map assignment):
    // sort by (hash, node) and keep the last of each run.
    std::sort(ring.begin(), ring.end(), [](const RingPoint& a, const RingPoint& b) {
      return a.hash != b.hash ? a.hash < b.hash : a.node < b.node;
    });
    std::vector<RingPoint> distinct;
    distinct.reserve(ring.size());
    for (std::size_t i = 0; i < ring.size(); ++i) {
      if (i + 1 == ring.size() || ring[i + 1].hash != ring[i].hash) distinct.push_back(ring[i]);
    }
    ring_ = std::move(distinct);
    return true;
  }

  std::uint32_t replicas_;       // points per node, 1..100000
  std::vector<RingPoint> ring_;  // sorted by hash, hashes distinct
};

}  // namespace

const Algorithm kGroupcache{
    .id = AlgorithmId::groupcache,
    .kind = AlgorithmKind::node_set,
    .name = "groupcache",
    .title = "groupcache consistent hash (Karger ring)",
    .paper =
        "Karger et al., Consistent Hashing and Random Trees (STOC 1997); "
        "github.com/golang/groupcache/consistenthash with CRC-32",
    .expected_cost = "O(log(replicas x n)): one CRC-32 of the key and a binary search",
    .memory = "8 bytes per ring point: replicas points per node (a hash and a node index)",
    .consistent = true,
    .removes_any_bucket = true,
    .weights = false,
    .build = &GroupcachePlacement::build,
    .options = kOptions,
};

}  // namespace jumphash::node_set
