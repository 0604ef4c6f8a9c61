// The contract of node-set algorithms, written once and run for every
// registered one (the bucket-count contract is algorithm_contract_test.cpp):
// range and determinism, removing any node moves only that node's keys,
// adding a node moves keys only to it, weights give each node its share,
// and the edge cases of a cluster (one node, unknown names, limits).
// Also: every registered algorithm has reference vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "jumphash/cluster.hpp"
#include "jumphash/reports.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

std::vector<Algorithm> node_set_algorithms() {
  std::vector<Algorithm> result;
  for (const Algorithm& algorithm : algorithms()) {
    if (algorithm.kind == AlgorithmKind::node_set) result.push_back(algorithm);
  }
  return result;
}

std::string name_of(const ::testing::TestParamInfo<Algorithm>& info) {
  std::string name(info.param.name);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

Cluster make(const Algorithm& algorithm, NodeList nodes) {
  Result<Cluster> cluster =
      Cluster::create(algorithm, OptionValues::defaults(algorithm.options), std::move(nodes));
  EXPECT_TRUE(cluster) << cluster.error();
  return std::move(cluster).value();
}

NodeList servers(int n, std::uint32_t weight = 1) {
  NodeList nodes;
  for (int i = 1; i <= n; ++i) nodes.push_back({"10.0.0." + std::to_string(i) + ":11211", weight});
  return nodes;
}

const KeySet& keys_10k() {
  static const KeySet keys = *KeySet::parse(std::string_view("random:10000:7"));
  return keys;
}

class NodeSetContract : public ::testing::TestWithParam<Algorithm> {};

TEST_P(NodeSetContract, LocatesEveryKeyOnANodeOfTheListDeterministically) {
  const Algorithm& algorithm = GetParam();
  for (int n : {1, 2, 3, 10, 100}) {
    const Cluster cluster = make(algorithm, servers(n));
    const Cluster again = make(algorithm, servers(n));
    keys_10k().for_each_key(0, 2000, [&](std::uint64_t value, const Key* key) {
      const std::uint32_t node = cluster.locate(value, key);
      ASSERT_LT(node, static_cast<std::uint32_t>(n));
      ASSERT_EQ(node, again.locate(value, key));
      ASSERT_EQ(node, cluster.copy().locate(value, key));
    });
  }
}

TEST_P(NodeSetContract, ANumericKeyIsItsDecimalText) {
  const Cluster cluster = make(GetParam(), servers(10));
  for (std::uint64_t value : {0ULL, 42ULL, 18446744073709551615ULL}) {
    const Key text = *parse_key("\"" + std::to_string(value) + "\"");
    EXPECT_EQ(cluster.locate(value, nullptr), cluster.locate(text.value, &text)) << value;
  }
}

TEST_P(NodeSetContract, SpreadsKeysOverEveryNode) {
  const Cluster cluster = make(GetParam(), servers(10));
  std::vector<std::uint64_t> loads(10);
  add_node_loads(cluster, keys_10k(), 0, keys_10k().size(), loads);
  for (std::size_t i = 0; i < loads.size(); ++i) {
    // The mean is 1000. A ring's nodes get the arcs of their points: with
    // groupcache's 50 points one of these ten nodes gets only 465 keys.
    EXPECT_GT(loads[i], 250u) << GetParam().name << " node " << i;
  }
}

/// Keys that move between two nodes present before and after.
std::uint64_t moves_between_survivors(const Cluster& before, const Cluster& after,
                                      const std::string& changed) {
  const std::vector<std::int64_t> map = node_index_map(before.nodes(), after.nodes());
  std::uint64_t count = 0;
  keys_10k().for_each_key(0, keys_10k().size(), [&](std::uint64_t value, const Key* key) {
    const std::uint32_t old_node = before.locate(value, key);
    const std::uint32_t new_node = after.locate(value, key);
    const bool old_changed = before.nodes()[old_node].name == changed;
    const bool new_changed = after.nodes()[new_node].name == changed;
    if (map[old_node] != new_node && !old_changed && !new_changed) ++count;
  });
  return count;
}

TEST_P(NodeSetContract, RemovingAnyNodeMovesOnlyThatNodesKeys) {
  const Algorithm& algorithm = GetParam();
  for (int removed : {0, 3, 9}) {
    const Cluster before = make(algorithm, servers(10));
    Cluster after = before.copy();
    const std::string name = before.nodes()[static_cast<std::size_t>(removed)].name;
    ASSERT_TRUE(after.apply({NodeEdit::Kind::remove, {name, 1}}));
    ASSERT_EQ(after.nodes().size(), 9u);
    const std::uint64_t extra = moves_between_survivors(before, after, name);
    if (algorithm.removes_any_bucket) {
      EXPECT_EQ(extra, 0u) << algorithm.name << " removing " << name;
    } else {
      // Maglev and Envoy's ring move some keys between survivors too (their
      // own tests measure how many); still far fewer than a renumbering.
      EXPECT_LT(extra, keys_10k().size() / 8) << algorithm.name << " removing " << name;
    }
  }
}

TEST_P(NodeSetContract, AddingANodeMovesKeysOnlyToIt) {
  const Algorithm& algorithm = GetParam();
  const Cluster before = make(algorithm, servers(10));
  Cluster after = before.copy();
  ASSERT_TRUE(after.apply({NodeEdit::Kind::add, {"10.0.0.200:11211", 1}}));
  const std::uint64_t extra = moves_between_survivors(before, after, "10.0.0.200:11211");
  if (algorithm.removes_any_bucket) {
    EXPECT_EQ(extra, 0u) << algorithm.name;
  } else {
    EXPECT_LT(extra, keys_10k().size() / 8) << algorithm.name;
  }
  // The new node takes about 1/11 of the keys.
  std::uint64_t taken = 0;
  keys_10k().for_each_key(0, keys_10k().size(), [&](std::uint64_t value, const Key* key) {
    if (after.nodes()[after.locate(value, key)].name == "10.0.0.200:11211") ++taken;
  });
  EXPECT_GT(taken, 10000u / 11 / 2) << algorithm.name;
  EXPECT_LT(taken, 10000u / 11 * 2) << algorithm.name;
}

TEST_P(NodeSetContract, WeightsGiveEachNodeItsShare) {
  const Algorithm& algorithm = GetParam();
  if (!algorithm.weights) GTEST_SKIP() << algorithm.name << " ignores weights";
  NodeList nodes;
  for (std::uint32_t w = 1; w <= 4; ++w) nodes.push_back({"node-" + std::to_string(w), w});
  const Cluster cluster = make(algorithm, nodes);
  const KeySet keys = *KeySet::parse(std::string_view("random:100000:11"));
  std::vector<std::uint64_t> loads(4);
  add_node_loads(cluster, keys, 0, keys.size(), loads);
  for (std::size_t i = 0; i < 4; ++i) {
    const double expected = 100000.0 * static_cast<double>(i + 1) / 10.0;
    // Rings give each node the arcs of its points, not exactly its weight:
    // with 160 or more points per unit the arcs stay within 15%.
    EXPECT_NEAR(static_cast<double>(loads[i]) / expected, 1.0, 0.15)
        << algorithm.name << " node of weight " << i + 1 << " got " << loads[i];
  }
}

TEST_P(NodeSetContract, IgnoresWeightsWhenItHasNone) {
  const Algorithm& algorithm = GetParam();
  if (algorithm.weights) GTEST_SKIP() << algorithm.name << " honours weights";
  const Cluster plain = make(algorithm, servers(5));
  const Cluster weighted = make(algorithm, servers(5, 7));
  keys_10k().for_each_key(0, 1000, [&](std::uint64_t value, const Key* key) {
    ASSERT_EQ(plain.locate(value, key), weighted.locate(value, key));
  });
}

TEST_P(NodeSetContract, EditErrorsChangeNothing) {
  const Algorithm& algorithm = GetParam();
  Cluster cluster = make(algorithm, servers(3));
  const NodeList before = cluster.nodes();
  EXPECT_FALSE(cluster.apply({NodeEdit::Kind::remove, {"nope", 1}}));
  EXPECT_FALSE(cluster.apply({NodeEdit::Kind::add, {"10.0.0.1:11211", 1}}));
  EXPECT_EQ(cluster.nodes(), before);
  Cluster one = make(algorithm, servers(1));
  const Result<bool> last = one.apply({NodeEdit::Kind::remove, {"10.0.0.1:11211", 1}});
  ASSERT_FALSE(last);
  EXPECT_EQ(last.error(), "cannot remove 10.0.0.1:11211: it is the only node left");
}

TEST_P(NodeSetContract, OneNodeTakesEveryKey) {
  const Cluster cluster = make(GetParam(), servers(1));
  keys_10k().for_each_key(0, 1000, [&](std::uint64_t value, const Key* key) {
    ASSERT_EQ(cluster.locate(value, key), 0u);
  });
}

TEST_P(NodeSetContract, StateBytesAreMeasured) {
  const Cluster small = make(GetParam(), servers(10));
  const Cluster large = make(GetParam(), servers(100));
  EXPECT_GE(large.state_bytes(), small.state_bytes()) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(Every, NodeSetContract, ::testing::ValuesIn(node_set_algorithms()),
                         name_of);

// The articles' pitfall: servers[jump(key, servers.size())] after removing a
// middle server renumbers the rest and moves most keys.
TEST(NodeLists, IndexingAServerListWithJumpMovesMostKeysWhenAMiddleServerGoes) {
  const Algorithm& jump = **find_algorithm("jump");
  const Cluster before = make(jump, servers(10));
  Cluster after = before.copy();
  ASSERT_TRUE(after.apply({NodeEdit::Kind::remove, {"10.0.0.4:11211", 1}}));
  const std::uint64_t moved =
      for_each_moved_node(before, after, keys_10k(), 0, keys_10k().size(), [](auto...) {});
  EXPECT_GT(moved, keys_10k().size() / 2);
  // Removing the last server instead moves only its tenth.
  Cluster last = before.copy();
  ASSERT_TRUE(last.apply({NodeEdit::Kind::remove, {"10.0.0.10:11211", 1}}));
  const std::uint64_t moved_last =
      for_each_moved_node(before, last, keys_10k(), 0, keys_10k().size(), [](auto...) {});
  EXPECT_NEAR(static_cast<double>(moved_last), 1000.0, 150.0);
}

TEST(NodeLists, MinimumMovedIsTheShareThatNodesLose) {
  const Algorithm& ketama = **find_algorithm("ketama");
  const Cluster before = make(ketama, servers(10));
  Cluster removed = before.copy();
  ASSERT_TRUE(removed.apply({NodeEdit::Kind::remove, {"10.0.0.4:11211", 1}}));
  EXPECT_NEAR(minimum_moved_fraction(before, removed), 0.1, 1e-12);
  Cluster doubled = before.copy();
  ASSERT_TRUE(doubled.apply({NodeEdit::Kind::add, {"big", 2}}));
  // The new node of weight 2 takes 2/12 of the keys from the others.
  EXPECT_NEAR(minimum_moved_fraction(before, doubled), 2.0 / 12.0, 1e-12);
  NodeResizeReport report(before.copy(), removed.copy(), 10);
  report.add(keys_10k(), 0, keys_10k().size());
  EXPECT_EQ(report.total(), 10000u);
  EXPECT_NEAR(report.minimum_moved_expected(), 1000.0, 1e-9);
  EXPECT_EQ(report.moved(), report.loads_before()[3]);  // exactly the removed node's keys
  EXPECT_EQ(report.sample().size(), 10u);
  ASSERT_EQ(report.flows().size(), 10u * 9u);
  std::uint64_t from_removed = 0;
  for (std::size_t to = 0; to < 9; ++to) from_removed += report.flows()[3 * 9 + to];
  EXPECT_EQ(from_removed, report.loads_before()[3]);
  // The matrix lists its non-zero cells as it fills, in index order when read.
  std::vector<FlowCell> listed;
  report.flow_matrix().for_each_nonzero([&](FlowCell cell) { listed.push_back(cell); });
  EXPECT_EQ(listed, nonzero_cells(report.flows()));
  EXPECT_EQ(listed.size(), 9u + 9u);  // 9 staying nodes, and the removed one's keys to 9
}

// As ResizeReport's: a node resize counted from the end down, slice by
// slice, is the one counted up, its sample the first moved keys in key order.
TEST(NodeLists, ResizeCountedFromTheEndDownIsTheSameAsCountedUp) {
  const Algorithm& ketama = **find_algorithm("ketama");
  const Cluster before = make(ketama, servers(10));
  Cluster after = before.copy();
  ASSERT_TRUE(after.apply({NodeEdit::Kind::remove, {"10.0.0.4:11211", 1}}));
  ASSERT_TRUE(after.apply({NodeEdit::Kind::add, {"big", 2}}));
  for (const std::size_t limit : {0u, 3u, 250u, 100000u}) {
    SCOPED_TRACE(limit);
    NodeResizeReport up(before.copy(), after.copy(), limit);
    up.add(keys_10k(), 0, keys_10k().size());
    NodeResizeReport down(before.copy(), after.copy(), limit);
    std::uint64_t next = keys_10k().size();
    for (const std::uint64_t count : {1u, 999u, 4000u, 17u, 10000u}) {
      const std::uint64_t taken = std::min(next, count);
      down.add_before(keys_10k(), next - taken, next);
      next -= taken;
    }
    ASSERT_EQ(next, 0u);
    EXPECT_EQ(down.total(), up.total());
    EXPECT_EQ(down.moved(), up.moved());
    EXPECT_EQ(down.loads_before(), up.loads_before());
    EXPECT_EQ(down.loads_after(), up.loads_after());
    EXPECT_EQ(down.flows(), up.flows());
    ASSERT_EQ(down.sample().size(), std::min<std::uint64_t>(limit, up.moved()));
    ASSERT_EQ(down.sample().size(), up.sample().size());
    for (std::size_t k = 0; k < up.sample().size(); ++k) {
      EXPECT_EQ(down.sample()[k].value, up.sample()[k].value) << k;
      EXPECT_EQ(down.sample()[k].old_node, up.sample()[k].old_node) << k;
      EXPECT_EQ(down.sample()[k].new_node, up.sample()[k].new_node) << k;
    }
  }
}

TEST(NodeLists, ParsingNodesAndEdits) {
  const std::vector<std::string_view> tokens{"a", "b*3", "\"cache 3\"*2", "\"x\\\"y\""};
  const Result<NodeList> nodes = parse_node_list(tokens);
  ASSERT_TRUE(nodes) << nodes.error();
  EXPECT_EQ(*nodes, (NodeList{{"a", 1}, {"b", 3}, {"cache 3", 2}, {"x\"y", 1}}));
  EXPECT_EQ(node_token("cache 3"), "\"cache 3\"");
  EXPECT_EQ(node_token("a"), "a");
  const std::vector<std::string_view> twice{"a", "a*2"};
  EXPECT_EQ(parse_node_list(twice).error(), "node a is listed twice (names must be unique)");
  EXPECT_EQ(parse_node("a*0").error(),
            "weight of node a must be an integer in 1..1000000 (got '0')");
  EXPECT_EQ(parse_node("a*1000001").error(),
            "weight of node a must be an integer in 1..1000000 (got '1000001')");
  EXPECT_FALSE(parse_node("*3"));
  EXPECT_FALSE(parse_node("\"a\x01\""));
  ASSERT_TRUE(parse_node_edit("-\"cache 3\""));
  EXPECT_EQ(parse_node_edit("-\"cache 3\"")->node.name, "cache 3");
  EXPECT_EQ(parse_node_edit("+b*2")->node.weight, 2u);
  EXPECT_EQ(parse_node_edit("=b*5")->kind, NodeEdit::Kind::reweight);
  EXPECT_FALSE(parse_node_edit("b"));
  EXPECT_FALSE(parse_node_edit("-b*2"));
  EXPECT_FALSE(parse_node_edit("=b"));
}

TEST(NodeLists, ABucketCountMeansNumberedNodesAndHasALimit) {
  const Algorithm& rendezvous = **find_algorithm("rendezvous");
  const Result<Cluster> cluster = Cluster::numbered(rendezvous, {}, 3, "bucket count");
  ASSERT_TRUE(cluster);
  EXPECT_EQ(cluster->nodes(), (NodeList{{"0", 1}, {"1", 1}, {"2", 1}}));
  const Result<Cluster> too_many = Cluster::numbered(rendezvous, {}, kMaxNodes + 1, "bucket count");
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error(),
            "bucket count for rendezvous (one node per bucket) must be an integer in 1..100000 "
            "(got '100001')");
}

// Every registered algorithm is checked against vectors computed by the
// implementation it claims to equal. Adding an algorithm without vectors
// fails here.
TEST(Registry, EveryAlgorithmHasReferenceVectors) {
  const std::map<std::string, std::string> vectors{
      {"jump", "vectors/jump.tsv"},
      {"jump-guava", "vectors/jump.tsv"},
      {"jumpback", "vectors/jumpback.tsv"},
      {"jumpback-indep", "vectors/reference.tsv"},
      {"modulo", "vectors/reference.tsv"},
      {"ketama", "vectors/systems/ketama_libmemcached.tsv"},
      {"libketama", "vectors/systems/ketama_libketama.tsv"},
      {"nginx", "vectors/systems/nginx_chash.tsv"},
      {"groupcache", "vectors/systems/groupcache_consistenthash.tsv"},
      {"rendezvous", "vectors/systems/rendezvous_go.tsv"},
      {"envoy-ring", "vectors/systems/envoy_ring_hash.tsv"},
      {"maglev", "vectors/systems/envoy_maglev.tsv"},
      {"memento", "vectors/systems/memento_cpp.tsv"},
      {"memento-java", "vectors/systems/memento_java.tsv"},
  };
  for (const Algorithm& algorithm : algorithms()) {
    const auto found = vectors.find(std::string(algorithm.name));
    ASSERT_NE(found, vectors.end()) << algorithm.name << " has no reference vectors";
    EXPECT_GT(testing::read_tsv(found->second).size(), 100u) << found->second;
    if (algorithm.kind == AlgorithmKind::node_set) {
      // ... and a CLI transcript generated from those vectors.
      std::string transcript(algorithm.name);
      for (char& c : transcript) {
        if (c == '-') c = '_';
      }
      EXPECT_TRUE(
          std::filesystem::exists(testing::data_path("cli/systems_" + transcript + ".stdout")))
          << algorithm.name;
    }
  }
}

}  // namespace
}  // namespace jumphash
