// Claims of Lamping & Veach's paper, of the Japanese article that explains it
// and of the exercise "Jump Consistent Hash", measured on this core.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "checks.hpp"
#include "jumphash/algorithms.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/reports.hpp"
#include "measure.hpp"
#include "runs.hpp"
#include "variants.hpp"

namespace jumphash::claims_detail {

namespace {

const Algorithm& algorithm_named(std::string_view name) { return **find_algorithm(name); }

std::string join_numbers(const std::vector<std::int64_t>& values) {
  std::string out;
  for (std::int64_t value : values) {
    if (!out.empty()) out += ' ';
    out += std::to_string(value);
  }
  return out;
}

}  // namespace

ClaimResult run_jump_key_42_history() {
  const std::vector<std::int64_t> want_n{1, 2, 3, 23, 34, 41, 44, 572};
  const std::vector<std::int64_t> want_bucket{0, 1, 2, 22, 33, 40, 43, 571};
  constexpr std::int64_t kMax = 800;
  const auto steps = trace_key(algorithm_named("jump"), 42, kMax);
  std::vector<std::int64_t> got_n, got_bucket;
  ClaimSeries series{"key 42 under jump", {}, {}};
  for (const TraceStep& step : *steps) {
    got_n.push_back(step.n);
    got_bucket.push_back(step.bucket);
    series.x.push_back(static_cast<double>(step.n));
    series.y.push_back(step.bucket);
  }
  series.x.push_back(static_cast<double>(kMax));
  series.y.push_back(series.y.empty() ? 0 : series.y.back());
  const std::int32_t at_100 = jump_hash(42, 100);
  ClaimResult result;
  result.measured = "n " + join_numbers(got_n) + " -> bucket " + join_numbers(got_bucket) +
                    "; bucket " + std::to_string(at_100) + " at n = 100";
  result.verdict = verdict_of(got_n == want_n && got_bucket == want_bucket && at_100 == 43);
  result.chart = ClaimChart{
      "Key 42's bucket as the bucket count grows", "buckets n", "bucket", true, false, {series}};
  return result;
}

ClaimResult run_modulo_10_to_12() {
  constexpr std::uint64_t kKeys = 600000;  // 10,000 whole periods of lcm(10, 12) = 60
  std::uint64_t moved = 0, stayed_outside_0_to_9 = 0;
  for (std::uint64_t key = 0; key < kKeys; ++key) {
    const bool moves = modulo_hash(key, 10) != modulo_hash(key, 12);
    moved += moves;
    if (!moves && key % 60 >= 10) ++stayed_outside_0_to_9;
  }
  ClaimResult result;
  result.measured = grouped(moved) + " of " + grouped(kKeys) + " keys moved (" +
                    percent(static_cast<double>(moved) / kKeys, 2) + "); keys that stayed with " +
                    "key mod 60 outside 0..9: " + grouped(stayed_outside_0_to_9);
  result.verdict = verdict_of(moved * 6 == kKeys * 5 && stayed_outside_0_to_9 == 0);
  return result;
}

ClaimResult run_jump_10_to_12() {
  constexpr std::uint64_t kKeys = 1000000;
  constexpr std::uint64_t kStart = 1;
  std::uint64_t moved = 0, moved_elsewhere = 0, moved_modulo = 0;
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    const std::uint64_t key = random_key(kStart, i);
    const std::int32_t before = jump_hash(key, 10);
    const std::int32_t after = jump_hash(key, 12);
    if (before != after) {
      ++moved;
      if (after != 10 && after != 11) ++moved_elsewhere;
    }
    moved_modulo += modulo_hash(key, 10) != modulo_hash(key, 12);
  }
  const double fraction = static_cast<double>(moved) / kKeys;
  ClaimResult result;
  result.measured =
      grouped(moved) + " of " + grouped(kKeys) + " moved (" + percent(fraction, 2) +
      ", 1/6 = 16.67%); moved to a bucket other than 10 " + "or 11: " + grouped(moved_elsewhere) +
      "; modulo on the same keys: " + percent(static_cast<double>(moved_modulo) / kKeys, 2);
  result.verdict = verdict_of(within_binomial(moved, kKeys, 1.0 / 6) && moved_elsewhere == 0);
  return result;
}

