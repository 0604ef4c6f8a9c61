// ketama: the consistent ring of libmemcached 1.1.4 (libmemcached/hosts.cc,
// update_continuum; libmemcached/hash.cc, dispatch_host), as php-memcached and
// most memcached clients built on libmemcached run it.
//
// Mode `weighted` is MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED (MD5, libketama's
// layout). Server i with weight w_i of total W among n servers contributes,
// in float32 as the C code computes it,
//   pct = (float)w_i / (float)W
//   count = floor((float)(pct * 160 / 4 * (float)n + 0.0000000001))
// MD5 digests of the point names "<name>-k" (k = 0..count-1), each giving 4
// points: bytes 4a..4a+3 read little-endian (a = 0..3). With equal weights
// the float rounding gives 39 digests (156 points, not 160) for n = 25, 47,
// 50, ...: that is the real behaviour and is kept. A key hashes to the low 4
// bytes (little-endian) of md5(key).
//
// Mode `plain` is MEMCACHED_BEHAVIOR_KETAMA: 100 points per server, each the
// Jenkins one-at-a-time hash of "<name>-k" (k = 0..99), and keys hashed with
// one-at-a-time too (sign-extending bytes >= 0x80, as x86's char does). As
// in libmemcached, adding a server of weight > 1 switches the points (not
// the key hash) to the weighted layout above.
//
// The point name of a server is "host-k" when its port is 11211 (the
// default, also for a name without a port) and "host:port-k" otherwise: a
// node name "host:port" splits at its last ':' when a decimal port
// 1..65535 follows (port 0 means the default 11211, as in
// memcached_server_add); any other name is all host.
//
// Points are sorted by (value, server index); a key goes to the first point
// >= its hash, wrapping to the first point. With one server every key goes
// to it (libmemcached skips the ring then).
//
// Removing a server can also move keys between the survivors: in the
// weighted layout every server's count depends on n and on its share, so
// unequal weights, or an n where the float rounding changes (100 -> 99
// servers: 156 -> 160 points each), give the survivors new points.
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

/// MEMCACHED_DEFAULT_PORT: the port a point name leaves out.
constexpr std::uint32_t kDefaultPort = 11211;
/// MEMCACHED_POINTS_PER_SERVER: points per server in plain mode.
constexpr std::uint32_t kPlainPointsPerServer = 100;
/// MEMCACHED_POINTS_PER_SERVER_KETAMA: points per server (at equal weights)
/// in the weighted layout, 4 per MD5 digest.
constexpr std::uint32_t kWeightedPointsPerServer = 160;
constexpr std::uint32_t kPointsPerDigest = 4;

const std::array<std::string_view, 2> kModeChoices{"weighted", "plain"};
const std::array<OptionSpec, 1> kKetamaOptions{{
    {.name = "mode",
     .default_value = "weighted",
     .description =
         "weighted: MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED (MD5, 160 points per unit share); "
         "plain: MEMCACHED_BEHAVIOR_KETAMA (one-at-a-time, 100 points per server)",
     .choices = kModeChoices},
}};

/// "host-" or "host:port-": the text before k in the point names of a server
/// called `name`.
std::string point_name_prefix(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < name.size() && colon + 6 >= name.size()) {
    const std::string_view digits = name.substr(colon + 1);
    std::uint32_t port = 0;
    bool all_digits = true;
    for (const char c : digits) {
      if (c < '0' || c > '9') {
        all_digits = false;
        break;
      }
      port = port * 10 + static_cast<std::uint32_t>(c - '0');
    }
    if (all_digits && port <= 65535) {
      const std::string_view host = name.substr(0, colon);
      if (port == 0 || port == kDefaultPort) return std::string(host) + "-";
      return std::string(host) + ":" + std::to_string(port) + "-";
    }
  }
  return std::string(name) + "-";
}

