// rendezvous against vectors from go-rendezvous with xxhash64
// (tests/vectors/systems/rendezvous_go.tsv) and its edits.
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

const Algorithm& rendezvous() { return **find_algorithm("rendezvous"); }

std::unique_ptr<Placement> build(const NodeList& nodes) {
  Result<std::unique_ptr<Placement>> built =
      rendezvous().build(nodes, OptionValues::defaults(rendezvous().options));
  EXPECT_TRUE(built) << built.error();
  return built ? std::move(built).value() : nullptr;
}

std::string node_of(const Placement& placement, std::string_view key) {
  return placement.nodes()[placement.locate(key)].name;
}

TEST(Rendezvous, MatchesGoRendezvousOnEveryVectorRow) {
  const std::vector<testing::TsvRow> rows = read_tsv("vectors/systems/rendezvous_go.tsv");
  ASSERT_EQ(rows.size(), 1640U);
  std::map<std::string, std::unique_ptr<Placement>> placements;
  std::size_t mismatches = 0;
  for (const testing::TsvRow& row : rows) {
    std::unique_ptr<Placement>& placement = placements[row.at("config")];
    if (!placement) placement = build(system_config(row.at("config")));
    ASSERT_TRUE(placement);
    const std::string got = node_of(*placement, row.at("key"));
    if (got != row.at("node") && ++mismatches <= 10) {
      ADD_FAILURE() << row.at("config") << " key " << row.at("key") << ": go-rendezvous picks "
                    << row.at("node") << ", got " << got;
    }
  }
  EXPECT_EQ(mismatches, 0U);
  EXPECT_EQ(placements.size(), 8U);
}

TEST(Rendezvous, RemovingAndAddingANodeMovesOnlyItsKeys) {
  const std::unique_ptr<Placement> full = build(system_config("servers10"));
  const std::unique_ptr<Placement> edited = full->clone();
  const Node removed = full->nodes()[3];
  ASSERT_TRUE(edited->remove(3));
  EXPECT_EQ(edited->nodes(), system_config("servers10_minus3"));
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "key" + std::to_string(i);
    if (node_of(*full, key) != removed.name) {
      EXPECT_EQ(node_of(*edited, key), node_of(*full, key)) << key;
    }
  }
  // Added back at the end, the node takes back exactly its keys (the score
  // does not depend on the position, only ties would).
  ASSERT_TRUE(edited->add(removed));
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "key" + std::to_string(i);
    EXPECT_EQ(node_of(*edited, key), node_of(*full, key)) << key;
  }
  EXPECT_EQ(edited->state_bytes(), 10U * 8U);
}

}  // namespace
}  // namespace jumphash
