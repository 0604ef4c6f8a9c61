// Helpers of the claims' runs; see measure.hpp.
#include "measure.hpp"

#include <cstdio>

namespace jumphash::claims_detail {

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  const std::size_t lead = digits.size() % 3;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (i + 3 - lead) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string percent(double fraction, int decimals) { return fixed(100 * fraction, decimals) + "%"; }

double chi_square_uniform(const std::uint64_t* counts, std::size_t cells, double& dof) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < cells; ++i) total += counts[i];
  dof = 0;
  if (total == 0 || cells < 2) return 0;
  const double expected = static_cast<double>(total) / static_cast<double>(cells);
  double chi_square = 0;
  for (std::size_t i = 0; i < cells; ++i) {
    const double diff = static_cast<double>(counts[i]) - expected;
    chi_square += diff * diff / expected;
  }
  dof = static_cast<double>(cells - 1);
  return chi_square;
}

double harmonic(std::int64_t n) {
  double sum = 0;
  for (std::int64_t i = n; i >= 1; --i) sum += 1.0 / static_cast<double>(i);
  return sum;
}

namespace {
volatile std::uint64_t sink = 0;
}  // namespace

void consume(std::uint64_t value) { sink = sink ^ value; }

std::vector<std::uint64_t> random_keys(std::uint64_t count, std::uint64_t start) {
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(count));
  for (std::uint64_t i = 0; i < count; ++i) keys[static_cast<std::size_t>(i)] = random_key(start, i);
  return keys;
}

}  // namespace jumphash::claims_detail
