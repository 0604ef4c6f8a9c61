// groupcache's consistenthash against vectors from the Go package itself
// (tests/vectors/systems/groupcache_consistenthash.tsv), its replicas option
// and its point limit.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/nodes.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

using testing::read_tsv;
using testing::system_config;

const Algorithm& groupcache() { return **find_algorithm("groupcache"); }

Result<std::unique_ptr<Placement>> build(const NodeList& nodes, std::vector<std::string_view> options) {
  Result<OptionValues> values = OptionValues::parse(groupcache().options, options, groupcache().name);
  if (!values) return Error{values.error()};
  return groupcache().build(nodes, *values);
}

std::string node_of(const Placement& placement, std::string_view key) {
  return placement.nodes()[placement.locate(key)].name;
}

TEST(Groupcache, MatchesGroupcacheOnEveryVectorRow) {
  const std::vector<testing::TsvRow> rows = read_tsv("vectors/systems/groupcache_consistenthash.tsv");
  ASSERT_EQ(rows.size(), 3280U);
  std::map<std::pair<std::string, std::string>, std::unique_ptr<Placement>> placements;
  std::size_t mismatches = 0;
  for (const testing::TsvRow& row : rows) {
    std::unique_ptr<Placement>& placement = placements[{row.at("config"), row.at("replicas")}];
    if (!placement) {
      const std::string replicas = "replicas=" + row.at("replicas");
      Result<std::unique_ptr<Placement>> built = build(system_config(row.at("config")), {replicas});
      ASSERT_TRUE(built) << built.error();
      placement = std::move(built).value();
    }
    const std::string got = node_of(*placement, row.at("key"));
    if (got != row.at("node") && ++mismatches <= 10) {
      ADD_FAILURE() << row.at("config") << " replicas=" << row.at("replicas") << " key "
                    << row.at("key") << ": groupcache picks " << row.at("node") << ", got " << got;
    }
  }
  EXPECT_EQ(mismatches, 0U);
  EXPECT_EQ(placements.size(), 16U);  // 8 configs x replicas 3 and 50
}

TEST(Groupcache, DefaultsToFiftyReplicasAndIgnoresWeights) {
  EXPECT_FALSE(groupcache().weights);
  EXPECT_TRUE(groupcache().removes_any_bucket);
  const Result<std::unique_ptr<Placement>> by_default = build(system_config("servers4_weighted"), {});
  const Result<std::unique_ptr<Placement>> fifty = build(system_config("servers4_weighted"), {"replicas=50"});
  NodeList unweighted = system_config("servers4_weighted");
  for (Node& node : unweighted) node.weight = 1;
  const Result<std::unique_ptr<Placement>> flat = build(unweighted, {});
  ASSERT_TRUE(by_default && fifty && flat);
  EXPECT_EQ((*by_default)->state_bytes(), 4U * 50U * 8U);
  for (int i = 0; i < 1000; ++i) {
    const std::string key = "key" + std::to_string(i);
    EXPECT_EQ(node_of(**by_default, key), node_of(**fifty, key)) << key;
    EXPECT_EQ(node_of(**by_default, key), node_of(**flat, key)) << key;
  }
}

TEST(Groupcache, OfEqualPointsTheLaterNodeOwnsIt) {
  // Nodes "a" and "1a" share 4 of their 50 points ("11a" = 11 || "a" =
  // 1 || "1a", also "21a", "31a", "41a"). crc32("key611") falls on the arc
  // that ends at crc32("21a"): Go's map assignment leaves it to the node
  // added last.
  const Result<std::unique_ptr<Placement>> in_order = build({{"a", 1}, {"1a", 1}}, {});
  const Result<std::unique_ptr<Placement>> swapped = build({{"1a", 1}, {"a", 1}}, {});
  ASSERT_TRUE(in_order && swapped);
  EXPECT_EQ((*in_order)->state_bytes(), 96U * 8U);
  EXPECT_EQ(node_of(**in_order, "key611"), "1a");
  EXPECT_EQ(node_of(**swapped, "key611"), "a");
}

TEST(Groupcache, RemovingANodeMovesOnlyItsKeys) {
  Result<std::unique_ptr<Placement>> full = build(system_config("servers10"), {});
  ASSERT_TRUE(full);
  const std::unique_ptr<Placement> without = (*full)->clone();
  const std::string removed = (*full)->nodes()[3].name;
  ASSERT_TRUE(without->remove(3));
  EXPECT_EQ(without->nodes(), system_config("servers10_minus3"));
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "key" + std::to_string(i);
    if (node_of(**full, key) != removed) {
      EXPECT_EQ(node_of(*without, key), node_of(**full, key)) << key;
    }
  }
}

TEST(Groupcache, RejectsBadReplicasAndTooManyPoints) {
  for (std::string_view bad : {"replicas=0", "replicas=100001", "replicas=x"}) {
    const Result<std::unique_ptr<Placement>> built = build(system_config("servers3"), {bad});
    ASSERT_FALSE(built) << bad;
    EXPECT_NE(built.error().find("replicas"), std::string::npos) << built.error();
  }
  // 100000 x 168 = 16800000 > 2^24 = 16777216.
  const Result<std::unique_ptr<Placement>> too_many =
      build(numbered_nodes(168), {"replicas=100000"});
  ASSERT_FALSE(too_many);
  EXPECT_NE(too_many.error().find("16800000"), std::string::npos) << too_many.error();
  EXPECT_NE(too_many.error().find("16777216"), std::string::npos) << too_many.error();
}

}  // namespace
}  // namespace jumphash
