// Claims of Ertl's JumpBackHash paper and of the article "JumpBackHash:
// Constant-Time Consistent Hashing by Walking Active Indices Backwards",
// measured on this core.
#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "checks.hpp"
#include "jumphash/algorithms.hpp"
#include "jumphash/reports.hpp"
#include "measure.hpp"
#include "runs.hpp"
#include "variants.hpp"

namespace jumphash::claims_detail {

namespace {

/// alpha_n = 2^ceil(log2 n) / n, in [1, 2).
double alpha_of(std::int32_t n) {
  const auto bits = std::bit_width(static_cast<std::uint32_t>(n - 1));
  return std::ldexp(1.0, static_cast<int>(bits)) / n;
}

/// Eq. 25: expected SplitMix64 calls of JumpBackHash*, 1 + (a-1)a/(2a-1).
double expected_calls(std::int32_t n) {
  const double a = alpha_of(n);
  return 1 + (a - 1) * a / (2 * a - 1);
}

/// The variance of the model behind eq. 25: calls = 1 + B W, with B a
/// Bernoulli((a-1)/a) (the key's top interval is populated and its first
/// candidate is not below n) and W the 64-bit words of rejection draws, a
/// geometric count with success (2a-1)/a^2 (two candidates per word, each
/// ending the loop with probability 1/a). Its mean is eq. 25.
double calls_variance(std::int32_t n) {
  const double a = alpha_of(n);
  const double enter = (a - 1) / a;
  const double success = (2 * a - 1) / (a * a);
  return enter * (2 - success) / (success * success) - enter * enter / (success * success);
}

const std::vector<std::int32_t> kTableSizes{129, 65537, 1000000};

}  // namespace

ClaimResult run_jumpback_generator_calls() {
  constexpr std::uint64_t kKeys = 200000;
  constexpr std::uint64_t kStart = 2024;
  std::string text;
  bool ok = true;
  for (std::int32_t n : kTableSizes) {
    MeanVariance calls;
    for (std::uint64_t i = 0; i < kKeys; ++i) {
      std::uint64_t count = 0;
      jump_back_hash_counting(random_key(kStart, i), n, &count);
      calls.add(static_cast<double>(count));
    }
    const double mean = expected_calls(n), variance = calls_variance(n);
    ok = ok && std::abs(calls.mean() - mean) <= 4 * calls.standard_error() &&
         std::abs(calls.variance() - variance) <= 0.02;
    if (!text.empty()) text += "; ";
    text += "n = " + std::to_string(n) + ": mean " + fixed(calls.mean(), 3) + " (eq. 25 " +
            fixed(mean, 3) + "), variance " + fixed(calls.variance(), 3) + " (model " +
            fixed(variance, 3) + ")";
  }
  // The curve: eq. 25 against measurement for n from 2 to 4096.
  ClaimSeries measured{"measured (20,000 keys each)", {}, {}}, predicted{"eq. 25", {}, {}};
  std::int32_t previous = 0;
  for (int step = 0; step <= 88; ++step) {
    const auto n = static_cast<std::int32_t>(std::lround(std::exp2(1 + step / 8.0)));
    if (n == previous) continue;
    previous = n;
    std::uint64_t count = 0;
    for (std::uint64_t i = 0; i < 20000; ++i) jump_back_hash_counting(random_key(n, i), n, &count);
    measured.x.push_back(n);
    measured.y.push_back(static_cast<double>(count) / 20000);
    predicted.x.push_back(n);
    predicted.y.push_back(expected_calls(n));
  }
  ClaimResult result;
  result.measured = text;
  result.verdict = verdict_of(ok);
  result.chart = ClaimChart{"JumpBackHash*: SplitMix64 calls per lookup",
                            "buckets n",
                            "calls per lookup",
                            false,
                            true,
                            {measured, predicted}};
  return result;
}

ClaimResult run_jump_loops_against_harmonic() {
  constexpr std::uint64_t kKeys = 200000;
  constexpr std::uint64_t kStart = 2024;
  std::string text;
  bool ok = true;
  for (std::int32_t n : kTableSizes) {
    MeanVariance loops;
    for (std::uint64_t i = 0; i < kKeys; ++i) {
      std::uint64_t count = 0;
      jump_hash_counting(random_key(kStart, i), n, &count);
      loops.add(static_cast<double>(count));
    }
    double variance = 0;
    for (std::int32_t i = 2; i <= n; ++i) variance += (1.0 / i) * (1 - 1.0 / i);
    const double h = harmonic(n);
    ok = ok && std::abs(loops.mean() - h) <= 4 * std::sqrt(variance / kKeys);
    if (!text.empty()) text += "; ";
    text +=
        "n = " + std::to_string(n) + ": " + fixed(loops.mean(), 2) + " (H_n " + fixed(h, 2) + ")";
  }
  ClaimResult result;
  result.measured = text;
  result.verdict = verdict_of(ok);
  return result;
}

ClaimResult run_monotonicity() {
  constexpr std::uint64_t kKeys = 2000;
  constexpr std::int32_t kMaxN = 3000;
  std::string text;
  bool ok = true;
  for (std::string_view name : {"jumpback", "jumpback-indep", "jump"}) {
    const Algorithm& algorithm = **find_algorithm(name);
    std::uint64_t violations = 0;
    for (std::uint64_t i = 0; i < kKeys; ++i) {
      const std::uint64_t key = random_key(1, i);
      std::int32_t previous = 0;  // ch(k, 1)
      for (std::int32_t n = 2; n <= kMaxN; ++n) {
        const std::int32_t bucket = algorithm.function(key, n);
        if (bucket != previous && bucket != n - 1) ++violations;
        previous = bucket;
      }
    }
    ok = ok && violations == 0;
    if (!text.empty()) text += ", ";
    text += std::string(name) + " " + grouped(violations);
  }
  ClaimResult result;
  result.measured = "violations: " + text;
  result.verdict = verdict_of(ok);
  return result;
}

ClaimResult run_jumpback_uniform_at_100() {
  constexpr std::uint64_t kKeys = 1000000;
  std::vector<std::uint64_t> loads(100), loads_independent(100);
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    const std::uint64_t key = random_key(100, i);
    ++loads[static_cast<std::size_t>(jump_back_hash(key, 100))];
    ++loads_independent[static_cast<std::size_t>(jump_back_hash_independent(key, 100))];
  }
  double dof = 0, dof_independent = 0;
  const double chi_square = chi_square_uniform(loads.data(), loads.size(), dof);
  const double chi_square_independent =
      chi_square_uniform(loads_independent.data(), loads_independent.size(), dof_independent);
  const double spread = 4 * std::sqrt(2 * dof);
  ClaimResult result;
  result.measured = "jumpback: chi-square " + fixed(chi_square, 1) + " on " + fixed(dof, 0) +
                    " dof; jumpback-indep: " + fixed(chi_square_independent / dof_independent, 2) +
                    " per dof";
  result.verdict = verdict_of(std::abs(chi_square - dof) <= spread);
  return result;
}

