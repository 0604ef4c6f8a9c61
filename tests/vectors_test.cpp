// Reference vectors: Guava's and hash4j's outputs (tests/vectors/README.md)
// and the independent Python reference (tests/reference/reference.py).
#include <gtest/gtest.h>

#include "jumphash/algorithms.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

using testing::read_vectors;

TEST(Vectors, JumpEqualsGuavaAndPaperOnEveryRow) {
  const auto rows = read_vectors("vectors/jump.tsv");
  ASSERT_EQ(rows.size(), 900u);
  for (const auto& row : rows) {
    EXPECT_EQ(jump_hash(row.key, static_cast<std::int32_t>(row.n)), row.bucket)
        << "key " << row.key << " n " << row.n;
  }
}

TEST(Vectors, JumpGuavaEqualsGuavaOnEveryRow) {
  for (const auto& row : read_vectors("vectors/jump.tsv")) {
    EXPECT_EQ(jump_hash_guava(row.key, static_cast<std::int32_t>(row.n)), row.bucket)
        << "key " << row.key << " n " << row.n;
  }
}

TEST(Vectors, JumpBackEqualsHash4jOnEveryRow) {
  const auto rows = read_vectors("vectors/jumpback.tsv");
  ASSERT_EQ(rows.size(), 900u);
  for (const auto& row : rows) {
    EXPECT_EQ(jump_back_hash(row.key, static_cast<std::int32_t>(row.n)), row.bucket)
        << "key " << row.key << " n " << row.n;
  }
}

// The two keys where Guava and the paper's C code disagree (vectors README).
TEST(Vectors, GuavaAndPaperDifferOnTheDocumentedKeys) {
  EXPECT_EQ(jump_hash_guava(628522610165938199ULL, 1000000), 851968);
  EXPECT_EQ(jump_hash(628522610165938199ULL, 1000000), 851967);
  for (std::int32_t n : {1, 2, 17, 100, 1000, 1000000, 2147483647}) {
    EXPECT_EQ(jump_hash_guava(18063469494497682072ULL, n), 0) << n;
  }
  EXPECT_EQ(jump_hash(18063469494497682072ULL, 100), 17);
}

TEST(Vectors, LargestKeyWithJumpBackAt100Is73) {
  EXPECT_EQ(jump_back_hash(18446744073709551615ULL, 100), 73);
}

TEST(Vectors, EveryAlgorithmMatchesTheIndependentReference) {
  const auto rows = read_vectors("vectors/reference.tsv");
  ASSERT_GT(rows.size(), 1000u);
  for (const auto& row : rows) {
    const Result<const Algorithm*> algorithm = find_algorithm(row.algorithm);
    ASSERT_TRUE(algorithm) << row.algorithm;
    EXPECT_EQ((*algorithm)->function(row.key, static_cast<std::int32_t>(row.n)), row.bucket)
        << row.algorithm << " key " << row.key << " n " << row.n;
  }
}

}  // namespace
}  // namespace jumphash
