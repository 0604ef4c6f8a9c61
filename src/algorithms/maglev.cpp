// maglev: Envoy's Maglev load balancer (MaglevTable, after Eisenbud et al.,
// "Maglev: A Fast and Reliable Software Network Load Balancer", NSDI 2016,
// pseudocode listing 1, with Envoy's weights).
//
// Table size M (a prime, 65537 by default). Hosts are sorted by name
// (bytewise) so the table does not depend on the list order; each has
//   offset = xxh64(name, 0) % M,  skip = xxh64(name, 1) % (M - 1) + 1,
// its normalised weight w = weight / W (double), `target` = 0 and `next` = 0.
// Fill rounds iteration = 1, 2, ... until all M slots are taken: in each
// round, for each host in sorted order, skip the host while
// `iteration * w < target`, else `target += max_w` and probe slot
// (offset + skip * next) % M, next++ per probe, up to the first empty slot,
// which the host takes. A key goes to table[xxh64(key, 0) % M].
//
// Not minimally disruptive: a host's permutation is fixed, but which slots
// are still free when its turn comes depends on the others, so removing a
// host moves a few keys between survivors too (0.56% of all keys when 1 of
// 100 hosts leaves, about half as many as the leaving host held; see
// tests/envoy_test.cpp); adding one takes keys mostly, not only, for itself.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jumphash/hashes.hpp"
#include "node_set_algorithms.hpp"