ShrinkFlows shrink_flows(const Algorithm& algorithm, const KeySet& keys, std::int32_t from,
                         std::int32_t to) {
  Result<ResizeReport> report = ResizeReport::create(algorithm, from, to, 0);
  report.value().add(keys, 0, keys.size());
  ShrinkFlows flows{0, 0, 1e300, 0};
  for (std::int32_t source = to; source < from; ++source) {
    const ResizeReport::FlowBalance balance = report->flow_balance(source);
    flows.chi_square += balance.chi_square;
    flows.dof += static_cast<double>(balance.degrees_of_freedom);
    const double expected = static_cast<double>(balance.moved_out) / to;
    for (std::int32_t d = 0; d < to; ++d) {
      const double share = static_cast<double>(report->flow_matrix().count(
                               static_cast<std::size_t>(source * to + d))) /
                           expected;
      flows.lowest_share = std::min(flows.lowest_share, share);
      flows.highest_share = std::max(flows.highest_share, share);
    }
  }
  flows.lowest_share = std::min(flows.lowest_share, flows.highest_share);
  return flows;
}

bool flows_look_uniform(const ShrinkFlows& flows) {
  return flows.dof > 0 && flows.chi_square <= chi_square_upper_bound(flows.dof);
}

ClaimResult run_shrink_flows() {
  struct Resize {
    std::int32_t from, to;
    double published_jumpback;
  };
  const std::vector<Resize> resizes{{16, 4, 1035}, {32, 8, 791}, {256, 64, 127}, {300, 100, 32.5}};
  const KeySet keys = *KeySet::parse("random:600000:12345");
  std::string text;
  bool ok = true;
  ClaimSeries jumpback_series{"jumpback", {}, {}}, jump_series{"jump", {}, {}},
      independent_series{"jumpback-indep", {}, {}};
  double x = 0;
  for (const Resize& resize : resizes) {
    const ShrinkFlows jumpback =
        shrink_flows(**find_algorithm("jumpback"), keys, resize.from, resize.to);
    const ShrinkFlows jump = shrink_flows(**find_algorithm("jump"), keys, resize.from, resize.to);
    const ShrinkFlows independent =
        shrink_flows(**find_algorithm("jumpback-indep"), keys, resize.from, resize.to);
    ok = ok &&
         std::abs(jumpback.per_dof() - resize.published_jumpback) <=
             0.10 * resize.published_jumpback &&
         flows_look_uniform(jump) && flows_look_uniform(independent);
    if (!text.empty()) text += "; ";
    text += std::to_string(resize.from) + " -> " + std::to_string(resize.to) + ": jumpback " +
            fixed(jumpback.per_dof(), jumpback.per_dof() < 100 ? 1 : 0) + " (shares " +
            fixed(jumpback.lowest_share, 2) + "x-" + fixed(jumpback.highest_share, 2) +
            "x), jump " + fixed(jump.per_dof(), 2) + ", jumpback-indep " +
            fixed(independent.per_dof(), 2);
    x += 1;
    jumpback_series.x.push_back(x);
    jumpback_series.y.push_back(jumpback.per_dof());
    jump_series.x.push_back(x);
    jump_series.y.push_back(jump.per_dof());
    independent_series.x.push_back(x);
    independent_series.y.push_back(independent.per_dof());
  }
  ClaimResult result;
  result.measured = text;
  result.verdict = verdict_of(ok);
  result.chart = ClaimChart{
      "Chi-square/dof of removed buckets' destinations (1: 16->4, 2: 32->8, 3: 256->64, 4: "
      "300->100)",
      "resize",
      "chi-square / dof",
      false,
      false,
      {jumpback_series, jump_series, independent_series}};
  return result;
}