ClaimResult run_jump_loop_below_ln_n() {
  constexpr std::uint64_t kKeys = 100000;
  constexpr std::uint64_t kStart = 7;
  const std::vector<std::int32_t> sizes{10, 100, 1000, 10000, 100000, 1000000};
  ClaimSeries measured{"measured mean loops", {}, {}}, expected{"H_n (expected loops)", {}, {}},
      bound{"ln(n) + 1", {}, {}};
  std::string text = "mean loops";
  bool all_ok = true;
  for (std::int32_t n : sizes) {
    MeanVariance loops;
    for (std::uint64_t i = 0; i < kKeys; ++i) {
      std::uint64_t count = 0;
      jump_hash_counting(random_key(kStart, i), n, &count);
      loops.add(static_cast<double>(count));
    }
    // Bucket i - 1 is an active index at count i with probability 1/i (i >= 2), and
    // bucket 0 always: loops = 1 + sum of Bernoulli(1/i), mean H_n.
    double variance = 0;
    for (std::int32_t i = 2; i <= n; ++i) variance += (1.0 / i) * (1 - 1.0 / i);
    const double h = harmonic(n);
    const double ln_bound = std::log(static_cast<double>(n)) + 1;
    const bool ok =
        loops.mean() < ln_bound && std::abs(loops.mean() - h) <= 4 * std::sqrt(variance / kKeys);
    all_ok = all_ok && ok;
    text += (text == "mean loops" ? " " : ", ") + fixed(loops.mean(), 3) +
            " at n = " + std::to_string(n) + " (H_n " + fixed(h, 3) +
            ", ln n + 1 = " + fixed(ln_bound, 3) + ")";
    for (ClaimSeries* s : {&measured, &expected, &bound}) s->x.push_back(n);
    measured.y.push_back(loops.mean());
    expected.y.push_back(h);
    bound.y.push_back(ln_bound);
  }
  ClaimResult result;
  result.measured = text;
  result.verdict = verdict_of(all_ok);
  result.chart =
      ClaimChart{"Jump's loop iterations per lookup", "buckets n", "loops per lookup", false, true,
                 {measured, expected, bound}};
  return result;
}

namespace {

/// Bucket size / mean size of every bucket of a ring, sorted.
std::vector<double> sorted_ring_sizes(std::int32_t buckets, std::uint32_t points_per_bucket) {
  const PaperRing ring(buckets, points_per_bucket);
  std::vector<double> ratios = ring.shares();
  for (double& ratio : ratios) ratio *= buckets;
  std::sort(ratios.begin(), ratios.end());
  return ratios;
}

/// The 0.5% and 99.5% quantiles (nearest rank) of sorted values.
RingSpread spread_of(const std::vector<double>& sorted) {
  const auto quantile = [&](double q) {
    return sorted[static_cast<std::size_t>(
        std::lround(q * static_cast<double>(sorted.size() - 1)))];
  };
  return {quantile(0.005), quantile(0.995)};
}

}  // namespace

RingSpread ring_spread(std::int32_t buckets, std::uint32_t points_per_bucket) {
  return spread_of(sorted_ring_sizes(buckets, points_per_bucket));
}

bool matches_published_ring_spread(const RingSpread& spread) {
  return std::abs(spread.low - 0.92) <= 0.01 && std::abs(spread.high - 1.09) <= 0.01;
}

ClaimResult run_ring_bucket_sizes() {
  constexpr std::int32_t kRingBuckets = 5000;
  constexpr std::uint32_t kPoints = 1000;
  const std::vector<double> ratios = sorted_ring_sizes(kRingBuckets, kPoints);
  const RingSpread spread = spread_of(ratios);

  constexpr std::int32_t kJumpBuckets = 1000;
  constexpr std::uint64_t kKeys = 2000000;
  std::vector<std::uint64_t> loads(kJumpBuckets);
  for (std::uint64_t i = 0; i < kKeys; ++i) ++loads[jump_hash(random_key(5, i), kJumpBuckets)];
  double dof = 0;
  const double chi_square = chi_square_uniform(loads.data(), loads.size(), dof);

  // A bucket's size is the sum of 1000 arcs, a Gamma(1000) variable of mean
  // 1: its 0.5% and 99.5% quantiles (Wilson-Hilferty) are what a ring of
  // random points should show.
  const double third = 1.0 / (9.0 * kPoints);
  const double z = 2.5758293035489;  // the 99.5% quantile of the normal distribution
  const double model_low = std::pow(1 - third - z * std::sqrt(third), 3);
  const double model_high = std::pow(1 - third + z * std::sqrt(third), 3);

  // The sorted sizes as a quantile curve, every fifth bucket and the last.
  ClaimSeries curve{"ring, 1000 points per bucket", {}, {}};
  const auto add_point = [&](std::size_t i) {
    curve.x.push_back(static_cast<double>(i) / static_cast<double>(ratios.size() - 1));
    curve.y.push_back(ratios[i]);
  };
  for (std::size_t i = 0; i < ratios.size(); i += 5) add_point(i);
  if ((ratios.size() - 1) % 5 != 0) add_point(ratios.size() - 1);
  ClaimResult result;
  result.measured = "ring: 99% of bucket sizes within " + fixed(spread.low, 3) + ".." +
                    fixed(spread.high, 3) + " of the mean (min " + fixed(ratios.front(), 3) +
                    ", max " + fixed(ratios.back(), 3) + "; random points give " +
                    fixed(model_low, 3) + ".." + fixed(model_high, 3) +
                    "); jump at n = 1000: chi-square/dof " + fixed(chi_square / dof, 3) + " on " +
                    grouped(kKeys) + " keys";
  result.verdict = verdict_of(matches_published_ring_spread(spread) &&
                              chi_square <= chi_square_upper_bound(dof));
  result.chart = ClaimChart{"Ring bucket sizes, sorted (1000 points per bucket)",
                            "fraction of buckets",
                            "size / mean size",
                            false,
                            false,
                            {curve}};
  return result;
}