class KetamaPlacement final : public ListPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues& options) {
    const bool weighted_mode = options.text("mode") == "weighted";
    auto placement =
        std::unique_ptr<KetamaPlacement>(new KetamaPlacement(std::move(nodes), weighted_mode));
    Result<bool> built = placement->rebuild();
    if (!built) return Error{built.error()};
    return std::unique_ptr<Placement>(std::move(placement));
  }

  std::uint32_t locate(std::string_view key) const override {
    if (nodes_.size() == 1) return 0;
    const std::uint32_t hash = weighted_mode_ ? md5_word_le(md5(key), 0) : one_at_a_time(key);
    return ring_owner(points_, hash);
  }

  std::size_t state_bytes() const override { return points_.size() * sizeof(RingPoint); }

  std::unique_ptr<Placement> clone() const override {
    return std::unique_ptr<Placement>(new KetamaPlacement(*this));
  }

 private:
  KetamaPlacement(NodeList nodes, bool weighted_mode)
      : ListPlacement(std::move(nodes)), weighted_mode_(weighted_mode) {}
  KetamaPlacement(const KetamaPlacement&) = default;

  /// MD5 digests of server `index` in the weighted layout, float32 exactly
  /// as update_continuum computes them.
  std::uint32_t weighted_digest_count(std::size_t index, std::uint64_t total) const {
    const float pct = static_cast<float>(nodes_[index].weight) / static_cast<float>(total);
    const float per_server = pct * static_cast<float>(kWeightedPointsPerServer) /
                             static_cast<float>(kPointsPerDigest) *
                             static_cast<float>(nodes_.size());
    // The C code adds the double literal 0.0000000001 and narrows back to
    // float before floor (which leaves per_server unchanged unless it is 0).
    return static_cast<std::uint32_t>(
        std::floor(static_cast<float>(static_cast<double>(per_server) + 0.0000000001)));
  }

  Result<bool> rebuild() override {
    const bool weighted_layout =
        weighted_mode_ ||
        std::any_of(nodes_.begin(), nodes_.end(), [](const Node& node) { return node.weight > 1; });
    const std::uint64_t total = total_weight(nodes_);
    std::vector<std::uint32_t> digests(nodes_.size());
    std::uint64_t point_count = 0;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      digests[i] = weighted_layout ? weighted_digest_count(i, total) : kPlainPointsPerServer;
      point_count += std::uint64_t{digests[i]} * (weighted_layout ? kPointsPerDigest : 1);
    }
    if (point_count > kMaxPlacementPoints) {
      return fail("ketama would place ", std::to_string(point_count), " points, more than ",
                  std::to_string(kMaxPlacementPoints), ": use fewer servers");
    }

    std::vector<RingPoint> points;
    points.reserve(static_cast<std::size_t>(point_count));
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const auto server = static_cast<std::uint32_t>(i);
      const std::string prefix = point_name_prefix(nodes_[i].name);
      for (std::uint32_t k = 0; k < digests[i]; ++k) {
        const std::string point_name = prefix + std::to_string(k);
        if (weighted_layout) {
          const std::array<std::uint8_t, 16> digest = md5(point_name);
          for (int a = 0; a < static_cast<int>(kPointsPerDigest); ++a)
            points.push_back({md5_word_le(digest, a), server});
        } else {
          points.push_back({one_at_a_time(point_name), server});
        }
      }
    }
    std::sort(points.begin(), points.end(), [](const RingPoint& a, const RingPoint& b) {
      return a.hash != b.hash ? a.hash < b.hash : a.node < b.node;
    });
    points_ = std::move(points);
    return true;
  }

  bool weighted_mode_;
  std::vector<RingPoint> points_;  // the continuum, sorted by (hash, node)
};

}  // namespace

const Algorithm kKetama{
    .id = AlgorithmId::ketama,
    .kind = AlgorithmKind::node_set,
    .name = "ketama",
    .title = "Ketama (libmemcached)",
    .paper =
        "libmemcached 1.1.4, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED (mode=weighted, MD5 as "
        "last.fm's libketama) or MEMCACHED_BEHAVIOR_KETAMA (mode=plain, one-at-a-time)",
    .expected_cost = "O(log points): one MD5 (or one-at-a-time) of the key, then a binary search",
    .memory =
        "8 bytes per ring point: 160 points per server at equal weights (weighted), "
        "100 per server (plain)",
    .consistent = true,
    .removes_any_bucket = false,  // survivors' point counts change with n (see above)
    .weights = true,
    .build = &KetamaPlacement::build,
    .options = kKetamaOptions,
};

}  // namespace jumphash::node_set
