// Readers for the test data files under tests/ (vectors, CLI transcripts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jumphash::testing {

/// tests/ in the source tree.
std::string data_path(const std::string& relative);

/// The whole file, bytes as they are; fails the test when unreadable.
std::string read_file(const std::string& path);

/// One row of a vector file: algorithm (empty in files for one algorithm),
/// key, bucket count, expected bucket.
struct VectorRow {
  std::string algorithm;
  std::uint64_t key;
  std::int64_t n;
  std::int32_t bucket;
};

/// Reads a TSV with a header line naming the columns key, n, bucket and
/// optionally algo; '#' lines are comments.
std::vector<VectorRow> read_vectors(const std::string& relative);

}  // namespace jumphash::testing