namespace {

/// Bytes a container holds (asked for and not yet freed) in how many
/// blocks, and (with glibc) the bytes those blocks take in the heap: the
/// usable size plus the 8-byte chunk header.
struct AllocationTally {
  std::uint64_t requested = 0;
  std::uint64_t heap = 0;
  std::uint64_t blocks = 0;
};

template <class T>
struct CountingAllocator {
  using value_type = T;
  AllocationTally* tally;
  explicit CountingAllocator(AllocationTally* t) : tally(t) {}
  template <class U>
  CountingAllocator(const CountingAllocator<U>& other) : tally(other.tally) {}  // NOLINT
  T* allocate(std::size_t count) {
    void* block = std::malloc(count * sizeof(T));
    if (block == nullptr) throw std::bad_alloc();
    tally->requested += count * sizeof(T);
    ++tally->blocks;
#if defined(__GLIBC__)
    tally->heap += malloc_usable_size(block) + sizeof(std::size_t);
#endif
    return static_cast<T*>(block);
  }
  void deallocate(T* block, std::size_t count) {
    tally->requested -= count * sizeof(T);
    --tally->blocks;
#if defined(__GLIBC__)
    tally->heap -= malloc_usable_size(block) + sizeof(std::size_t);
#endif
    std::free(block);
  }
  template <class U>
  bool operator==(const CountingAllocator<U>& other) const {
    return tally == other.tally;
  }
};

constexpr double kMebibyte = 1024.0 * 1024.0;

}  // namespace

ClaimResult run_ring_memory() {
  const PaperRing ring(1000, 1000);
  const std::uint64_t vector_bytes = ring.points().size() * sizeof(PaperRing::Point);
  // Measured while the map is alive: a point whose position is already in
  // the map (a 32-bit collision) is allocated and freed again by emplace.
  AllocationTally tally, live;
  {
    using Allocator = CountingAllocator<std::pair<const std::uint32_t, std::int32_t>>;
    std::map<std::uint32_t, std::int32_t, std::less<std::uint32_t>, Allocator> tree{
        Allocator(&tally)};
    for (const PaperRing::Point& point : ring.points()) tree.emplace(point.position, point.bucket);
    live = tally;
  }
  std::string map_text =
      grouped(live.blocks) + " nodes, " + grouped(live.requested) + " B requested (" +
      fixed(static_cast<double>(live.requested) / kMebibyte, 1) + " MiB, " +
      std::to_string(live.requested / std::max<std::uint64_t>(1, live.blocks)) + " B a node)";
  if (live.heap != 0) {
    map_text += ", " + fixed(static_cast<double>(live.heap) / kMebibyte, 1) +
                " MiB in the heap with malloc's block headers and rounding";
  }
  const std::string vector_mib = fixed(static_cast<double>(vector_bytes) / kMebibyte, 1);
  ClaimResult result;
  result.measured = "sorted vector " + grouped(vector_bytes) + " B (" + vector_mib +
                    " MiB); std::map " + map_text + "; jump 0 B (nothing is built)";
  result.verdict = verdict_of(vector_mib == "7.6");
  return result;
}

