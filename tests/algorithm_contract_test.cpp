// Contract tests, written once and run for every algorithm of the registry:
// range, n = 1, n = 2^31 - 1, bad arguments, balance, and for the consistent
// ones monotonicity when growing and when shrinking.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/splitmix64.hpp"

namespace jumphash {
namespace {

class AlgorithmContract : public ::testing::TestWithParam<Algorithm> {
 protected:
  static std::vector<std::uint64_t> keys(std::size_t count, std::uint64_t seed = 7) {
    std::vector<std::uint64_t> result;
    std::uint64_t state = seed;
    for (std::size_t i = 0; i < count; ++i) result.push_back(splitmix64_next(state));
    // The edges of the key space, too.
    result.insert(result.end(), {0ULL, 1ULL, 1ULL << 63, ~0ULL, ~0ULL - 1});
    return result;
  }
};

TEST_P(AlgorithmContract, BucketIsAlwaysInRange) {
  const Algorithm& algorithm = GetParam();
  for (std::int32_t n : {1, 2, 3, 7, 10, 100, 129, 1000, 65537, 1000000, 1 << 30, 2147483647}) {
    for (std::uint64_t key : keys(500)) {
      const std::int32_t bucket = algorithm.function(key, n);
      ASSERT_GE(bucket, 0) << algorithm.name << " key " << key << " n " << n;
      ASSERT_LT(bucket, n) << algorithm.name << " key " << key << " n " << n;
    }
  }
}

TEST_P(AlgorithmContract, OneBucketMeansBucketZero) {
  for (std::uint64_t key : keys(1000)) EXPECT_EQ(GetParam().function(key, 1), 0);
}

TEST_P(AlgorithmContract, LargestBucketCountIsAccepted) {
  const Algorithm& algorithm = GetParam();
  for (std::uint64_t key : keys(200)) {
    const Result<std::int32_t> bucket = algorithm.bucket(key, kMaxBuckets);
    ASSERT_TRUE(bucket) << bucket.error();
    EXPECT_GE(*bucket, 0);
  }
}

TEST_P(AlgorithmContract, BadBucketCountsAreErrorsNotMinusOne) {
  const Algorithm& algorithm = GetParam();
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{-2147483648LL},
                         kMaxBuckets + 1, std::int64_t{1} << 40}) {
    const Result<std::int32_t> bucket = algorithm.bucket(42, n);
    ASSERT_FALSE(bucket) << algorithm.name << " accepted n = " << n;
    EXPECT_EQ(bucket.error(),
              "bucket count must be an integer in 1..2147483647 (got '" + std::to_string(n) + "')");
  }
}

TEST_P(AlgorithmContract, LoadsAreBalanced) {
  // Pearson's chi-square of 200,000 keys over 100 buckets (99 dof: mean 99,
  // sd 14); 170 is p ~ 1e-6. The keys are fixed, so the test is stable.
  const Algorithm& algorithm = GetParam();
  for (std::int32_t n : {100, 129}) {
    std::vector<double> loads(static_cast<std::size_t>(n));
    const auto all = keys(200000);
    for (std::uint64_t key : all) loads[static_cast<std::size_t>(algorithm.function(key, n))] += 1;
    const double expected = static_cast<double>(all.size()) / n;
    double chi_square = 0;
    for (double load : loads) chi_square += (load - expected) * (load - expected) / expected;
    const double dof = n - 1;
    EXPECT_LT(chi_square, dof + 5 * std::sqrt(2 * dof)) << algorithm.name << " n " << n;
  }
}

class ConsistentContract : public AlgorithmContract {};

TEST_P(ConsistentContract, GrowingMovesKeysOnlyToTheNewBucket) {
  const Algorithm& algorithm = GetParam();
  for (std::uint64_t key : keys(2000)) {
    std::int32_t previous = algorithm.function(key, 1);
    for (std::int32_t n = 2; n <= 300; ++n) {
      const std::int32_t bucket = algorithm.function(key, n);
      if (bucket != previous) {
        ASSERT_EQ(bucket, n - 1) << algorithm.name << " key " << key << " n " << n;
      }
      previous = bucket;
    }
  }
}

TEST_P(ConsistentContract, GrowingMovesAboutOneOverNPlusOne) {
  // 10 -> 11 must move 1/11 of the keys: 200,000 keys give sd 0.00064.
  const Algorithm& algorithm = GetParam();
  const auto all = keys(200000);
  std::size_t moved = 0;
  for (std::uint64_t key : all) moved += algorithm.function(key, 10) != algorithm.function(key, 11);
  EXPECT_NEAR(static_cast<double>(moved) / static_cast<double>(all.size()), 1.0 / 11, 0.004);
}

