// rendezvous: highest random weight hashing as go-redis Ring runs it
// (github.com/dgryski/go-rendezvous with xxhash64, go-redis's default).
//
// Thaler & Ravishankar, "A Name-Based Mapping Scheme for Rendezvous" (1996):
// every node scores the key and the highest score wins, so removing a node
// moves only its keys and adding one takes keys only for itself. go-rendezvous
// scores node i as mix(xxh64(key) ^ xxh64(node_i)) with
//   mix(x): x ^= x >> 12; x ^= x << 25; x ^= x >> 27; return x * 2685821657736338717
// (mod 2^64); ties keep the lower index. No weights: every node counts once.
#include <cstdint>
#include <memory>
#include <vector>

#include "jumphash/hashes.hpp"
#include "node_set_algorithms.hpp"

namespace jumphash::node_set {
namespace {

constexpr std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  return x * 2685821657736338717ULL;
}

class RendezvousPlacement final : public ListPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues&) {
    auto placement =
        std::unique_ptr<RendezvousPlacement>(new RendezvousPlacement(std::move(nodes)));
    Result<bool> built = placement->rebuild();
    if (!built) return Error{built.error()};
    return std::unique_ptr<Placement>(std::move(placement));
  }

  std::uint32_t locate(std::string_view key) const override {
    const std::uint64_t key_hash = xxh64(key);
    std::uint32_t best = 0;
    std::uint64_t best_score = mix(key_hash ^ node_hashes_[0]);
    for (std::uint32_t i = 1; i < node_hashes_.size(); ++i) {
      const std::uint64_t score = mix(key_hash ^ node_hashes_[i]);
      if (score > best_score) best = i, best_score = score;  // ties keep the lower index
    }
    return best;
  }

  std::size_t state_bytes() const override { return node_hashes_.size() * sizeof(std::uint64_t); }

  std::unique_ptr<Placement> clone() const override {
    return std::unique_ptr<Placement>(new RendezvousPlacement(*this));
  }

 private:
  explicit RendezvousPlacement(NodeList nodes) : ListPlacement(std::move(nodes)) {}
  RendezvousPlacement(const RendezvousPlacement&) = default;

  Result<bool> rebuild() override {
    node_hashes_.clear();
    for (const Node& node : nodes_) node_hashes_.push_back(xxh64(node.name));
    return true;
  }

  std::vector<std::uint64_t> node_hashes_;  // xxh64 of each name, cached as go-rendezvous does
};

}  // namespace

const Algorithm kRendezvous{
    .id = AlgorithmId::rendezvous,
    .kind = AlgorithmKind::node_set,
    .name = "rendezvous",
    .title = "Rendezvous (highest random weight) hashing",
    .paper =
        "Thaler & Ravishankar, A Name-Based Mapping Scheme for Rendezvous (1996); "
        "go-rendezvous with xxhash64, as go-redis Ring uses it",
    .expected_cost = "O(n): one xxh64 of the key, then one mix per node",
    .memory = "8 bytes per node (each name's xxh64)",
    .consistent = true,
    .removes_any_bucket = true,
    .weights = false,
    .build = &RendezvousPlacement::build,
};

}  // namespace jumphash::node_set
