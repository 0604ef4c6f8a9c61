// Envoy's ring hash and Maglev load balancers against vectors of Envoy's
// arithmetic (tests/vectors/systems/envoy_ring_hash.tsv, envoy_maglev.tsv):
// every row, the key hash column, edits, options and their errors, and how
// far each is from minimal disruption when a node leaves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/hashes.hpp"
#include "jumphash/nodes.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

using testing::read_tsv;
using testing::system_config;

Result<std::unique_ptr<Placement>> build(std::string_view algorithm_name, const NodeList& nodes,
                                         std::vector<std::string_view> options = {}) {
  const Algorithm& algorithm = **find_algorithm(algorithm_name);
  Result<OptionValues> values = OptionValues::parse(algorithm.options, options, algorithm.name);
  if (!values) return Error{values.error()};
  return algorithm.build(nodes, *values);
}

std::string node_of(const Placement& placement, std::string_view key) {
  return placement.nodes()[placement.locate(key)].name;
}

/// Checks every row of a vector file (config, key, hash_xxh64, host_index,
/// host) against `algorithm_name` with default options.
void expect_every_row_matches(std::string_view algorithm_name, const std::string& file) {
  const std::vector<testing::TsvRow> rows = read_tsv("vectors/systems/" + file);
  ASSERT_EQ(rows.size(), 1640U) << file;
  std::map<std::string, std::unique_ptr<Placement>> placements;
  std::size_t mismatches = 0;
  for (const testing::TsvRow& row : rows) {
    std::unique_ptr<Placement>& placement = placements[row.at("config")];
    if (!placement) {
      Result<std::unique_ptr<Placement>> built =
          build(algorithm_name, system_config(row.at("config")));
      ASSERT_TRUE(built) << built.error();
      placement = std::move(built).value();
    }
    const std::string& key = row.at("key");
    ASSERT_EQ(std::to_string(xxh64(key, 0)), row.at("hash_xxh64")) << key;
    const std::uint32_t index = placement->locate(key);
    const std::string got = std::to_string(index) + " " + placement->nodes()[index].name;
    const std::string want = row.at("host_index") + " " + row.at("host");
    if (got != want && ++mismatches <= 10) {
      ADD_FAILURE() << algorithm_name << " " << row.at("config") << " key " << key
                    << ": Envoy picks " << want << ", got " << got;
    }
  }
  EXPECT_EQ(mismatches, 0U);
  EXPECT_EQ(placements.size(), 8U);
}

/// Share of `keys` that move between two nodes present both before and
/// after (keys of removed or added nodes excluded).
double share_moved_between_survivors(const Placement& before, const Placement& after, int keys) {
  int moved = 0;
  for (int i = 0; i < keys; ++i) {
    const std::string key = "key" + std::to_string(i);
    const std::string from = node_of(before, key);
    const std::string to = node_of(after, key);
    if (from != to && find_node(after.nodes(), from) >= 0 && find_node(before.nodes(), to) >= 0) {
      ++moved;
    }
  }
  return static_cast<double>(moved) / keys;
}

// ---- envoy-ring --------------------------------------------------------------

TEST(EnvoyRing, MatchesEnvoyOnEveryVectorRow) {
  expect_every_row_matches("envoy-ring", "envoy_ring_hash.tsv");
}

TEST(EnvoyRing, RingSizeFollowsEnvoysScale) {
  const auto points = [](const NodeList& nodes, std::vector<std::string_view> options = {}) {
    Result<std::unique_ptr<Placement>> built = build("envoy-ring", nodes, std::move(options));
    EXPECT_TRUE(built) << built.error();
    return built ? (*built)->state_bytes() / 12 : 0;
  };
  // Equal weights: ceil(1024 / n) points per host.
  EXPECT_EQ(points(system_config("servers10")), 10U * 103U);
  EXPECT_EQ(points(system_config("servers100")), 100U * 11U);
  // 99 hosts: scale 1089, but the running double sum ends just above 1089.
  EXPECT_EQ(points(system_config("servers100_minus50")), 1090U);
  EXPECT_EQ(points(numbered_nodes(3000)), 3000U);
  // Weights 1..4: the lightest (0.1) gets ceil(102.4) = 103, scale 1030.
  EXPECT_EQ(points(system_config("servers4_weighted")), 1030U);
  // max_ring caps the scale (1030 -> 1024, 102.4 points per host); min_ring
  // raises it.
  EXPECT_EQ(points(system_config("servers10"), {"max_ring=1024"}), 1024U);
  EXPECT_EQ(points(system_config("servers10"), {"min_ring=5000"}), 5000U);
  // A host with a millionth of the weight would need 10^6 points; the cap
  // (8388608 by default, here 4096) keeps the ring small and that host out.
  const NodeList skewed{{"light", 1}, {"heavy", 1000000}};
  EXPECT_EQ(points(skewed, {"max_ring=4096"}), 4096U);
}

