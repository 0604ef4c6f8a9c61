// ketama (libmemcached 1.1.4) and libketama (last.fm) against the vectors
// the real libraries produced (tests/vectors/systems/), plus the layout
// quirks, the port rule, the options and the edits.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

using testing::read_tsv;
using testing::system_config;
using testing::TsvRow;

std::unique_ptr<Placement> build(std::string_view algorithm_name, const NodeList& nodes,
                                 std::vector<std::string_view> assignments = {}) {
  const Algorithm& algorithm = **find_algorithm(algorithm_name);
  Result<OptionValues> options = OptionValues::parse(algorithm.options, assignments, algorithm.name);
  EXPECT_TRUE(options) << options.error();
  Result<std::unique_ptr<Placement>> placement = algorithm.build(nodes, *options);
  EXPECT_TRUE(placement) << placement.error();
  return std::move(placement).value();
}

NodeList nodes_named(std::vector<std::string> names) {
  NodeList nodes;
  for (std::string& name : names) nodes.push_back({std::move(name), 1});
  return nodes;
}

/// The vector file's mode column as this project's `mode` option.
std::string_view mode_option(const std::string& vector_mode) {
  return vector_mode == "weighted" ? "mode=weighted" : "mode=plain";
}

TEST(Ketama, MatchesLibmemcachedOnEveryVectorRow) {
  const std::vector<TsvRow> rows = read_tsv("vectors/systems/ketama_libmemcached.tsv");
  ASSERT_EQ(rows.size(), 3075u);
  std::map<std::string, std::unique_ptr<Placement>> placements;  // by "config mode"
  for (const TsvRow& row : rows) {
    const std::string& config = row.at("config");
    const std::string& mode = row.at("mode");
    std::unique_ptr<Placement>& placement = placements[config + " " + mode];
    if (!placement) placement = build("ketama", system_config(config), {mode_option(mode)});
    const std::uint32_t index = placement->locate(row.at("key"));
    EXPECT_EQ(index, std::stoul(row.at("server_index")))
        << config << " " << mode << " key " << row.at("key");
    EXPECT_EQ(placement->nodes()[index].name, row.at("server"))
        << config << " " << mode << " key " << row.at("key");
  }
  EXPECT_EQ(placements.size(), 15u);
}

TEST(Libketama, MatchesLibketamaOnEveryVectorRow) {
  const std::vector<TsvRow> rows = read_tsv("vectors/systems/ketama_libketama.tsv");
  ASSERT_EQ(rows.size(), 1435u);
  std::map<std::string, std::unique_ptr<Placement>> placements;  // by config
  for (const TsvRow& row : rows) {
    std::unique_ptr<Placement>& placement = placements[row.at("config")];
    if (!placement) placement = build("libketama", system_config(row.at("config")));
    EXPECT_EQ(placement->nodes()[placement->locate(row.at("key"))].name, row.at("server"))
        << row.at("config") << " key " << row.at("key");
  }
  EXPECT_EQ(placements.size(), 7u);
}

TEST(Ketama, WeightedModeKeepsTheFloatRoundingOf156Points) {
  // 4 points per digest, 8 bytes per point: 40 digests per server, but 39
  // at n = 25, 47, 50, 55, 61, 71, 94, 100 (float32 rounding in libmemcached).
  for (const std::int64_t n : {10, 24, 26, 99}) {
    EXPECT_EQ(build("ketama", numbered_nodes(n))->state_bytes(), static_cast<std::size_t>(n) * 160 * 8)
        << n;
  }
  for (const std::int64_t n : {25, 47, 50, 55, 61, 71, 94, 100}) {
    EXPECT_EQ(build("ketama", numbered_nodes(n))->state_bytes(), static_cast<std::size_t>(n) * 156 * 8)
        << n;
  }
}

TEST(Ketama, PlainModeHas100PointsPerServerUntilAWeightExceedsOne) {
  EXPECT_EQ(build("ketama", numbered_nodes(10), {"mode=plain"})->state_bytes(), 10u * 100 * 8);
  NodeList weighted = numbered_nodes(4);
  weighted[1].weight = 2;
  // Total weight 5: floor(40 * 4 * w / 5) digests = 32, 64, 32, 32.
  EXPECT_EQ(build("ketama", weighted, {"mode=plain"})->state_bytes(), (32u + 64 + 32 + 32) * 4 * 8);
}

TEST(Ketama, OneServerTakesEveryKey) {
  for (const std::string_view mode : {"mode=weighted", "mode=plain"}) {
    const auto placement = build("ketama", nodes_named({"only:11211"}), {mode});
    for (const std::string_view key : {"", "a", "key7", "\xff\xfe"}) EXPECT_EQ(placement->locate(key), 0u);
  }
  const auto placement = build("libketama", nodes_named({"only:11211"}));
  for (const std::string_view key : {"", "a", "key7"}) EXPECT_EQ(placement->locate(key), 0u);
}

/// Where keys "k0".."k499" land.
std::vector<std::uint32_t> locations(const Placement& placement) {
  std::vector<std::uint32_t> result;
  for (int i = 0; i < 500; ++i) result.push_back(placement.locate("k" + std::to_string(i)));
  return result;
}

