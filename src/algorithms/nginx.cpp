// nginx: the ring of `hash $key consistent;` (ngx_http_upstream_hash_module,
// ngx_http_upstream_init_chash and ngx_http_upstream_find_chash_point, nginx
// 1.22), compatible with Cache::Memcached::Fast.
//
// Each server string is split at its last ':' when only digits follow it
// (host, port; otherwise the whole string is the host and the port is empty);
// a string starting with "unix:" (any case) is the host after that prefix,
// with an empty port.
// With base = host || "\0" || port, the server contributes 160 * weight
// points: prev = 0, then repeatedly h = crc32(base || prev as 4 little-endian
// bytes), emit h, prev = h (zlib CRC-32). The points are sorted by hash and of
// equal hashes only the first (in server order, then emission order) stays.
// A key goes to the first point >= crc32(key), wrapping to the first point.
// (nginx itself falls back to round robin for an empty key or a single
// server; this ring is what it consults otherwise.)
#include <algorithm>
#include <cctype>
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

/// Points per unit of weight (nginx's constant 160).
constexpr std::uint64_t kPointsPerWeight = 160;

/// Whether `server` starts with "unix:" in any case (nginx's ngx_strncasecmp).
bool is_unix_socket(std::string_view server) {
  constexpr std::string_view kPrefix = "unix:";
  if (server.size() < kPrefix.size()) return false;
  for (std::size_t i = 0; i < kPrefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(server[i])) != kPrefix[i]) return false;
  }
  return true;
}

/// host || "\0" || port of one server string: the bytes every point of the
/// server hashes before the previous point.
std::string point_base(std::string_view server) {
  std::string base;
  if (is_unix_socket(server)) {
    base.append(server.substr(5));
    base.push_back('\0');
    return base;
  }
  std::size_t digits = 0;
  while (digits < server.size() && server[server.size() - 1 - digits] >= '0' &&
         server[server.size() - 1 - digits] <= '9') {
    ++digits;
  }
  if (digits < server.size() && server[server.size() - 1 - digits] == ':') {
    const std::size_t colon = server.size() - 1 - digits;
    base.append(server.substr(0, colon));
    base.push_back('\0');
    base.append(server.substr(colon + 1));
  } else {
    base.append(server);
    base.push_back('\0');
  }
  return base;
}

class NginxPlacement final : public ListPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues&) {
    auto placement = std::unique_ptr<NginxPlacement>(new NginxPlacement(std::move(nodes)));
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
    return std::unique_ptr<Placement>(new NginxPlacement(*this));
  }

 private:
  explicit NginxPlacement(NodeList nodes) : ListPlacement(std::move(nodes)) {}
  NginxPlacement(const NginxPlacement&) = default;

  Result<bool> rebuild() override {
    const std::uint64_t points = kPointsPerWeight * total_weight(nodes_);
    if (points > kMaxPlacementPoints) {
      return fail("nginx would place 160 x total weight = ", std::to_string(points),
                  " points, more than ", std::to_string(kMaxPlacementPoints),
                  ": lower the weights");
    }
    std::vector<RingPoint> ring;
    ring.reserve(static_cast<std::size_t>(points));
    for (std::uint32_t node = 0; node < nodes_.size(); ++node) {
      const std::string base = point_base(nodes_[node].name);
      const std::uint32_t base_state = crc32(base);
      std::uint32_t previous = 0;
      for (std::uint64_t j = 0; j < kPointsPerWeight * nodes_[node].weight; ++j) {
        const char previous_le[4] = {
            static_cast<char>(previous & 0xFF), static_cast<char>((previous >> 8) & 0xFF),
            static_cast<char>((previous >> 16) & 0xFF), static_cast<char>((previous >> 24) & 0xFF)};
        previous = crc32(std::string_view(previous_le, 4), base_state);
        ring.push_back({previous, node});
      }
    }
    // Sorting by (hash, node) keeps equal hashes in emission order, as a
    // stable sort would; nginx then keeps the first of each run.
    std::sort(ring.begin(), ring.end(), [](const RingPoint& a, const RingPoint& b) {
      return a.hash != b.hash ? a.hash < b.hash : a.node < b.node;
    });
    ring.erase(std::unique(ring.begin(), ring.end(),
                           [](const RingPoint& a, const RingPoint& b) { return a.hash == b.hash; }),
               ring.end());
    ring.shrink_to_fit();
    ring_ = std::move(ring);
    return true;
  }

  std::vector<RingPoint> ring_;  // sorted by hash, hashes distinct
};

}  // namespace

const Algorithm kNginx{
    .id = AlgorithmId::nginx,
    .kind = AlgorithmKind::node_set,
    .name = "nginx",
    .title = "nginx consistent hash (hash $key consistent)",
    .paper =
        "nginx 1.22 ngx_http_upstream_hash_module, `hash $key consistent;` "
        "(the Cache::Memcached::Fast ring: 160 CRC-32 points per unit of weight)",
    .expected_cost = "O(log(160 x total weight)): one CRC-32 of the key and a binary search",
    .memory = "8 bytes per ring point: 160 x weight points per server (a hash and a server index)",
    .consistent = true,
    .removes_any_bucket = true,
    .weights = true,
    .build = &NginxPlacement::build,
};

}  // namespace jumphash::node_set
