// The measurements and criteria that the statistical claims apply, exposed
// so that tests can show a wrong implementation failing them. Internal to
// src/claims/ and the tests.
#pragma once

#include <cstdint>

#include "jumphash/algorithms.hpp"
#include "jumphash/keys.hpp"

namespace jumphash::claims_detail {

/// Where the keys of the removed buckets go when `algorithm` shrinks from
/// `from` to `to` buckets: the pooled chi-square (sum over the removed
/// buckets of the chi-square of their destination counts against uniform
/// over the survivors) per pooled dof, and the smallest and largest
/// destination share relative to uniform.
struct ShrinkFlows {
  double chi_square = 0;
  double dof = 0;
  double lowest_share = 0;
  double highest_share = 0;
  double per_dof() const { return dof == 0 ? 0 : chi_square / dof; }
};
ShrinkFlows shrink_flows(const Algorithm& algorithm, const KeySet& keys, std::int32_t from,
                         std::int32_t to);

/// The shrink-flows claim's test of uniformity: the pooled chi-square is
/// below dof + 4 standard deviations.
bool flows_look_uniform(const ShrinkFlows& flows);

/// The 0.5% and 99.5% quantiles of bucket size / mean size on a ring of
/// `buckets` x `points_per_bucket` random points (exact arc lengths).
struct RingSpread {
  double low = 0;
  double high = 0;
};
RingSpread ring_spread(std::int32_t buckets, std::uint32_t points_per_bucket);

/// The ring-size claim's criterion: both quantiles within 0.01 of the
/// published 0.92 and 1.09.
bool matches_published_ring_spread(const RingSpread& spread);

}  // namespace jumphash::claims_detail