TEST_P(ConsistentContract, ShrinkingMovesOnlyKeysOfRemovedBuckets) {
  const Algorithm& algorithm = GetParam();
  const std::pair<std::int32_t, std::int32_t> resizes[] = {
      {16, 4}, {10, 9}, {300, 100}, {1000000, 999999}, {2147483647, 1 << 30}};
  for (const auto& [from, to] : resizes) {
    for (std::uint64_t key : keys(3000)) {
      const std::int32_t before = algorithm.function(key, from);
      const std::int32_t after = algorithm.function(key, to);
      if (before < to) {
        ASSERT_EQ(after, before) << algorithm.name << " key " << key << " " << from << "->" << to;
      }
    }
  }
}

std::vector<Algorithm> all_algorithms() {
  return {bucket_count_algorithms().begin(), bucket_count_algorithms().end()};
}

std::vector<Algorithm> consistent_algorithms() {
  std::vector<Algorithm> result;
  for (const Algorithm& algorithm : bucket_count_algorithms()) {
    if (algorithm.consistent) result.push_back(algorithm);
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

INSTANTIATE_TEST_SUITE_P(Every, AlgorithmContract, ::testing::ValuesIn(all_algorithms()), name_of);
INSTANTIATE_TEST_SUITE_P(Every, ConsistentContract, ::testing::ValuesIn(consistent_algorithms()),
                         name_of);

TEST(Registry, NamesAreStableAndLookupIgnoresCase) {
  EXPECT_EQ(algorithm_names(),
            "jump, jump-guava, jumpback, jumpback-indep, modulo, ketama, libketama, nginx, "
            "groupcache, rendezvous, envoy-ring, maglev, memento, memento-java");
  ASSERT_TRUE(find_algorithm("JumpBack"));
  EXPECT_EQ((*find_algorithm("JumpBack"))->id, AlgorithmId::jumpback);
  const Result<const Algorithm*> missing = find_algorithm("ring");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), "unknown algorithm 'ring' (known: " + algorithm_names() + ")");
}

TEST(Registry, BucketCountAlgorithmsComeFirstAndOnlyTheyHaveAFunction) {
  const auto all = algorithms();
  const auto bucket_count = bucket_count_algorithms();
  ASSERT_EQ(bucket_count.size(), 5u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Algorithm& algorithm = all[i];
    EXPECT_EQ(static_cast<std::size_t>(algorithm.id), i) << algorithm.name;
    EXPECT_EQ(algorithm.kind == AlgorithmKind::bucket_count, i < bucket_count.size()) << algorithm.name;
    EXPECT_EQ(algorithm.function != nullptr, algorithm.kind == AlgorithmKind::bucket_count)
        << algorithm.name;
    EXPECT_EQ(algorithm.build != nullptr, algorithm.kind == AlgorithmKind::node_set) << algorithm.name;
    EXPECT_FALSE(algorithm.title.empty()) << algorithm.name;
    EXPECT_FALSE(algorithm.paper.empty()) << algorithm.name;
    EXPECT_FALSE(algorithm.expected_cost.empty()) << algorithm.name;
    EXPECT_FALSE(algorithm.memory.empty()) << algorithm.name;
  }
}

TEST(Registry, OnlyModuloIsNotConsistentAndNoneRemovesAMiddleBucket) {
  for (const Algorithm& algorithm : bucket_count_algorithms()) {
    EXPECT_EQ(algorithm.consistent, algorithm.id != AlgorithmId::modulo) << algorithm.name;
    EXPECT_FALSE(algorithm.removes_any_bucket) << algorithm.name;
    EXPECT_FALSE(algorithm.paper.empty());
  }
}

TEST(Registry, VisitAlgorithmCallsTheSameFunctionAsTheRegistry) {
  for (const Algorithm& algorithm : bucket_count_algorithms()) {
    visit_algorithm(algorithm.id, [&](auto bucket_of) {
      for (std::uint64_t key : {0ULL, 42ULL, ~0ULL, 0x123456789ABCDEFULL}) {
        EXPECT_EQ(bucket_of(key, 1000), algorithm.function(key, 1000)) << algorithm.name;
      }
    });
  }
}

}  // namespace
}  // namespace jumphash