namespace jumphash::node_set {
namespace {

constexpr std::int64_t kSmallestTable = 3;
constexpr std::int64_t kLargestTable = 10000019;  // the first prime above 10^7
static_assert(kLargestTable <= static_cast<std::int64_t>(kMaxPlacementPoints));

constexpr bool is_prime(std::int64_t n) {
  if (n < 2) return false;
  for (std::int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) return false;
  }
  return true;
}

/// OptionSpec::check of `table`: primes only, naming the nearest ones.
Result<bool> check_table_is_prime(std::int64_t size) {
  if (is_prime(size)) return true;
  std::int64_t below = size - 1;
  while (below >= kSmallestTable && !is_prime(below)) --below;
  std::int64_t above = size + 1;
  while (above <= kLargestTable && !is_prime(above)) ++above;
  std::string nearest;
  if (below >= kSmallestTable) nearest = std::to_string(below);
  if (above <= kLargestTable) nearest += (nearest.empty() ? "" : " or ") + std::to_string(above);
  return fail("must be prime (nearest primes: ", nearest, ")");
}

constexpr std::array<OptionSpec, 1> kOptions{{
    {.name = "table",
     .default_value = "65537",
     .description = "lookup table size M, a prime in 3..10000019 and at least the node count "
                    "(Envoy's table_size)",
     .min = kSmallestTable,
     .max = kLargestTable,
     .check = &check_table_is_prime},
}};

/// One host while the table fills (Envoy's TableBuildEntry).
struct Filler {
  std::uint32_t node;  ///< index into nodes()
  std::uint64_t offset;
  std::uint64_t skip;
  double weight;  ///< weight / total weight
  double target = 0.0;
  std::uint64_t next = 0;
};

class MaglevPlacement final : public ListPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues& options) {
    auto placement = std::unique_ptr<MaglevPlacement>(new MaglevPlacement(
        std::move(nodes), static_cast<std::uint64_t>(options.integer("table"))));
    Result<bool> built = placement->rebuild();
    if (!built) return Error{built.error()};
    return std::unique_ptr<Placement>(std::move(placement));
  }

  std::uint32_t locate(std::string_view key) const override {
    return table_[static_cast<std::size_t>(xxh64(key, 0) % table_.size())];
  }

  std::size_t state_bytes() const override { return table_.size() * sizeof(std::uint32_t); }

  std::unique_ptr<Placement> clone() const override {
    return std::unique_ptr<Placement>(new MaglevPlacement(*this));
  }

 private:
  MaglevPlacement(NodeList nodes, std::uint64_t table_size)
      : ListPlacement(std::move(nodes)), table_size_(table_size) {}
  MaglevPlacement(const MaglevPlacement&) = default;

  /// The first round >= `earliest` in which `filler` may take a slot: the
  /// smallest integer r with double(r) * weight >= target, as Envoy's
  /// `iteration * entry.weight_ < entry.target_weight_` test decides it.
  static std::uint64_t first_eligible_round(const Filler& filler, std::uint64_t earliest) {
    const auto qualifies = [&](std::uint64_t round) {
      return static_cast<double>(round) * filler.weight >= filler.target;
    };
    auto round =
        std::max(earliest, static_cast<std::uint64_t>(std::ceil(filler.target / filler.weight)));
    while (round > earliest && qualifies(round - 1)) --round;
    while (!qualifies(round)) ++round;
    return round;
  }

  Result<bool> rebuild() override {
    if (nodes_.size() > table_size_) {
      return fail("maglev needs a table at least as large as the node count: table=",
                  std::to_string(table_size_), " < ", std::to_string(nodes_.size()),
                  " nodes (choose a larger prime table)");
    }
    const auto total = static_cast<double>(total_weight(nodes_));
    std::vector<std::uint32_t> by_name(nodes_.size());
    std::iota(by_name.begin(), by_name.end(), std::uint32_t{0});
    std::sort(by_name.begin(), by_name.end(),
              [&](std::uint32_t a, std::uint32_t b) { return nodes_[a].name < nodes_[b].name; });
    std::vector<Filler> fillers;
    fillers.reserve(nodes_.size());
    double max_weight = 0.0;
    for (std::uint32_t node : by_name) {
      const std::string& name = nodes_[node].name;
      const double weight = static_cast<double>(nodes_[node].weight) / total;
      fillers.push_back({.node = node,
                         .offset = xxh64(name, 0) % table_size_,
                         .skip = xxh64(name, 1) % (table_size_ - 1) + 1,
                         .weight = weight});
      max_weight = std::max(max_weight, weight);
    }

    // Envoy visits every host in every round and skips the ineligible ones;
    // visiting them in (round, sorted position) order through a heap takes
    // the same turns in the same order without the skipped visits, which
    // would cost rounds x hosts when one weight dwarfs the others.
    using Turn = std::pair<std::uint64_t, std::size_t>;  // (round, position in fillers)
    std::priority_queue<Turn, std::vector<Turn>, std::greater<>> turns;
    for (std::size_t position = 0; position < fillers.size(); ++position) turns.push({1, position});

    constexpr std::uint32_t kEmpty = ~std::uint32_t{0};
    std::vector<std::uint32_t> table(static_cast<std::size_t>(table_size_), kEmpty);
    for (std::uint64_t filled = 0; filled < table_size_; ++filled) {
      const auto [round, position] = turns.top();
      turns.pop();
      Filler& filler = fillers[position];
      filler.target += max_weight;
      std::size_t slot = 0;
      do {
        slot = static_cast<std::size_t>((filler.offset + filler.skip * filler.next) % table_size_);
        ++filler.next;
      } while (table[slot] != kEmpty);
      table[slot] = filler.node;
      turns.push({first_eligible_round(filler, round + 1), position});
    }
    table_ = std::move(table);
    return true;
  }

  std::uint64_t table_size_;
  std::vector<std::uint32_t> table_;  // slot -> index into nodes()
};

}  // namespace

const Algorithm kMaglev{
    .id = AlgorithmId::maglev,
    .kind = AlgorithmKind::node_set,
    .name = "maglev",
    .title = "Maglev hashing (Envoy)",
    .paper =
        "Eisenbud et al., Maglev: A Fast and Reliable Software Network Load Balancer "
        "(NSDI 2016); Envoy proxy's Maglev load balancer (MaglevTable) with its weights",
    .expected_cost =
        "O(1): one xxh64 of the key and one table read. Not minimally disruptive: "
        "a node change also moves a few keys between the other nodes (0.56% of all "
        "keys when 1 of 100 nodes leaves, besides the 1% that node held)",
    .memory = "4 bytes per table slot: table=65537 slots by default, whatever the node count",
    .consistent = true,
    .removes_any_bucket = false,
    .weights = true,
    .build = &MaglevPlacement::build,
    .options = kOptions,
};

}  // namespace jumphash::node_set
