// Every limit of jumphash, stated once: the constants the core checks, and
// the table `limits()` that `jumphash --help`, the README and the page show.
//
// Each constant is the largest value allowed; one more is an error whose
// message names the limit (what it bounds and its value), except where a
// row says otherwise. The headers that used to hold these constants
// (keys.hpp, algorithms.hpp, reports.hpp, nodes.hpp, checker.hpp) include
// this one, so `jumphash::kMaxBuckets` and the others keep their names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace jumphash {

/// Largest number of keys one key set (KEYS) may hold.
inline constexpr std::uint64_t kMaxKeysPerSet = 1000000000;
/// Largest bucket count any algorithm accepts: 2^31 - 1, the int32 limit of
/// the paper's signature `int32_t JumpConsistentHash(uint64_t, int32_t)`.
inline constexpr std::int64_t kMaxBuckets = 2147483647;
/// Largest bucket count of a LOAD report (one counter per bucket).
inline constexpr std::int64_t kMaxLoadBuckets = 1000000;
/// Largest `max` of a TRACE with a non-consistent algorithm (modulo), whose
/// bucket changes at almost every n.
inline constexpr std::int64_t kMaxModuloTrace = 1000000;
/// Largest from x to of the source -> destination matrix a resize keeps.
inline constexpr std::uint64_t kMaxFlowCells = std::uint64_t{1} << 22;
/// Largest weight of one node.
inline constexpr std::uint32_t kMaxNodeWeight = 1000000;
/// Largest number of nodes in one list (and largest bucket count that a
/// node-set algorithm turns into nodes "0".."n-1").
inline constexpr std::int64_t kMaxNodes = 100000;
/// Longest node name, in bytes.
inline constexpr std::size_t kMaxNodeNameBytes = 1024;
/// Most points (ring entries, table slots) one placement may hold: 2^24,
/// 128 MiB of 64-bit ring points. A weighted nginx ring (160 points per unit
/// of weight) reaches it first.
inline constexpr std::uint64_t kMaxPlacementPoints = std::uint64_t{1} << 24;
/// Largest number of lines the checker compares on either side; a script
/// that prints more (or student output that has more) is an Error.
inline constexpr std::uint64_t kMaxCheckedLines = 1000000;
/// Largest student output the checker reads (check_output: `jumphash
/// check`, the package's check(), the page), in bytes: 64 MiB, as much as
/// the page reads from a file.
/// More is an Error before the script runs.
inline constexpr std::uint64_t kMaxCheckOutputBytes = std::uint64_t{64} << 20;
/// Largest script run as one text (Interpreter::run, run_script: the
/// package's run() and the page's console), in bytes: 64 MiB. The CLI reads
/// a script file line by line and has no such limit.
inline constexpr std::uint64_t kMaxScriptBytes = std::uint64_t{64} << 20;
/// Most output run_script collects in memory (stdout and error lines
/// together), in bytes: 64 MiB. A run that would pass it stops with an
/// error after the last whole line that fits; the CLI streams output of any
/// size.
inline constexpr std::uint64_t kMaxRunOutputBytes = std::uint64_t{64} << 20;
/// Most output one streamed run sends to the page's console (the
/// package's runStream() with this as maxOutputBytes), stdout and error
/// lines together, in bytes: 256 MiB, which the page keeps as Blob parts for
/// Download. A run that would pass it stops with an error after the last
/// whole line that fits; the CLI streams output of any size.
inline constexpr std::uint64_t kMaxStreamOutputBytes = std::uint64_t{256} << 20;
/// Lookups an embedded console computes before a reader clicks "Run all of
/// it" (its automatic run is under this budget): 10^7, well under a second.
inline constexpr std::uint64_t kMaxEmbedLookups = 10000000;
/// Longest value of one field in a shared link (a pasted key or node list,
/// a script), in characters; the page enforces it when it opens a link.
inline constexpr std::uint64_t kMaxLinkFieldChars = 1000000;
/// Longest shared link the page writes, the page's own address included, in
/// characters: 2,000,000. Chromium drops a longer URL without a word (after
/// a reload the work is gone); a larger scenario is offered as a file.
inline constexpr std::uint64_t kMaxLinkChars = 2000000;
/// Longest list (of keys) the page takes from one paste or text drop, in
/// characters (UTF-16 code units): 64 Mi, about three million 20-digit keys.
/// Larger key sets are written as ranges or random:N:seed, or run in the CLI.
inline constexpr std::uint64_t kMaxPastedListChars = std::uint64_t{64} << 20;

