// The claims' variants; see variants.hpp.
#include "variants.hpp"

#include <algorithm>
#include <bit>

namespace jumphash::claims_detail {

PaperRing::PaperRing(std::int32_t buckets, std::uint32_t points_per_bucket) : buckets_(buckets) {
  points_.reserve(static_cast<std::size_t>(buckets) * points_per_bucket);
  for (std::int32_t b = 0; b < buckets; ++b) {
    for (std::uint32_t p = 0; p < points_per_bucket; ++p) {
      points_.push_back({point_position(b, p), b});
    }
  }
  std::sort(points_.begin(), points_.end(), [](const Point& x, const Point& y) {
    return x.position != y.position ? x.position < y.position : x.bucket < y.bucket;
  });
}

std::int32_t PaperRing::bucket(std::uint64_t key) const {
  const std::uint32_t position = static_cast<std::uint32_t>(key >> 32);
  const auto found = std::lower_bound(
      points_.begin(), points_.end(), position,
      [](const Point& point, std::uint32_t value) { return point.position < value; });
  return found == points_.end() ? points_.front().bucket : found->bucket;
}

std::vector<double> PaperRing::shares() const {
  std::vector<double> shares(static_cast<std::size_t>(buckets_), 0.0);
  // Point i owns the positions after point i-1 up to its own (the last
  // point's arc wraps around zero to the first point).
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const std::uint32_t previous = points_[i == 0 ? points_.size() - 1 : i - 1].position;
    const std::uint32_t arc = points_[i].position - previous;  // wraps modulo 2^32
    shares[static_cast<std::size_t>(points_[i].bucket)] += static_cast<double>(arc);
  }
  for (double& share : shares) share /= 4294967296.0;
  return shares;
}

std::int32_t jump_back_hash_key_as_v(std::uint64_t key, std::int32_t n) {
  // Algorithm 6 as jump_back_hash implements it, with v = key.
  if (n <= 1) return 0;
  std::uint64_t state = key;
  const std::uint64_t v = key;
  const std::uint32_t bits_of_n_minus_1 =
      32U - static_cast<std::uint32_t>(std::countl_zero(static_cast<std::uint32_t>(n - 1)));
  std::uint32_t u = static_cast<std::uint32_t>(v ^ (v >> 32)) &
                    static_cast<std::uint32_t>((std::uint64_t{1} << bits_of_n_minus_1) - 1);
  const std::uint32_t un = static_cast<std::uint32_t>(n);
  while (u != 0) {
    const std::uint32_t q = std::uint32_t{1} << (31 - std::countl_zero(u));
    const unsigned parity_shift = (std::popcount(u) & 1U) * 32U;
    std::uint32_t b = q + (static_cast<std::uint32_t>(v >> parity_shift) & (q - 1));
    for (;;) {
      if (b < un) return static_cast<std::int32_t>(b);
      const std::uint64_t w = splitmix64_next(state);
      const std::uint32_t mask = (q << 1) - 1;
      b = static_cast<std::uint32_t>(w) & mask;
      if (b < q) break;
      if (b < un) return static_cast<std::int32_t>(b);
      b = static_cast<std::uint32_t>(w >> 32) & mask;
      if (b < q) break;
    }
    u ^= q;
  }
  return 0;
}

}  // namespace jumphash::claims_detail
