// nginx `hash $key consistent;` against vectors from nginx 1.22 itself
// (tests/vectors/systems/nginx_chash.tsv), its point limit, its edits and
// its split of server strings into host and port.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/nodes.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

using testing::read_tsv;
using testing::system_config;

const Algorithm& nginx() { return **find_algorithm("nginx"); }

std::unique_ptr<Placement> build(const NodeList& nodes) {
  Result<std::unique_ptr<Placement>> built = nginx().build(nodes, OptionValues::defaults(nginx().options));
  EXPECT_TRUE(built) << built.error();
  return built ? std::move(built).value() : nullptr;
}

std::string node_of(const Placement& placement, std::string_view key) {
  return placement.nodes()[placement.locate(key)].name;
}

std::vector<std::string> sample_keys() {
  std::vector<std::string> keys;
  for (int i = 0; i < 2000; ++i) keys.push_back("key" + std::to_string(i));
  return keys;
}

TEST(Nginx, MatchesNginxOnEveryVectorRow) {
  const std::vector<testing::TsvRow> rows = read_tsv("vectors/systems/nginx_chash.tsv");
  ASSERT_EQ(rows.size(), 1435U);
  std::map<std::string, std::unique_ptr<Placement>> placements;
  std::size_t mismatches = 0;
  for (const testing::TsvRow& row : rows) {
    std::unique_ptr<Placement>& placement = placements[row.at("config")];
    if (!placement) placement = build(system_config(row.at("config")));
    ASSERT_TRUE(placement);
    const std::string got = node_of(*placement, row.at("key"));
    if (got != row.at("server") && ++mismatches <= 10) {
      ADD_FAILURE() << row.at("config") << " key " << row.at("key") << ": nginx picks "
                    << row.at("server") << ", got " << got;
    }
  }
  EXPECT_EQ(mismatches, 0U);
  EXPECT_EQ(placements.size(), 7U);
}

TEST(Nginx, DescribesItself) {
  EXPECT_EQ(nginx().kind, AlgorithmKind::node_set);
  EXPECT_TRUE(nginx().consistent);
  EXPECT_TRUE(nginx().removes_any_bucket);
  EXPECT_TRUE(nginx().weights);
  EXPECT_TRUE(nginx().options.empty());
}

TEST(Nginx, RemovingAMiddleServerIsTheRingWithoutItAndMovesOnlyItsKeys) {
  const std::unique_ptr<Placement> full = build(system_config("nginx_10"));
  const std::unique_ptr<Placement> without = full->clone();
  const std::string removed = full->nodes()[3].name;
  ASSERT_TRUE(without->remove(3));
  EXPECT_EQ(without->nodes(), system_config("nginx_10_minus3"));
  const std::unique_ptr<Placement> rebuilt = build(system_config("nginx_10_minus3"));
  for (const std::string& key : sample_keys()) {
    EXPECT_EQ(node_of(*without, key), node_of(*rebuilt, key)) << key;
    if (node_of(*full, key) != removed) {
      EXPECT_EQ(node_of(*without, key), node_of(*full, key)) << key;
    }
  }
  EXPECT_EQ(without->state_bytes(), 9U * 160U * 8U);  // no equal hashes among these points
}

TEST(Nginx, WeightMultipliesThePoints) {
  const std::unique_ptr<Placement> weighted = build(system_config("nginx_4_weighted"));
  EXPECT_EQ(weighted->state_bytes(), (1U + 2U + 3U + 4U) * 160U * 8U);
  std::map<std::string, int> counts;
  for (const std::string& key : sample_keys()) ++counts[node_of(*weighted, key)];
  EXPECT_LT(counts["127.0.0.1:11211"], counts["127.0.0.4:11211"]);
}

TEST(Nginx, RejectsMoreThanTheMostPoints) {
  // 160 x 104858 = 16777280 > 2^24 = 16777216.
  const Result<std::unique_ptr<Placement>> too_heavy =
      nginx().build({{"a:1", 104858}}, OptionValues::defaults(nginx().options));
  ASSERT_FALSE(too_heavy);
  EXPECT_NE(too_heavy.error().find("16777280"), std::string::npos) << too_heavy.error();
  EXPECT_NE(too_heavy.error().find("16777216"), std::string::npos) << too_heavy.error();

  const std::unique_ptr<Placement> placement = build(system_config("nginx_3"));
  const std::unique_ptr<Placement> before = placement->clone();
  const Result<bool> reweighted = placement->reweight(1, 104857);
  ASSERT_FALSE(reweighted);
  EXPECT_NE(reweighted.error().find("16777216"), std::string::npos) << reweighted.error();
  EXPECT_EQ(placement->nodes(), before->nodes());
  for (const std::string& key : sample_keys()) EXPECT_EQ(node_of(*placement, key), node_of(*before, key));
}

TEST(Nginx, OfEqualPointsTheEarlierServerKeepsIt) {
  // These two servers share the point 326743374, and crc32("key56") =
  // 311669376 falls on the arc that ends there. nginx sorts the points (a
  // stable sort in glibc) and keeps the first of equal hashes: the server
  // listed first owns the point.
  const Node first{"10.0.1.71:11211", 1};
  const Node second{"10.0.1.249:11211", 1};
  const std::unique_ptr<Placement> in_order = build({first, second});
  const std::unique_ptr<Placement> swapped = build({second, first});
  EXPECT_EQ(in_order->state_bytes(), 319U * 8U);
  EXPECT_EQ(node_of(*in_order, "key56"), first.name);
  EXPECT_EQ(node_of(*swapped, "key56"), second.name);
}

// Two server strings that nginx splits into the same host and port build the
// same ring; a different split gives a different ring.
bool same_ring(const std::string& first, const std::string& second) {
  const std::unique_ptr<Placement> a = build({{first, 1}, {"other:80", 1}});
  const std::unique_ptr<Placement> b = build({{second, 1}, {"other:80", 1}});
  for (const std::string& key : sample_keys()) {
    if ((a->locate(key) == 0) != (b->locate(key) == 0)) return false;
  }
  return true;
}

TEST(Nginx, SplitsServerStringsAsNginxDoes) {
  EXPECT_TRUE(same_ring("cache", "cache:"));             // no port and an empty port: "cache\0"
  EXPECT_FALSE(same_ring("cache:80", "cache80"));        // "cache\0" "80" is not "cache80\0"
  EXPECT_TRUE(same_ring("unix:/run/a.sock", "/run/a.sock"));  // the unix: prefix is dropped
  EXPECT_TRUE(same_ring("UNIX:/run/a.sock", "/run/a.sock"));  // in any case
  EXPECT_TRUE(same_ring("[::1]:8080", "[::1]:8080"));
  EXPECT_FALSE(same_ring("[::1]:8080", "[::1]:8081"));
  EXPECT_FALSE(same_ring("a:b", "a"));  // only digits after the last ':' make a port
}

}  // namespace
}  // namespace jumphash
