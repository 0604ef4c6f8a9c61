// MementoHash against the authors' engines: every row of memento_cpp.tsv
// (C++ engine) and memento_java.tsv (Java engine, four hash functions), and
// the edit semantics of the node-list model (only a removed node's keys
// move, adds restore the last removed slot, round trips restore every key).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

using testing::read_tsv;
using testing::TsvRow;

std::unique_ptr<Placement> build(std::string_view algorithm_name, const NodeList& nodes,
                                 std::vector<std::string_view> options = {}) {
  const Algorithm& algorithm = **find_algorithm(algorithm_name);
  const Result<OptionValues> values =
      OptionValues::parse(algorithm.options, options, algorithm.name);
  EXPECT_TRUE(values) << values.error();
  Result<std::unique_ptr<Placement>> placement = algorithm.build(nodes, *values);
  EXPECT_TRUE(placement) << placement.error();
  return std::move(placement).value();
}

std::string node_of(const Placement& placement, const std::string& key) {
  return placement.nodes()[placement.locate(key)].name;
}

/// Builds scenario `n`, `ops` ("-" or e.g. "r3,r7,a"). Nodes are named after
/// the slot they own: "0".."n-1" at first, and an added node after the slot
/// MementoHash must restore (the last removed one, LIFO; else a new slot at
/// the end), so a located node's name is the engine's bucket.
std::unique_ptr<Placement> scenario(std::string_view algorithm_name, std::int64_t n,
                                    const std::string& ops,
                                    std::vector<std::string_view> options = {}) {
  std::unique_ptr<Placement> placement =
      build(algorithm_name, numbered_nodes(n), std::move(options));
  if (ops == "-") return placement;
  std::vector<std::int64_t> removed_slots;
  std::int64_t slot_count = n;
  std::size_t start = 0;
  while (start <= ops.size()) {
    const std::size_t comma = std::min(ops.find(',', start), ops.size());
    const std::string op = ops.substr(start, comma - start);
    start = comma + 1;
    if (op == "a") {
      std::int64_t slot = slot_count;
      if (!removed_slots.empty()) {
        slot = removed_slots.back();
        removed_slots.pop_back();
      }
      slot_count = std::max(slot_count, slot + 1);
      EXPECT_TRUE(placement->add(Node{std::to_string(slot)}));
    } else {
      EXPECT_EQ(op[0], 'r') << ops;
      const std::int64_t index = find_node(placement->nodes(), op.substr(1));
      EXPECT_GE(index, 0) << ops;
      EXPECT_TRUE(placement->remove(static_cast<std::size_t>(index)));
      removed_slots.push_back(std::stoll(op.substr(1)));
    }
  }
  return placement;
}

