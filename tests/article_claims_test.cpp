// The articles' claims, checked on this core: the article "JumpBackHash: Constant-Time Consistent Hashing by Walking Active Indices Backwards",
// the article "Jump Consistent Hash：表を持たずにシャード番号を決めるコンシステントハッシュと、その前提条件"
// and the exercise "Jump Consistent Hash".
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/reports.hpp"
#include "jumphash/splitmix64.hpp"

namespace jumphash {
namespace {

const Algorithm& algorithm(std::string_view name) { return **find_algorithm(name); }

// The exercise: key 42's jumps up to 800 buckets; bucket 43 at n = 100.
TEST(ArticleClaims, Key42JumpsWhereTheExerciseSays) {
  const auto steps = trace_key(algorithm("jump"), 42, 800);
  ASSERT_TRUE(steps);
  std::vector<std::pair<std::int64_t, std::int32_t>> got;
  for (const TraceStep& step : *steps) got.emplace_back(step.n, step.bucket);
  const std::vector<std::pair<std::int64_t, std::int32_t>> want{
      {1, 0}, {2, 1}, {3, 2}, {23, 22}, {34, 33}, {41, 40}, {44, 43}, {572, 571}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(jump_hash(42, 100), 43);
}

// The Japanese article: 10 -> 12 buckets moves 1/6 of the keys, modulo moves 5/6.
TEST(ArticleClaims, TenToTwelveMovesAboutOneSixthCounted) {
  const KeySet keys = *KeySet::parse("0..199999");
  for (const char* name : {"jump", "jump-guava", "jumpback", "jumpback-indep"}) {
    const std::uint64_t moved =
        for_each_moved(algorithm(name), keys, 10, 12, 0, keys.size(), [](auto...) {});
    EXPECT_NEAR(static_cast<double>(moved) / 200000.0, 1.0 / 6, 0.005) << name;
  }
  const std::uint64_t moved_modulo =
      for_each_moved(algorithm("modulo"), keys, 10, 12, 0, keys.size(), [](auto...) {});
  EXPECT_NEAR(static_cast<double>(moved_modulo) / 200000.0, 5.0 / 6, 0.005);
}

// The JumpBackHash article, eq. 25: E[calls] = 1 + (a-1)a/(2a-1), a = 2^ceil(log2 n)/n.
TEST(ArticleClaims, JumpBackGeneratorCallsMatchEquation25) {
  for (std::int32_t n : {129, 65537, 1000000}) {
    const double a = std::exp2(std::ceil(std::log2(static_cast<double>(n)))) / n;
    const double predicted = 1 + (a - 1) * a / (2 * a - 1);
    std::uint64_t calls = 0;
    std::uint64_t state = 2024;
    const int keys = 200000;
    for (int i = 0; i < keys; ++i) jump_back_hash_counting(splitmix64_next(state), n, &calls);
    const double measured = static_cast<double>(calls) / keys;
    EXPECT_NEAR(measured, predicted, 0.02) << "n " << n;
  }
}

// The JumpBackHash article: switching algorithms reshuffles; agreement is the 1/n of chance.
TEST(ArticleClaims, JumpAndJumpBackAgreeOnAboutOneKeyInN) {
  std::uint64_t state = 99;
  int agree = 0;
  const int keys = 400000;
  for (int i = 0; i < keys; ++i) {
    const std::uint64_t key = splitmix64_next(state);
    agree += jump_hash(key, 100) == jump_back_hash(key, 100);
  }
  EXPECT_NEAR(static_cast<double>(agree) / keys, 0.01, 0.0015);
}

// The JumpBackHash article: on 16 -> 4, where each removed shard's keys go. Uniform for jump
// and jumpback-indep; heavily skewed for jumpback (the article measured
// chi2/dof 1035 on 16 -> 4). The per-source chi-squares are pooled (their sum
// is chi-square with the summed dof under uniformity) and compared with
// dof + 4 sd, a p-value of about 1e-4.
struct PooledChiSquare {
  double chi_square = 0;
  double dof = 0;
  double bound() const { return dof + 4 * std::sqrt(2 * dof); }
};

PooledChiSquare pooled_flow_chi_square(const char* name, std::int32_t from, std::int32_t to) {
  Result<ResizeReport> report = ResizeReport::create(algorithm(name), from, to, 0);
  const KeySet keys = *KeySet::parse("random:600000:12345");
  report.value().add(keys, 0, keys.size());
  PooledChiSquare pooled;
  for (std::int32_t source = to; source < from; ++source) {
    const auto balance = report->flow_balance(source);
    pooled.chi_square += balance.chi_square;
    pooled.dof += static_cast<double>(balance.degrees_of_freedom);
  }
  return pooled;
}

TEST(ArticleClaims, ShrinkFlowsAreUniformExceptForJumpBack) {
  for (const auto& [from, to] : {std::pair{16, 4}, std::pair{32, 8}, std::pair{300, 100}}) {
    for (const char* uniform : {"jump", "jumpback-indep"}) {
      const PooledChiSquare pooled = pooled_flow_chi_square(uniform, from, to);
      EXPECT_LT(pooled.chi_square, pooled.bound()) << uniform << " " << from << "->" << to;
    }
    const PooledChiSquare skewed = pooled_flow_chi_square("jumpback", from, to);
    EXPECT_GT(skewed.chi_square, 10 * skewed.dof) << from << "->" << to;
  }
}

// The Japanese article: the paper's code returns -1 for n <= 0; ours reports an error.
TEST(ArticleClaims, NonPositiveBucketCountIsAnErrorNotMinusOne) {
  for (const Algorithm& each : bucket_count_algorithms()) {
    EXPECT_FALSE(each.bucket(42, 0));
    EXPECT_FALSE(each.bucket(42, -5));
  }
}

// The Japanese article: removing a middle bucket by lowering n does not drop that
// bucket; it drops the last one. With n 10 -> 9, bucket 3 keeps its keys and
// only bucket 9's keys move.
TEST(ArticleClaims, LoweringNRemovesTheLastBucketNotAMiddleOne) {
  const KeySet keys = *KeySet::parse("random:100000:3");
  Result<ResizeReport> report = ResizeReport::create(algorithm("jump"), 10, 9, 0);
  report.value().add(keys, 0, keys.size());
  for (std::int32_t source = 0; source < 9; ++source) {
    EXPECT_EQ(report->flow_balance(source).moved_out, 0u) << source;
  }
  EXPECT_EQ(report->moved(), report->loads_before()[9]);
}

}  // namespace
}  // namespace jumphash
