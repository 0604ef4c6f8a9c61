// Small helpers shared by the claims' runs: key lists, number formatting,
// chi-square bounds and a timing loop. Internal to src/claims/.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "jumphash/claims.hpp"
#include "jumphash/splitmix64.hpp"

namespace jumphash::claims_detail {

/// Key i (from 0) of the key set random:COUNT:START, the product's own
/// notation: SplitMix64's outputs from state START.
inline std::uint64_t random_key(std::uint64_t start, std::uint64_t i) {
  return splitmix64_at(start, i);
}

/// `value` with `decimals` digits after the point ("1.658").
std::string fixed(double value, int decimals);

/// An integer with thousands separators ("600,000").
std::string grouped(std::uint64_t value);

/// `fraction` as a percentage with `decimals` digits ("16.67%").
std::string percent(double fraction, int decimals);

/// Running mean and variance (Welford), for per-key counts.
class MeanVariance {
 public:
  void add(double value) {
    ++count_;
    const double delta = value - mean_;
    mean_ += delta / static_cast<double>(count_);
    m2_ += delta * (value - mean_);
  }
  std::uint64_t count() const { return count_; }
  double mean() const { return mean_; }
  /// The sample variance (n - 1 in the denominator); 0 for fewer than 2 values.
  double variance() const { return count_ < 2 ? 0 : m2_ / static_cast<double>(count_ - 1); }
  /// Standard error of the mean.
  double standard_error() const { return std::sqrt(variance() / static_cast<double>(count_)); }

 private:
  std::uint64_t count_ = 0;
  double mean_ = 0;
  double m2_ = 0;
};

/// Pearson's chi-square of `counts` against equal expected counts; `dof` is
/// set to cells - 1. 0 (and dof 0) when there are no counts.
double chi_square_uniform(const std::uint64_t* counts, std::size_t cells, double& dof);

/// The upper bound of a chi-square with `dof` degrees of freedom that
/// uniform data passes: dof + 4 standard deviations, sqrt(2 dof) each
/// (a p-value of about 1e-4).
inline double chi_square_upper_bound(double dof) { return dof + 4 * std::sqrt(2 * dof); }

/// Whether hits / total is within `deviations` standard deviations of a
/// binomial proportion p (the tolerance of the claims about fractions).
inline bool within_binomial(std::uint64_t hits, std::uint64_t total, double p,
                            double deviations = 4) {
  if (total == 0) return false;
  const double n = static_cast<double>(total);
  return std::abs(static_cast<double>(hits) / n - p) <= deviations * std::sqrt(p * (1 - p) / n);
}

/// H_n = 1 + 1/2 + ... + 1/n.
double harmonic(std::int64_t n);

/// Hides a value from the optimiser, so that a timing loop cannot fold a
/// constant bucket count into its arithmetic (k % 128 into k & 127).
inline std::int32_t opaque(std::int32_t value) {
  volatile std::int32_t hidden = value;
  return hidden;
}

/// Absorbs a timing loop's results so that it is not optimised away.
void consume(std::uint64_t value);

/// Nanoseconds per call of lookup(key, n) over `keys`, the best of
/// `repeats` passes of `rounds` rounds each (the fastest pass is the one
/// least disturbed by the rest of the machine).
template <class Lookup>
double nanoseconds_per_lookup(const std::vector<std::uint64_t>& keys, std::int32_t n, Lookup lookup,
                              int rounds = 8, int repeats = 5) {
  const std::int32_t hidden_n = opaque(n);
  double best = std::numeric_limits<double>::infinity();
  for (int repeat = 0; repeat < repeats; ++repeat) {
    std::uint64_t sum = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int round = 0; round < rounds; ++round) {
      for (std::uint64_t key : keys) sum += static_cast<std::uint64_t>(lookup(key, hidden_n));
    }
    const auto stop = std::chrono::steady_clock::now();
    consume(sum);
    const double ns = std::chrono::duration<double, std::nano>(stop - start).count();
    best = std::min(best, ns);
  }
  return best / (static_cast<double>(keys.size()) * rounds);
}

/// The keys random:COUNT:START as a vector (for timing loops).
std::vector<std::uint64_t> random_keys(std::uint64_t count, std::uint64_t start);

/// Verdict of a check that passed or failed.
inline ClaimVerdict verdict_of(bool reproduced) {
  return reproduced ? ClaimVerdict::reproduced : ClaimVerdict::differs;
}

}  // namespace jumphash::claims_detail
