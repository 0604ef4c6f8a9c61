// Readers for the test data files under tests/ (vectors, CLI transcripts).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "jumphash/nodes.hpp"

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

/// One row of a TSV file: column name -> field.
using TsvRow = std::map<std::string, std::string>;

/// Reads a TSV with a header line (tests/<relative>); '#' lines are
/// comments. Fails the test when the file is unreadable.
std::vector<TsvRow> read_tsv(const std::string& relative);

/// The node list of `config` in tests/vectors/systems/configs.tsv, in index
/// order (names and weights). Fails the test when the config is unknown.
NodeList system_config(const std::string& config);

/// Names of the transcripts in tests/<directory>/ (files <name>.stdout),
/// sorted.
std::vector<std::string> transcript_names(const std::string& directory);

/// Runs the built CLI on transcript tests/<directory>/<name> and expects its
/// stdout, stderr and exit status to equal <name>.stdout, .stderr and .exit.
/// The command runs in tests/<directory>/ as `jumphash <name>.args contents`
/// when <name>.args exists, else `jumphash <name>.script`, with <name>.stdin
/// (else /dev/null) as standard input. Fails when the transcript is missing.
void expect_transcript(const std::string& cli, const std::string& directory,
                       const std::string& name);

/// The value of --transcript=NAME among the arguments, or "" (run them all).
std::string transcript_argument(int argc, char** argv);

}  // namespace jumphash::testing