ClaimResult run_add_bucket_sources() {
  // Jump: which of the 1000 old buckets give keys to bucket 1000.
  constexpr std::int32_t kBuckets = 1000;
  constexpr std::uint64_t kKeys = 20000000;
  std::vector<std::uint64_t> given(kBuckets);
  std::uint64_t moved = 0;
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    const std::uint64_t key = random_key(11, i);
    if (jump_hash(key, kBuckets + 1) == kBuckets) {
      ++moved;
      ++given[static_cast<std::size_t>(jump_hash(key, kBuckets))];
    }
  }
  const auto givers = static_cast<std::uint64_t>(
      std::count_if(given.begin(), given.end(), [](std::uint64_t g) { return g != 0; }));
  const double fraction = static_cast<double>(moved) / kKeys;
  const double p = 1.0 / (kBuckets + 1);
  double dof = 0;
  const double chi_square = chi_square_uniform(given.data(), given.size(), dof);

  // Ring with 10 points per bucket: the arc of each new point was held by
  // the next older point clockwise; those points' buckets give keys.
  const PaperRing ring(kBuckets + 1, 10);
  const auto& points = ring.points();
  std::vector<double> ring_given(kBuckets, 0.0);
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].bucket != kBuckets) continue;
    std::size_t next = i;
    do {
      next = (next + 1) % points.size();
    } while (points[next].bucket == kBuckets);
    const std::uint32_t previous = points[i == 0 ? points.size() - 1 : i - 1].position;
    ring_given[static_cast<std::size_t>(points[next].bucket)] +=
        static_cast<double>(static_cast<std::uint32_t>(points[i].position - previous)) /
        4294967296.0;
  }
  const auto ring_givers = static_cast<std::uint64_t>(
      std::count_if(ring_given.begin(), ring_given.end(), [](double g) { return g > 0; }));

  ClaimSeries jump_series{"jump", {}, {}}, ring_series{"ring, 10 points per bucket", {}, {}};
  const double per_bucket = static_cast<double>(kKeys) / kBuckets;
  for (std::int32_t b = 0; b < kBuckets; ++b) {
    jump_series.x.push_back(b);
    jump_series.y.push_back(100.0 * static_cast<double>(given[static_cast<std::size_t>(b)]) /
                            per_bucket);
    ring_series.x.push_back(b);
    ring_series.y.push_back(100.0 * ring_given[static_cast<std::size_t>(b)] * kBuckets);
  }
  ClaimResult result;
  result.measured = "jump: " + grouped(givers) + " of 1000 buckets give keys, " +
                    percent(fraction, 4) + " of all keys move (1/1001 = " + percent(p, 4) +
                    "), chi-square/dof across the givers " + fixed(chi_square / dof, 3) +
                    "; ring: " + grouped(ring_givers) + " buckets give keys";
  result.verdict = verdict_of(givers == kBuckets && within_binomial(moved, kKeys, p) &&
                              chi_square <= chi_square_upper_bound(dof) && ring_givers <= 10);
  result.chart = ClaimChart{"Share of each old bucket's keys taken by bucket 1000",
                            "old bucket",
                            "% of its keys given",
                            false,
                            false,
                            {jump_series, ring_series}};
  return result;
}

ClaimResult run_servers_array_removal() {
  const KeySet keys = *KeySet::parse("0..99999");
  std::string text;
  bool ok = true;
  for (std::string_view name : {"jump", "memento", "ketama", "rendezvous"}) {
    const Algorithm& algorithm = algorithm_named(name);
    Result<Cluster> before =
        Cluster::create(algorithm, OptionValues::defaults(algorithm.options), numbered_nodes(10));
    Cluster after = before->copy();
    (void)after.apply(NodeEdit{NodeEdit::Kind::remove, Node{"3", 1}});
    const std::uint64_t moved =
        for_each_moved_node(*before, after, keys, 0, keys.size(), [](auto&&...) {});
    std::uint64_t on_server_3 = 0;
    keys.for_each_key(0, keys.size(), [&](std::uint64_t value, const Key* key) {
      on_server_3 += before->locate(value, key) == 3;
    });
    if (!text.empty()) text += "; ";
    text += std::string(name) + ": " + grouped(moved) + " moved, " + grouped(on_server_3) +
            " were on server 3";
    ok = ok && (name == "jump" ? moved * 2 > keys.size() : moved == on_server_3);
  }
  ClaimResult result;
  result.measured = text + " (of " + grouped(keys.size()) + " keys)";
  result.verdict = verdict_of(ok);
  return result;
}

}  // namespace jumphash::claims_detail