TEST(EnvoyRing, RemovingANodeRebuildsTheRingEnvoyBuildsForTheRest) {
  Result<std::unique_ptr<Placement>> full = build("envoy-ring", system_config("servers100"));
  Result<std::unique_ptr<Placement>> rest =
      build("envoy-ring", system_config("servers100_minus50"));
  ASSERT_TRUE(full && rest);
  const std::unique_ptr<Placement> edited = (*full)->clone();
  ASSERT_TRUE(edited->remove(50));
  EXPECT_EQ(edited->nodes(), system_config("servers100_minus50"));
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "key" + std::to_string(i);
    EXPECT_EQ(node_of(*edited, key), node_of(**rest, key)) << key;
  }
}

TEST(EnvoyRing, RemovingANodeAlsoMovesKeysBetweenSurvivors) {
  // The points per host, ceil(1024 / n), change with n: 10 -> 9 hosts takes
  // every survivor from 103 to 114 points, and the new points take keys from
  // other survivors. 100 -> 99 keeps 11 points per host, but the double
  // running sum gives one of the 99 a 12th point (1090 in all).
  EXPECT_FALSE((**find_algorithm("envoy-ring")).removes_any_bucket);
  for (const auto& [from, to] : {std::pair{"servers10", "servers10_minus3"},
                                 std::pair{"servers100", "servers100_minus50"}}) {
    Result<std::unique_ptr<Placement>> before = build("envoy-ring", system_config(from));
    Result<std::unique_ptr<Placement>> after = build("envoy-ring", system_config(to));
    ASSERT_TRUE(before && after);
    const double moved = share_moved_between_survivors(**before, **after, 100000);
    std::cout << "envoy-ring " << from << " -> " << to << ": " << moved * 100
              << "% of keys move between surviving nodes\n";
    ::testing::Test::RecordProperty(std::string("moved_between_survivors_") + from,
                                    std::to_string(moved));
    EXPECT_GT(moved, 0.0) << from;
    EXPECT_LT(moved, 0.1) << from;
  }
}

TEST(EnvoyRing, RejectsBadRingSizes) {
  for (std::string_view bad : {"min_ring=0", "max_ring=8388609", "min_ring=x"}) {
    const Result<std::unique_ptr<Placement>> built =
        build("envoy-ring", system_config("servers3"), {bad});
    ASSERT_FALSE(built) << bad;
    EXPECT_NE(built.error().find(bad.substr(0, bad.find('='))), std::string::npos) << built.error();
  }
  const Result<std::unique_ptr<Placement>> crossed =
      build("envoy-ring", system_config("servers3"), {"min_ring=2048", "max_ring=1024"});
  ASSERT_FALSE(crossed);
  EXPECT_EQ(crossed.error(), "envoy-ring: min_ring (2048) > max_ring (1024)");
}

// ---- maglev ------------------------------------------------------------------

TEST(Maglev, MatchesEnvoyOnEveryVectorRow) {
  expect_every_row_matches("maglev", "envoy_maglev.tsv");
}

/// Envoy's MaglevTable::constructMaglevTableInternal, loop for loop: the
/// reference for the turn order the placement computes with a heap.
std::vector<std::string> envoy_maglev_table(NodeList nodes, std::uint64_t size) {
  std::sort(nodes.begin(), nodes.end(),
            [](const Node& a, const Node& b) { return a.name < b.name; });
  const auto total = static_cast<double>(total_weight(nodes));
  double max_weight = 0;
  for (const Node& node : nodes) max_weight = std::max(max_weight, node.weight / total);
  std::vector<double> target(nodes.size(), 0.0);
  std::vector<std::uint64_t> next(nodes.size(), 0);
  std::vector<std::string> table(size);
  std::uint64_t filled = 0;
  for (std::uint32_t iteration = 1; filled < size; ++iteration) {
    for (std::size_t i = 0; i < nodes.size() && filled < size; ++i) {
      if (iteration * (nodes[i].weight / total) < target[i]) continue;
      target[i] += max_weight;
      const std::uint64_t offset = xxh64(nodes[i].name, 0) % size;
      const std::uint64_t skip = xxh64(nodes[i].name, 1) % (size - 1) + 1;
      std::uint64_t slot = (offset + skip * next[i]) % size;
      while (!table[slot].empty()) slot = (offset + skip * ++next[i]) % size;
      table[slot] = nodes[i].name;
      ++next[i];
      ++filled;
    }
  }
  return table;
}

