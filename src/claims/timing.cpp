// The speed claims, measured as ratios of loops within one run on this
// machine: the articles' times come from their machines (an Intel Xeon
// E5-1650 in 2014, an Apple M3 Pro), so only ratios compare.
#include <string>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "measure.hpp"
#include "runs.hpp"
#include "variants.hpp"

namespace jumphash::claims_detail {

namespace {

constexpr std::uint64_t kTimingKeys = 1 << 16;

std::string ratio_text(double ratio) { return fixed(ratio, 2) + "x"; }

}  // namespace

ClaimResult run_jump_vs_ring_speed() {
  const std::vector<std::uint64_t> keys = random_keys(kTimingKeys, 3);
  std::string text;
  bool ok = true;
  ClaimSeries ratios{"ring / jump", {}, {}};
  for (std::int32_t n : {10, 100, 1000}) {
    const PaperRing ring(n, 1000);
    const double jump_ns = nanoseconds_per_lookup(
        keys, n, [](std::uint64_t k, std::int32_t b) { return jump_hash(k, b); });
    const double ring_ns = nanoseconds_per_lookup(
        keys, n, [&ring](std::uint64_t k, std::int32_t) { return ring.bucket(k); });
    const double ratio = ring_ns / jump_ns;
    ok = ok && ratio >= 2.25 && ratio <= 5.0;
    if (!text.empty()) text += "; ";
    text += "n = " + std::to_string(n) + ": ring/jump " + ratio_text(ratio) + " (" +
            fixed(ring_ns, 1) + " vs " + fixed(jump_ns, 1) + " ns)";
    ratios.x.push_back(n);
    ratios.y.push_back(ratio);
  }
  ClaimResult result;
  result.measured = text;
  result.verdict = verdict_of(ok);
  result.chart = ClaimChart{"How much slower a 1000-point ring is than jump",
                            "buckets n",
                            "ring time / jump time",
                            false,
                            true,
                            {ratios}};
  return result;
}

ClaimResult run_lookup_times_against_modulo() {
  struct Published {
    std::int32_t n;
    double modulo, jump, jumpback;
  };
  const std::vector<Published> table{{128, 7.5, 61.8, 7.5},
                                     {129, 7.7, 60.4, 20.1},
                                     {1000000, 6.4, 150.1, 8.0},
                                     {1 << 30, 5.9, 220.7, 8.4}};
  const std::vector<std::uint64_t> keys = random_keys(kTimingKeys, 4);
  std::string text;
  ClaimSeries jump_series{"jump / modulo, here", {}, {}},
      jumpback_series{"JumpBackHash* / modulo, here", {}, {}},
      jump_published{"jump / modulo, article", {}, {}},
      jumpback_published{"JumpBackHash* / modulo, article", {}, {}};
  for (const Published& row : table) {
    const double modulo_ns = nanoseconds_per_lookup(
        keys, row.n, [](std::uint64_t k, std::int32_t b) { return modulo_hash(k, b); });
    const double jump_ns = nanoseconds_per_lookup(
        keys, row.n, [](std::uint64_t k, std::int32_t b) { return jump_hash(k, b); });
    const double jumpback_ns = nanoseconds_per_lookup(
        keys, row.n, [](std::uint64_t k, std::int32_t b) { return jump_back_hash(k, b); });
    if (!text.empty()) text += "; ";
    text += "n = " + std::to_string(row.n) + ": jump " + ratio_text(jump_ns / modulo_ns) +
            ", JumpBackHash* " + ratio_text(jumpback_ns / modulo_ns) + " (modulo " +
            fixed(modulo_ns, 1) + " ns)";
    for (ClaimSeries* s : {&jump_series, &jumpback_series, &jump_published, &jumpback_published}) {
      s->x.push_back(row.n);
    }
    jump_series.y.push_back(jump_ns / modulo_ns);
    jumpback_series.y.push_back(jumpback_ns / modulo_ns);
    jump_published.y.push_back(row.jump / row.modulo);
    jumpback_published.y.push_back(row.jumpback / row.modulo);
  }
  ClaimResult result;
  result.measured = "time / modulo's time: " + text;
  result.verdict = ClaimVerdict::measured_only;
  result.chart = ClaimChart{"Lookup time relative to modulo",
                            "buckets n",
                            "time / modulo time",
                            false,
                            true,
                            {jump_series, jumpback_series, jump_published, jumpback_published}};
  return result;
}

ClaimResult run_jumpback_against_divide() {
  const std::vector<std::uint64_t> keys = random_keys(kTimingKeys, 5);
  std::string text;
  bool ok = true;
  for (std::int32_t n : {128, 1024, 129, 1025}) {
    const double modulo_ns = nanoseconds_per_lookup(
        keys, n, [](std::uint64_t k, std::int32_t b) { return modulo_hash(k, b); });
    const double jumpback_ns = nanoseconds_per_lookup(
        keys, n, [](std::uint64_t k, std::int32_t b) { return jump_back_hash(k, b); });
    const double ratio = jumpback_ns / modulo_ns;
    const bool power_of_two = (n & (n - 1)) == 0;
    ok = ok && (power_of_two ? ratio >= 0.67 && ratio <= 1.5 : ratio >= 1.8 && ratio <= 3.5);
    if (!text.empty()) text += "; ";
    text += "n = " + std::to_string(n) + ": " + ratio_text(ratio);
  }
  ClaimResult result;
  result.measured = "JumpBackHash* / modulo: " + text;
  result.verdict = verdict_of(ok);
  return result;
}

}  // namespace jumphash::claims_detail