/// Checks every row of `file`, building each scenario (and option set) once.
void expect_vectors(std::string_view algorithm_name, const std::string& file,
                    std::size_t expected_rows,
                    const std::map<std::string, std::string>& option_of_hash = {}) {
  const std::vector<TsvRow> rows = read_tsv("vectors/systems/" + file);
  ASSERT_EQ(rows.size(), expected_rows) << file;
  std::map<std::string, std::unique_ptr<Placement>> placements;
  std::size_t mismatches = 0;
  for (const TsvRow& row : rows) {
    std::string option;
    if (!option_of_hash.empty()) option = "hash=" + option_of_hash.at(row.at("hash"));
    const std::string id = row.at("scenario") + " " + option;
    auto& placement = placements[id];
    if (!placement) {
      std::vector<std::string_view> options;
      if (!option.empty()) options.push_back(option);
      placement = scenario(algorithm_name, std::stoll(row.at("n")), row.at("ops"), options);
    }
    const std::string got = node_of(*placement, row.at("key"));
    if (got != row.at("bucket") && ++mismatches <= 10) {
      ADD_FAILURE() << algorithm_name << " " << id << " key " << row.at("key") << ": slot " << got
                    << ", engine " << row.at("bucket");
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

TEST(Memento, MatchesTheCppEngineOnEveryVectorRow) {
  expect_vectors("memento", "memento_cpp.tsv", 2870);
}

TEST(Memento, MatchesTheJavaEngineOnEveryVectorRowOfEveryHash) {
  expect_vectors("memento-java", "memento_java.tsv", 11480,
                 {{"CRC32", "crc32"}, {"MD5", "md5"}, {"XX", "xxhash32"}, {"MURMUR3", "murmur3"}});
}

std::vector<std::string> keys(int count) {
  std::vector<std::string> result;
  for (int i = 0; i < count; ++i) result.push_back("key" + std::to_string(i));
  return result;
}

const char* const kEngines[] = {"memento", "memento-java"};

TEST(Memento, RemovingAnyNodeMovesOnlyItsKeys) {
  for (const char* engine : kEngines) {
    for (const auto& [n, removed] : {std::pair{10, 3}, std::pair{100, 50}}) {
      std::unique_ptr<Placement> placement = build(engine, numbered_nodes(n));
      const std::vector<std::string> all = keys(10000);
      std::vector<std::string> before;
      for (const std::string& key : all) before.push_back(node_of(*placement, key));
      ASSERT_TRUE(placement->remove(static_cast<std::size_t>(removed)));
      const std::string removed_name = std::to_string(removed);
      std::size_t moved = 0;
      for (std::size_t i = 0; i < before.size(); ++i) {
        const std::string after = node_of(*placement, all[i]);
        EXPECT_NE(after, removed_name);
        if (before[i] == removed_name) {
          ++moved;
        } else {
          ASSERT_EQ(after, before[i]) << engine << " n " << n << " key " << i;
        }
      }
      EXPECT_GT(moved, 0u) << engine << " n " << n;
    }
  }
}

TEST(Memento, RemoveThenAddRestoresEveryKey) {
  // Middle removals (table entries), and tail removals first (jump hash's
  // own shrink, no entry) then a middle one.
  const std::vector<std::size_t> removals[] = {{7, 0, 17}, {19, 18, 5}};
  for (const char* engine : kEngines) {
    for (const std::vector<std::size_t>& indexes : removals) {
      std::unique_ptr<Placement> placement = build(engine, numbered_nodes(20));
      const std::vector<std::string> all = keys(10000);
      std::vector<std::string> before;
      for (const std::string& key : all) before.push_back(node_of(*placement, key));
      std::vector<std::string> removed;
      for (std::size_t index : indexes) {
        removed.push_back(placement->nodes()[index].name);
        ASSERT_TRUE(placement->remove(index));
      }
      // Adds restore the slots last-removed-first; each new node takes the
      // keys of the node that held its slot and goes to the end of the list.
      std::map<std::string, std::string> renamed;
      for (auto name = removed.rbegin(); name != removed.rend(); ++name) {
        renamed[*name] = "back" + *name;
        ASSERT_TRUE(placement->add(Node{"back" + *name}));
        EXPECT_EQ(placement->nodes().back().name, "back" + *name);
      }
      ASSERT_EQ(placement->nodes().size(), 20u);
      for (std::size_t i = 0; i < all.size(); ++i) {
        const auto rename = renamed.find(before[i]);
        ASSERT_EQ(node_of(*placement, all[i]), rename == renamed.end() ? before[i] : rename->second)
            << engine << " key " << all[i];
      }
    }
  }
}

TEST(Memento, AddsRestoreTheLastRemovedSlotFirst) {
  for (const char* engine : kEngines) {
    std::unique_ptr<Placement> original = build(engine, numbered_nodes(10));
    std::unique_ptr<Placement> placement = original->clone();
    for (const char* name : {"3", "7", "1"}) {
      ASSERT_TRUE(placement->remove(static_cast<std::size_t>(find_node(placement->nodes(), name))));
    }
    ASSERT_TRUE(placement->add(Node{"new-a"}));  // takes slot 1
    ASSERT_TRUE(placement->add(Node{"new-b"}));  // takes slot 7
    for (const std::string& key : keys(5000)) {
      const std::string was = node_of(*original, key);
      const std::string now = node_of(*placement, key);
      if (was == "1") {
        ASSERT_EQ(now, "new-a") << engine << " " << key;
      } else if (was == "7") {
        ASSERT_EQ(now, "new-b") << engine << " " << key;
      } else if (was != "3") {
        ASSERT_EQ(now, was) << engine << " " << key;
      }
    }
    // With nothing left to restore, an add appends slot 10.
    ASSERT_TRUE(placement->add(Node{"new-c"}));
    ASSERT_TRUE(placement->add(Node{"new-d"}));
    std::unique_ptr<Placement> eleven = build(engine, numbered_nodes(11));
    for (const std::string& key : keys(5000)) {
      const std::string expected = node_of(*eleven, key);
      const std::string now = node_of(*placement, key);
      if (expected == "10") {
        EXPECT_EQ(now, "new-d") << engine << " " << key;
      }
    }
  }
}

TEST(Memento, ClonesAreIndependentAndStateGrowsWithRemovals) {
  for (const char* engine : kEngines) {
    std::unique_ptr<Placement> placement = build(engine, numbered_nodes(100));
    const std::size_t untouched = placement->state_bytes();
    std::unique_ptr<Placement> copy = placement->clone();
    ASSERT_TRUE(copy->remove(50));
    EXPECT_EQ(placement->nodes().size(), 100u);
    EXPECT_EQ(placement->state_bytes(), untouched);
    EXPECT_GT(copy->state_bytes(), untouched);  // a table entry, one node fewer to map
    // Removing the last node of an untouched table is jump hash's own shrink: no entry.
    std::unique_ptr<Placement> shrunk = placement->clone();
    ASSERT_TRUE(shrunk->remove(99));
    EXPECT_LT(shrunk->state_bytes(), untouched);
  }
}

TEST(Memento, HasNoWeights) {
  for (const char* engine : kEngines) {
    const Algorithm& algorithm = **find_algorithm(engine);
    EXPECT_TRUE(algorithm.consistent);
    EXPECT_TRUE(algorithm.removes_any_bucket);
    EXPECT_FALSE(algorithm.weights);
    std::unique_ptr<Placement> placement = build(engine, numbered_nodes(10));
    std::unique_ptr<Placement> heavy = placement->clone();
    ASSERT_TRUE(heavy->reweight(4, 1000));
    for (const std::string& key : keys(2000)) {
      EXPECT_EQ(node_of(*heavy, key), node_of(*placement, key));
    }
  }
}

TEST(Memento, JavaHashOptionRejectsUnknownHashes) {
  const Algorithm& algorithm = **find_algorithm("memento-java");
  const std::string_view bad[] = {"hash=sha1"};
  EXPECT_FALSE(OptionValues::parse(algorithm.options, bad, algorithm.name));
  EXPECT_EQ(OptionValues::defaults(algorithm.options).text("hash"), "crc32");
  EXPECT_TRUE((**find_algorithm("memento")).options.empty());
}

}  // namespace
}  // namespace jumphash