ClaimResult run_shard_12_destinations() {
  constexpr std::uint64_t kKeys = 2000000;
  std::uint64_t counts[4] = {0, 0, 0, 0}, independent[4] = {0, 0, 0, 0};
  std::uint64_t on_12 = 0, independent_on_12 = 0;
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    const std::uint64_t key = random_key(12, i);
    if (jump_back_hash(key, 16) == 12) {
      ++on_12;
      ++counts[jump_back_hash(key, 4)];
    }
    if (jump_back_hash_independent(key, 16) == 12) {
      ++independent_on_12;
      ++independent[jump_back_hash_independent(key, 4)];
    }
  }
  const auto share = [](std::uint64_t count, std::uint64_t total) {
    return static_cast<double>(count) / static_cast<double>(total);
  };
  ClaimSeries jumpback{"jumpback", {}, {}}, fixed_streams{"jumpback-indep", {}, {}};
  std::string text = "jumpback, " + grouped(on_12) + " keys on shard 12: to node 0 ";
  for (int d = 0; d < 4; ++d) {
    if (d != 0) text += ", " + std::to_string(d) + " ";
    text += percent(share(counts[d], on_12), 1);
    jumpback.x.push_back(d);
    jumpback.y.push_back(100 * share(counts[d], on_12));
    fixed_streams.x.push_back(d);
    fixed_streams.y.push_back(100 * share(independent[d], independent_on_12));
  }
  text += "; jumpback-indep: " + percent(share(independent[2], independent_on_12), 1) +
          " to node 2, " + percent(share(independent[3], independent_on_12), 1) + " to node 3";
  ClaimResult result;
  result.measured = text;
  result.verdict = verdict_of(within_binomial(counts[2], on_12, 0.375) &&
                              within_binomial(counts[3], on_12, 0.125));
  result.chart = ClaimChart{"Where shard 12's keys go on 16 -> 4",
                            "destination node",
                            "% of shard 12's keys",
                            false,
                            false,
                            {jumpback, fixed_streams}};
  return result;
}

ClaimResult run_jump_jumpback_agreement() {
  constexpr std::uint64_t kKeys = 1000000;
  std::uint64_t agree = 0;
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    const std::uint64_t key = random_key(99, i);
    agree += jump_hash(key, 100) == jump_back_hash(key, 100);
  }
  const double fraction = static_cast<double>(agree) / kKeys;
  ClaimResult result;
  result.measured =
      grouped(agree) + " of " + grouped(kKeys) + " keys agree (" + percent(fraction, 3) + ")";
  result.verdict = verdict_of(within_binomial(agree, kKeys, 0.01));
  return result;
}