/// One row of the limits table.
struct Limit {
  std::string_view name;         ///< stable identifier, e.g. "keys-per-set"
  std::uint64_t value = 0;       ///< the largest allowed value
  std::string_view unit;         ///< what `value` counts: "keys", "buckets", "bytes", ...
  std::string_view bounds;       ///< what it bounds, for a reader
  std::string_view enforced_by;  ///< "core" (every face) or "page" (the web page only)
};

/// Every limit, in the order --help and the README list them.
inline std::span<const Limit> limits() {
  static constexpr Limit kLimits[] = {
      {"keys-per-set", kMaxKeysPerSet, "keys", "keys in one key set (KEYS)", "core"},
      {"buckets", static_cast<std::uint64_t>(kMaxBuckets), "buckets",
       "bucket count n of every algorithm (2^31-1)", "core"},
      {"load-buckets", static_cast<std::uint64_t>(kMaxLoadBuckets), "buckets",
       "bucket count of LOAD and of the page's load and resize reports", "core"},
      {"modulo-trace", static_cast<std::uint64_t>(kMaxModuloTrace), "buckets",
       "TRACE max for modulo (its bucket changes at almost every n)", "core"},
      {"flow-cells", kMaxFlowCells, "cells",
       "from x to of a resize's source -> destination matrix; above it no matrix is kept", "core"},
      {"nodes", static_cast<std::uint64_t>(kMaxNodes), "nodes",
       "nodes in one list (NODES), and a bucket count given to a node-set algorithm", "core"},
      {"node-weight", kMaxNodeWeight, "units", "weight of one node (name*weight)", "core"},
      {"node-name-bytes", kMaxNodeNameBytes, "bytes", "length of one node name", "core"},
      {"placement-points", kMaxPlacementPoints, "points",
       "ring points or table slots of one placement (2^24)", "core"},
      {"checked-lines", kMaxCheckedLines, "lines",
       "lines the checker compares, on each side (script output, student output)", "core"},
      {"check-output-bytes", kMaxCheckOutputBytes, "bytes",
       "a student's output given to the checker (jumphash check, the package's check(), the "
       "page)",
       "core"},
      {"script-bytes", kMaxScriptBytes, "bytes",
       "a script run as one text (the package's run(), the page's console); the CLI "
       "streams a file of any size",
       "core"},
      {"run-output-bytes", kMaxRunOutputBytes, "bytes",
       "output and error lines one run() collects; the CLI streams any amount", "core"},
      {"stream-output-bytes", kMaxStreamOutputBytes, "bytes",
       "output and error lines the page's console streams from one run (kept for Download); the "
       "CLI streams any amount",
       "page"},
      {"embed-lookups", kMaxEmbedLookups, "lookups",
       "work an embedded console does before a reader clicks Run all of it", "page"},
      {"link-field-chars", kMaxLinkFieldChars, "characters",
       "one field of a shared link, such as a pasted key list or a script", "page"},
      {"link-chars", kMaxLinkChars, "characters",
       "a whole shared link, the page's address included; a larger scenario is offered as a file",
       "page"},
      {"pasted-list-chars", kMaxPastedListChars, "characters",
       "a list pasted or dropped into a Keys box; larger key sets are ranges, random:N:seed or "
       "the CLI",
       "page"},
  };
  return kLimits;
}

}  // namespace jumphash
