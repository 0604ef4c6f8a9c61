// libketama: the original consistent ring of last.fm's libketama (ketama.c,
// ketama_create_continuum and ketama_get_server), the library that named
// the scheme.
//
// Servers are "ip:port" strings with a "memory" weight (the node weight w_i,
// total W, n servers). Server i contributes
//   pct = (float)w_i / (float)W
//   count = floorf(pct * 40.0 * (float)n)   (the product in double, then float)
// MD5 digests of "<name>-k" (k = 0..count-1; the whole node name, port
// included, even 11211, unlike libmemcached), each giving 4 points: bytes
// 4a..4a+3 read little-endian (a = 0..3). Points are sorted by value, equal
// values keeping server order. A key hashes to the low 4 bytes
// (little-endian) of md5(key) and goes to the first point >= it, wrapping to
// the first point.
//
// Removing a server can also move keys between the survivors: each count
// depends on n and on the server's share, so unequal weights, or an n where
// the float rounding changes (61 servers get 39 digests each, 62 get 40),
// give the survivors new points.
#include <algorithm>
#include <array>
#include <cmath>
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

/// MD5 digests per server at equal weights (160 points).
constexpr double kDigestsPerServer = 40.0;
constexpr int kPointsPerDigest = 4;

class LibketamaPlacement final : public ListPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues&) {
    auto placement = std::unique_ptr<LibketamaPlacement>(new LibketamaPlacement(std::move(nodes)));
    Result<bool> built = placement->rebuild();
    if (!built) return Error{built.error()};
    return std::unique_ptr<Placement>(std::move(placement));
  }

  std::uint32_t locate(std::string_view key) const override {
    const std::uint32_t hash = md5_word_le(md5(key), 0);
    return ring_owner(points_, hash);
  }

  std::size_t state_bytes() const override { return points_.size() * sizeof(RingPoint); }

  std::unique_ptr<Placement> clone() const override {
    return std::unique_ptr<Placement>(new LibketamaPlacement(*this));
  }

 private:
  explicit LibketamaPlacement(NodeList nodes) : ListPlacement(std::move(nodes)) {}
  LibketamaPlacement(const LibketamaPlacement&) = default;

  Result<bool> rebuild() override {
    const auto total = static_cast<float>(total_weight(nodes_));
    const auto servers = static_cast<float>(nodes_.size());
    std::vector<std::uint32_t> digests(nodes_.size());
    std::uint64_t point_count = 0;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const float pct = static_cast<float>(nodes_[i].weight) / total;
      digests[i] = static_cast<std::uint32_t>(std::floor(static_cast<float>(
          static_cast<double>(pct) * kDigestsPerServer * static_cast<double>(servers))));
      point_count += std::uint64_t{digests[i]} * kPointsPerDigest;
    }
    if (point_count > kMaxPlacementPoints) {
      return fail("libketama would place ", std::to_string(point_count), " points, more than ",
                  std::to_string(kMaxPlacementPoints), ": use fewer servers");
    }

    std::vector<RingPoint> points;
    points.reserve(static_cast<std::size_t>(point_count));
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const auto server = static_cast<std::uint32_t>(i);
      for (std::uint32_t k = 0; k < digests[i]; ++k) {
        const std::array<std::uint8_t, 16> digest = md5(nodes_[i].name + "-" + std::to_string(k));
        for (int a = 0; a < kPointsPerDigest; ++a)
          points.push_back({md5_word_le(digest, a), server});
      }
    }
    // Stable: equal values keep server order (points were made in that order).
    std::stable_sort(points.begin(), points.end(),
                     [](const RingPoint& a, const RingPoint& b) { return a.hash < b.hash; });
    points_ = std::move(points);
    return true;
  }

  std::vector<RingPoint> points_;  // the continuum, sorted by hash (ties keep server order)
};

}  // namespace

const Algorithm kLibketama{
    .id = AlgorithmId::libketama,
    .kind = AlgorithmKind::node_set,
    .name = "libketama",
    .title = "Ketama (last.fm libketama)",
    .paper =
        "last.fm libketama (ketama.c, Richard Jones 2007): MD5 ring, 160 points per unit share",
    .expected_cost = "O(log points): one MD5 of the key, then a binary search",
    .memory = "8 bytes per ring point: 160 points per server at equal weights",
    .consistent = true,
    .removes_any_bucket = false,  // survivors' point counts change with n (see above)
    .weights = true,
    .build = &LibketamaPlacement::build,
};

}  // namespace jumphash::node_set
