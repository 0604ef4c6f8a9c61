// The algorithm registry: stable names and what a user should know of each.
#include "jumphash/algorithms.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "algorithms/node_set_algorithms.hpp"
#include "jumphash/keys.hpp"

namespace jumphash {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

/// Every algorithm: the bucket-count ones, then the node-set ones (each
/// defined in its own file under src/algorithms/). Built on first use, so
/// the entries of the other files are initialised by then.
const std::array<Algorithm, 14>& registry() {
  static const std::array<Algorithm, 14> all{kJumpHash,
                                             kJumpHashGuava,
                                             kJumpBackHash,
                                             kJumpBackHashIndependent,
                                             kModuloHash,
                                             node_set::kKetama,
                                             node_set::kLibketama,
                                             node_set::kNginx,
                                             node_set::kGroupcache,
                                             node_set::kRendezvous,
                                             node_set::kEnvoyRing,
                                             node_set::kMaglev,
                                             node_set::kMemento,
                                             node_set::kMementoJava};
  return all;
}

}  // namespace

std::string_view kind_name(AlgorithmKind kind) {
  return kind == AlgorithmKind::bucket_count ? "bucket-count" : "node-set";
}

std::span<const Algorithm> algorithms() { return registry(); }

std::span<const Algorithm> bucket_count_algorithms() {
  static const std::size_t count = static_cast<std::size_t>(
      std::find_if(registry().begin(), registry().end(),
                   [](const Algorithm& a) { return a.kind != AlgorithmKind::bucket_count; }) -
      registry().begin());
  return std::span<const Algorithm>(registry()).first(count);
}

std::string algorithm_names() {
  std::string names;
  for (const Algorithm& algorithm : algorithms()) {
    if (!names.empty()) names += ", ";
    names += algorithm.name;
  }
  return names;
}

Result<const Algorithm*> find_algorithm(std::string_view name) {
  for (const Algorithm& algorithm : algorithms()) {
    if (equals_ignoring_case(algorithm.name, name)) return &algorithm;
  }
  return fail("unknown algorithm '", printable_input(name), "' (known: ", algorithm_names(), ")");
}

Result<std::int32_t> check_bucket_count(std::int64_t n, std::string_view what, std::int64_t max) {
  if (n < 1 || n > max) {
    return fail(std::string(what), " must be an integer in 1..", std::to_string(max), " (got '",
                std::to_string(n), "')");
  }
  return static_cast<std::int32_t>(n);
}

Result<std::int32_t> Algorithm::bucket(std::uint64_t key, std::int64_t n) const {
  if (kind != AlgorithmKind::bucket_count) {
    return fail(std::string(name), " places keys on named nodes, not on a bucket count alone");
  }
  Result<std::int32_t> checked = check_bucket_count(n);
  if (!checked) return checked;
  return function(key, *checked);
}

}  // namespace jumphash