ClaimResult run_key_as_v_shortcut() {
  constexpr std::int32_t kBuckets = 100;
  constexpr std::uint64_t kIds = 100000;
  std::vector<std::uint64_t> loads(kBuckets);
  for (std::uint64_t id = 0; id < kIds; ++id) {
    ++loads[static_cast<std::size_t>(jump_back_hash_key_as_v(id, kBuckets))];
  }
  const std::uint64_t max_load = *std::max_element(loads.begin(), loads.end());
  const auto empty = static_cast<std::uint64_t>(std::count(loads.begin(), loads.end(), 0u));
  const double max_over_mean =
      static_cast<double>(max_load) / (static_cast<double>(kIds) / kBuckets);

  constexpr std::uint64_t kHashedKeys = 1000000;
  std::set<std::uint32_t> low_bytes, low_bytes_jumpback;
  for (std::uint64_t i = 0; i < kHashedKeys; ++i) {
    const std::uint64_t key = random_key(1, i);
    if (jump_back_hash_key_as_v(key, kBuckets) == 3)
      low_bytes.insert(static_cast<std::uint32_t>(key & 0xFF));
    if (jump_back_hash(key, kBuckets) == 3)
      low_bytes_jumpback.insert(static_cast<std::uint32_t>(key & 0xFF));
  }
  ClaimSeries series{"key as V, ids 0..99999", {}, {}};
  for (std::int32_t b = 0; b < kBuckets; ++b) {
    series.x.push_back(b);
    series.y.push_back(static_cast<double>(loads[static_cast<std::size_t>(b)]) /
                       (static_cast<double>(kIds) / kBuckets));
  }
  ClaimResult result;
  result.measured = "ids 0..99999: largest bucket " + fixed(max_over_mean, 2) + "x the mean, " +
                    grouped(empty) +
                    " of 100 empty; hashed keys in bucket 3: " + std::to_string(low_bytes.size()) +
                    " of 256 low-byte values (" + std::to_string(low_bytes_jumpback.size()) +
                    " with JumpBackHash* itself)";
  result.verdict =
      verdict_of(std::lround(max_over_mean) == 25 && empty == 26 && low_bytes.size() == 128);
  result.chart = ClaimChart{"Load per bucket with the key as V (sequential ids)",
                            "bucket",
                            "load / mean",
                            false,
                            false,
                            {series}};
  return result;
}

ClaimResult run_two_level_routing() {
  constexpr std::uint64_t kKeys = 600000;
  enum Variant { jump_plain, jumpback_plain, independent_plain, jumpback_salted, kVariants };
  // counts[variant][shard][replica]
  std::vector<std::uint64_t> counts(kVariants * 16 * 4, 0);
  const auto cell = [&](int variant, std::int32_t shard, std::int32_t replica) -> std::uint64_t& {
    return counts[static_cast<std::size_t>((variant * 16 + shard) * 4 + replica)];
  };
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    const std::uint64_t key = random_key(12345, i);
    ++cell(jump_plain, jump_hash(key, 16), jump_hash(key, 4));
    const std::int32_t shard = jump_back_hash(key, 16);
    ++cell(jumpback_plain, shard, jump_back_hash(key, 4));
    ++cell(independent_plain, jump_back_hash_independent(key, 16),
           jump_back_hash_independent(key, 4));
    ++cell(jumpback_salted, shard, jump_back_hash(salted_key(key), 4));
  }
  // Keys of shards 0-3 whose replica is not their shard id.
  const auto off_diagonal = [&](int variant) {
    std::uint64_t off = 0;
    for (std::int32_t shard = 0; shard < 4; ++shard) {
      for (std::int32_t replica = 0; replica < 4; ++replica) {
        if (replica != shard) off += cell(variant, shard, replica);
      }
    }
    return off;
  };
  // Pooled chi-square/dof of the replicas of shards first..last, and its bound.
  const auto pooled = [&](int variant, std::int32_t first, std::int32_t last, double& bound) {
    double chi_square = 0, dof = 0;
    for (std::int32_t shard = first; shard <= last; ++shard) {
      double shard_dof = 0;
      chi_square += chi_square_uniform(&cell(variant, shard, 0), 4, shard_dof);
      dof += shard_dof;
    }
    bound = chi_square_upper_bound(dof) / dof;
    return chi_square / dof;
  };
  double bound_8_15 = 0, bound_4_15 = 0, bound_all = 0;
  const double jumpback_8_15 = pooled(jumpback_plain, 8, 15, bound_8_15);
  const double jump_4_15 = pooled(jump_plain, 4, 15, bound_4_15);
  const double independent_4_15 = pooled(independent_plain, 4, 15, bound_4_15);
  const double salted_all = pooled(jumpback_salted, 0, 15, bound_all);
  const std::uint64_t pinned_off =
      off_diagonal(jump_plain) + off_diagonal(jumpback_plain) + off_diagonal(independent_plain);
  ClaimResult result;
  result.measured = "shards 0-3, replica other than the shard id: " + grouped(pinned_off) +
                    " keys (jump, jumpback, jumpback-indep); replicas of shards 8-15 under " +
                    "jumpback: chi-square/dof " + fixed(jumpback_8_15, 1) +
                    "; shards 4-15 under jump " + fixed(jump_4_15, 2) + ", jumpback-indep " +
                    fixed(independent_4_15, 2) +
                    "; salted second level, shards 0-15: " + fixed(salted_all, 2);
  result.verdict = verdict_of(pinned_off == 0 && jumpback_8_15 > 10 && jump_4_15 <= bound_4_15 &&
                              independent_4_15 <= bound_4_15 && salted_all <= bound_all);
  return result;
}

}  // namespace jumphash::claims_detail