TEST(Maglev, FillsTheTableInEnvoysTurnOrderForUnevenWeights) {
  NodeList nodes;
  std::uint32_t weights[] = {1, 7, 1000, 3, 3, 250, 1, 999, 64, 2};
  for (std::uint32_t i = 0; i < std::size(weights); ++i) {
    nodes.push_back({"host" + std::to_string((i * 7) % 10), weights[i]});
  }
  constexpr std::uint64_t kTable = 1009;
  const std::vector<std::string> reference = envoy_maglev_table(nodes, kTable);
  Result<std::unique_ptr<Placement>> built = build("maglev", nodes, {"table=1009"});
  ASSERT_TRUE(built) << built.error();
  for (int i = 0; i < 20000; ++i) {
    const std::string key = "k" + std::to_string(i);
    ASSERT_EQ(node_of(**built, key), reference[xxh64(key, 0) % kTable]) << key;
  }
}

TEST(Maglev, LocateIndexesTheUsersListWhateverItsOrder) {
  NodeList reversed = system_config("servers10");
  std::reverse(reversed.begin(), reversed.end());
  Result<std::unique_ptr<Placement>> forward = build("maglev", system_config("servers10"));
  Result<std::unique_ptr<Placement>> backward = build("maglev", reversed);
  ASSERT_TRUE(forward && backward);
  EXPECT_EQ((*backward)->nodes(), reversed);
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "key" + std::to_string(i);
    EXPECT_EQ(node_of(**forward, key), node_of(**backward, key)) << key;
  }
  EXPECT_EQ((*forward)->state_bytes(), 65537U * 4U);
}

TEST(Maglev, RemovingANodeRebuildsTheTableEnvoyBuildsForTheRest) {
  Result<std::unique_ptr<Placement>> full = build("maglev", system_config("servers10"));
  Result<std::unique_ptr<Placement>> rest = build("maglev", system_config("servers10_minus3"));
  ASSERT_TRUE(full && rest);
  const std::unique_ptr<Placement> edited = (*full)->clone();
  ASSERT_TRUE(edited->remove(3));
  EXPECT_EQ(edited->nodes(), system_config("servers10_minus3"));
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "key" + std::to_string(i);
    EXPECT_EQ(node_of(*edited, key), node_of(**rest, key)) << key;
  }
}

TEST(Maglev, RemovingANodeAlsoMovesAFewKeysBetweenSurvivors) {
  EXPECT_FALSE((**find_algorithm("maglev")).removes_any_bucket);
  Result<std::unique_ptr<Placement>> before = build("maglev", system_config("servers100"));
  Result<std::unique_ptr<Placement>> after = build("maglev", system_config("servers100_minus50"));
  ASSERT_TRUE(before && after);
  const double moved = share_moved_between_survivors(**before, **after, 100000);
  std::cout << "maglev servers100 -> servers100_minus50: " << moved * 100
            << "% of keys move between surviving nodes\n";
  ::testing::Test::RecordProperty("moved_between_survivors", std::to_string(moved));
  EXPECT_GT(moved, 0.0);
  EXPECT_LT(moved, 0.05);
}

TEST(Maglev, TableMustBeAPrimeAtLeastTheNodeCount) {
  const Result<std::unique_ptr<Placement>> not_prime =
      build("maglev", system_config("servers3"), {"table=65536"});
  ASSERT_FALSE(not_prime);
  EXPECT_EQ(not_prime.error(),
            "option table=65536 of maglev must be prime (nearest primes: 65521 or 65537)");
  for (std::string_view bad : {"table=2", "table=10000020", "table=x"}) {
    const Result<std::unique_ptr<Placement>> built =
        build("maglev", system_config("servers3"), {bad});
    ASSERT_FALSE(built) << bad;
    EXPECT_NE(built.error().find("table"), std::string::npos) << built.error();
  }
  const Result<std::unique_ptr<Placement>> too_small =
      build("maglev", system_config("servers10"), {"table=7"});
  ASSERT_FALSE(too_small);
  EXPECT_NE(too_small.error().find("table=7 < 10 nodes"), std::string::npos) << too_small.error();
  const Result<std::unique_ptr<Placement>> exact =
      build("maglev", numbered_nodes(11), {"table=11"});
  ASSERT_TRUE(exact) << exact.error();
  std::vector<int> slots_per_node(11);
  for (int i = 0; i < 1000; ++i) ++slots_per_node[(*exact)->locate("key" + std::to_string(i))];
  EXPECT_EQ(std::count(slots_per_node.begin(), slots_per_node.end(), 0), 0);  // one slot each
}

}  // namespace
}  // namespace jumphash