TEST(Ketama, PointNamesDropOnlyTheDefaultPort) {
  for (const std::string_view mode : {"mode=weighted", "mode=plain"}) {
    const auto bare = locations(*build("ketama", nodes_named({"a", "b", "c"}), {mode}));
    EXPECT_EQ(locations(*build("ketama", nodes_named({"a:11211", "b:11211", "c:11211"}), {mode})), bare);
    EXPECT_EQ(locations(*build("ketama", nodes_named({"a:0", "b:0", "c:0"}), {mode})), bare);
    EXPECT_NE(locations(*build("ketama", nodes_named({"a:11212", "b:11212", "c:11212"}), {mode})), bare);
    // Not a port: the whole name is the host.
    EXPECT_NE(locations(*build("ketama", nodes_named({"a:x", "b:x", "c:x"}), {mode})), bare);
  }
  // libketama hashes the whole name, port included.
  EXPECT_NE(locations(*build("libketama", nodes_named({"a:11211", "b:11211", "c:11211"}))),
            locations(*build("libketama", nodes_named({"a", "b", "c"}))));
}

TEST(Ketama, RejectsAnUnknownMode) {
  const Algorithm& ketama = **find_algorithm("ketama");
  const std::vector<std::string_view> assignments{"mode=spy"};
  EXPECT_FALSE(OptionValues::parse(ketama.options, assignments, ketama.name));
  EXPECT_EQ(OptionValues::defaults(ketama.options).text("mode"), "weighted");
}

TEST(Ketama, RemovingAMiddleServerEqualsTheRingWithoutIt) {
  // servers10 minus index 3 is servers10_minus3: the same rows must follow.
  // At 10 -> 9 equal servers every survivor keeps 40 digests.
  for (const std::string_view algorithm : {"ketama", "libketama"}) {
    auto placement = build(algorithm, system_config("servers10"));
    const auto copy = placement->clone();
    ASSERT_TRUE(placement->remove(3));
    const auto expected = build(algorithm, system_config("servers10_minus3"));
    EXPECT_EQ(placement->nodes(), expected->nodes());
    EXPECT_EQ(locations(*placement), locations(*expected)) << algorithm;
    // Only the removed server's keys moved; the clone kept the old ring.
    const auto before = locations(*copy);
    const auto after = locations(*placement);
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (before[i] != 3) {
        EXPECT_EQ(copy->nodes()[before[i]], placement->nodes()[after[i]]) << i;
      }
    }
    ASSERT_TRUE(placement->add(copy->nodes()[3]));
    ASSERT_TRUE(placement->reweight(0, 3));
    EXPECT_EQ(placement->nodes()[0].weight, 3u);
  }
}

/// How many of keys "k0".."k1999" move between two survivors when
/// nodes()[removed] of `full` is removed.
int keys_moved_between_survivors(const Placement& full, std::size_t removed) {
  const auto edited = full.clone();
  EXPECT_TRUE(edited->remove(removed));
  int moved = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "k" + std::to_string(i);
    const std::uint32_t before = full.locate(key);
    if (before != removed && full.nodes()[before] != edited->nodes()[edited->locate(key)]) ++moved;
  }
  return moved;
}

TEST(Ketama, RemovingAServerCanMoveKeysBetweenSurvivors) {
  // 100 -> 99 equal servers: 156 -> 160 points each, and the new points take
  // keys from other survivors. Unequal weights: every share changes.
  EXPECT_FALSE((**find_algorithm("ketama")).removes_any_bucket);
  EXPECT_GT(keys_moved_between_survivors(*build("ketama", system_config("servers100")), 50), 0);
  EXPECT_GT(keys_moved_between_survivors(*build("ketama", system_config("servers4_weighted")), 1), 0);
  // Plain mode at weight 1 has a fixed 100 points per server: only the
  // removed server's keys move.
  EXPECT_EQ(keys_moved_between_survivors(*build("ketama", system_config("servers100"), {"mode=plain"}), 50),
            0);
}

TEST(Libketama, RemovingAServerCanMoveKeysBetweenSurvivors) {
  // 62 -> 61 equal servers: 40 -> 39 digests each (float rounding).
  EXPECT_FALSE((**find_algorithm("libketama")).removes_any_bucket);
  EXPECT_GT(keys_moved_between_survivors(*build("libketama", numbered_nodes(62)), 10), 0);
  EXPECT_GT(keys_moved_between_survivors(*build("libketama", system_config("servers4_weighted")), 1), 0);
  EXPECT_EQ(keys_moved_between_survivors(*build("libketama", system_config("servers100")), 50), 0);
}

TEST(Ketama, DescribesItself) {
  for (const std::string_view name : {"ketama", "libketama"}) {
    const Algorithm& algorithm = **find_algorithm(name);
    EXPECT_EQ(algorithm.kind, AlgorithmKind::node_set) << name;
    EXPECT_TRUE(algorithm.consistent) << name;
    EXPECT_TRUE(algorithm.weights) << name;
  }
  EXPECT_EQ((**find_algorithm("ketama")).options.size(), 1u);
  EXPECT_TRUE((**find_algorithm("libketama")).options.empty());
}

}  // namespace
}  // namespace jumphash
