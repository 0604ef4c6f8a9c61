// Batch lookups (jumphash/batch.hpp) against the scalar functions, on every
// path this machine supports (scalar, AVX2, AVX-512), and the report loops that use
// them (batched and threaded) against plain per-key loops.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "jumphash/batch.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/reports.hpp"
#include "jumphash/splitmix64.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

const Algorithm& algorithm_named(std::string_view name) { return **find_algorithm(name); }

/// The algorithms with SIMD kernels, by name.
const std::vector<std::string> kSimdAlgorithms = {"jump", "jumpback", "jumpback-indep"};

/// Restores the batch path and the report threads when a test ends.
class BatchTest : public ::testing::TestWithParam<BatchPath> {
 protected:
  void SetUp() override {
    if (!batch_path_supported(GetParam())) {
      GTEST_SKIP() << batch_path_name(GetParam()) << " is not supported on this machine";
    }
    saved_path_ = batch_path();
    ASSERT_TRUE(set_batch_path(GetParam()));
  }
  void TearDown() override {
    set_batch_path(saved_path_);
    set_report_threads(1);
  }

 private:
  BatchPath saved_path_ = BatchPath::scalar;
};

std::vector<std::int32_t> batch(const Algorithm& algorithm, const std::vector<std::uint64_t>& keys,
                                std::int32_t n) {
  std::vector<std::int32_t> out(keys.size(), -7);
  buckets_batch(algorithm, keys, n, out);
  return out;
}

/// Runs the rows of a vector file through buckets_batch, grouped by
/// algorithm and n (so that batches hold many keys), and expects each row.
void expect_vector_rows(const std::string& file, const std::string& only_algorithm) {
  std::map<std::pair<std::string, std::int64_t>, std::vector<testing::VectorRow>> groups;
  for (const testing::VectorRow& row : testing::read_vectors(file)) {
    const std::string name = row.algorithm.empty() ? only_algorithm : row.algorithm;
    groups[{name, row.n}].push_back(row);
  }
  ASSERT_GT(groups.size(), 10u) << file;
  for (const auto& [group, rows] : groups) {
    const Algorithm& algorithm = algorithm_named(group.first);
    std::vector<std::uint64_t> keys;
    for (const auto& row : rows) keys.push_back(row.key);
    const std::vector<std::int32_t> out =
        batch(algorithm, keys, static_cast<std::int32_t>(group.second));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(out[i], rows[i].bucket)
          << file << ": " << group.first << " key " << rows[i].key << " n " << group.second;
    }
  }
}

TEST_P(BatchTest, EqualsGuavaOnEveryJumpVectorRow) { expect_vector_rows("vectors/jump.tsv", "jump"); }

TEST_P(BatchTest, EqualsHash4jOnEveryJumpBackVectorRow) {
  expect_vector_rows("vectors/jumpback.tsv", "jumpback");
}

TEST_P(BatchTest, EqualsTheIndependentReferenceOnEveryRow) {
  expect_vector_rows("vectors/reference.tsv", "");
}

/// 10^6 SplitMix64 keys (state starting at 2024), the same for every test.
const std::vector<std::uint64_t>& million_random_keys() {
  static const std::vector<std::uint64_t> keys = [] {
    std::vector<std::uint64_t> result(1000000);
    std::uint64_t state = 2024;
    for (std::uint64_t& key : result) key = splitmix64_next(state);
    return result;
  }();
  return keys;
}

TEST_P(BatchTest, EqualsScalarOnAMillionRandomKeysAtEveryBucketCount) {
  const std::vector<std::uint64_t>& keys = million_random_keys();
  for (const std::string& name : kSimdAlgorithms) {
    const Algorithm& algorithm = algorithm_named(name);
    for (std::int32_t n : {1, 2, 128, 129, 1000, 1024, 65535, 1000000, 1 << 30, 2147483647}) {
      const std::vector<std::int32_t> out = batch(algorithm, keys, n);
      std::size_t mismatches = 0;
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::int32_t expected = algorithm.function(keys[i], n);
        if (out[i] != expected && ++mismatches <= 3) {
          ADD_FAILURE() << name << " n " << n << " key " << keys[i] << ": batch " << out[i]
                        << ", scalar " << expected;
        }
      }
      EXPECT_EQ(mismatches, 0u) << name << " n " << n;
    }
  }
}

// Keys that stress the kernels' arithmetic: all-ones top bits (jump's
// (key >> 33) + 1 = 2^31), zero, the largest keys.
TEST_P(BatchTest, EqualsScalarOnEdgeKeys) {
  std::vector<std::uint64_t> keys = {0,
                                     1,
                                     2,
                                     0x7FFFFFFFULL,
                                     0xFFFFFFFFULL,
                                     0x100000000ULL,
                                     0x8000000000000000ULL,
                                     0xFFFFFFFE00000000ULL,
                                     0xFFFFFFFFFFFFFFFEULL,
                                     0xFFFFFFFFFFFFFFFFULL,
                                     18063469494497682072ULL,
                                     628522610165938199ULL};
  for (std::uint64_t i = 0; i < 64; ++i) keys.push_back(std::uint64_t{1} << i);
  for (const Algorithm& algorithm : bucket_count_algorithms()) {
    for (std::int32_t n : {1, 2, 3, 7, 100, 65537, 1000000, 2147483647}) {
      const std::vector<std::int32_t> out = batch(algorithm, keys, n);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        EXPECT_EQ(out[i], algorithm.function(keys[i], n))
            << algorithm.name << " key " << keys[i] << " n " << n;
      }
    }
  }
}

// Batches of every length 0..9 (the kernels pad the last partial vector)
// and around the AVX2 JumpBackHash kernel's slices of 1024 keys, at bucket
// counts where it never, rarely (65535) and often (129) queues a key; and an
// `out` longer than the keys (the rest is left alone).
TEST_P(BatchTest, HandlesEveryTailLength) {
  const std::vector<std::uint64_t>& all = million_random_keys();
  std::vector<std::size_t> lengths = {255, 256, 257, 1023, 1024, 1025, 2049};
  for (std::size_t length = 0; length < 10; ++length) lengths.push_back(length);
  for (const std::string& name : kSimdAlgorithms) {
    const Algorithm& algorithm = algorithm_named(name);
    for (std::int32_t n : {128, 129, 65535}) {
      for (std::size_t length : lengths) {
        const std::vector<std::uint64_t> keys(all.begin(), all.begin() + length);
        std::vector<std::int32_t> out(length + 3, -7);
        buckets_batch(algorithm, keys, n, out);
        for (std::size_t i = 0; i < length; ++i) {
          EXPECT_EQ(out[i], algorithm.function(keys[i], n))
              << name << " n " << n << " length " << length << " key " << i;
        }
        for (std::size_t i = length; i < out.size(); ++i) EXPECT_EQ(out[i], -7) << name;
      }
    }
  }
}

// The two lookups of a resize in one call: bucket counts with the same
// bits(n - 1) (one pass in the AVX2 JumpBackHash kernel, a queue each; every
// mix of its never, rare and common modes) and with different ones, over a
// million keys and over lengths around the kernel's slices.
TEST_P(BatchTest, PairEqualsScalarAtBothCounts) {
  const std::vector<std::uint64_t>& all = million_random_keys();
  const std::vector<std::pair<std::int32_t, std::int32_t>> pairs = {
      {1000, 1001}, {1001, 1000}, {129, 200},   {1024, 600},  {600, 1024},       {65535, 40000},
      {65536, 65535}, {2, 2},     {128, 129},   {1, 7},       {1000000, 999999}, {2147483647, 1073741825}};
  std::vector<std::size_t> lengths = {1023, 1024, 1025, 2049, all.size()};
  for (std::size_t length = 0; length < 10; ++length) lengths.push_back(length);
  for (const Algorithm& algorithm : bucket_count_algorithms()) {
    for (const auto& [first, second] : pairs) {
      for (std::size_t length : lengths) {
        if (length == all.size() && !has_simd_batch(algorithm.id)) continue;
        const std::span<const std::uint64_t> keys(all.data(), length);
        std::vector<std::int32_t> out_first(length + 2, -7), out_second(length + 2, -7);
        buckets_batch_pair(algorithm, keys, first, second, out_first, out_second);
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < length; ++i) {
          const std::int32_t a = algorithm.function(keys[i], first);
          const std::int32_t b = algorithm.function(keys[i], second);
          if ((out_first[i] != a || out_second[i] != b) && ++mismatches <= 3) {
            ADD_FAILURE() << algorithm.name << " " << first << " -> " << second << " key "
                          << keys[i] << ": batch " << out_first[i] << ", " << out_second[i]
                          << "; scalar " << a << ", " << b;
          }
        }
        EXPECT_EQ(mismatches, 0u) << algorithm.name << " length " << length;
        for (std::size_t i = length; i < out_first.size(); ++i) {
          EXPECT_EQ(out_first[i], -7);
          EXPECT_EQ(out_second[i], -7);
        }
      }
    }
  }
}

// ---- the report loops --------------------------------------------------------------

/// Key sets of each kind, above the threading threshold, with string keys.
std::vector<std::string> report_key_sets() {
  return {"0..299999", "random:300000:7",
          "5 \"alice\" 0xFFFFFFFFFFFFFFFF 10..200009 random:100000:3 \"bob\" 42"};
}

struct MovedRow {
  std::uint64_t value;
  std::string label;
  std::int32_t old_bucket, new_bucket;
  bool operator==(const MovedRow&) const = default;
};

/// MOVED rows by a plain per-key loop over the scalar function.
std::vector<MovedRow> moved_by_scalar_loop(const Algorithm& algorithm, const KeySet& keys,
                                           std::int32_t from, std::int32_t to) {
  std::vector<MovedRow> rows;
  keys.for_each([&](std::uint64_t key, const std::string* label) {
    const std::int32_t a = algorithm.function(key, from), b = algorithm.function(key, to);
    if (a != b) rows.push_back({key, label ? *label : std::string(), a, b});
  });
  return rows;
}

TEST_P(BatchTest, MovedRowsEqualAPerKeyLoopOnOneAndFourThreads) {
  for (const std::string& spec : report_key_sets()) {
    const KeySet keys = *KeySet::parse(spec);
    ASSERT_GE(keys.size(), kParallelMinKeys) << spec;
    for (const Algorithm& algorithm : bucket_count_algorithms()) {
      const std::vector<MovedRow> expected = moved_by_scalar_loop(algorithm, keys, 129, 1000);
      for (unsigned threads : {1U, 4U}) {
        set_report_threads(threads);
        std::vector<MovedRow> rows;
        const std::uint64_t moved = for_each_moved(
            algorithm, keys, 129, 1000, 0, keys.size(),
            [&](std::uint64_t key, const std::string* label, std::int32_t a, std::int32_t b) {
              rows.push_back({key, label ? *label : std::string(), a, b});
            });
        EXPECT_EQ(moved, expected.size()) << algorithm.name << " " << spec << " threads " << threads;
        EXPECT_TRUE(rows == expected) << algorithm.name << " " << spec << " threads " << threads;
      }
    }
  }
}

TEST_P(BatchTest, MovedOverASliceEqualsThePerKeyLoopOverThatSlice) {
  const KeySet keys = *KeySet::parse(report_key_sets()[2]);
  const Algorithm& algorithm = algorithm_named("jumpback");
  std::vector<MovedRow> expected;
  std::uint64_t index = 0;
  keys.for_each([&](std::uint64_t key, const std::string* label) {
    const bool inside = index >= 3 && index < 250003;
    ++index;
    const std::int32_t a = algorithm.function(key, 10), b = algorithm.function(key, 11);
    if (inside && a != b) expected.push_back({key, label ? *label : std::string(), a, b});
  });
  set_report_threads(3);
  std::vector<MovedRow> rows;
  for_each_moved(algorithm, keys, 10, 11, 3, 250003,
                 [&](std::uint64_t key, const std::string* label, std::int32_t a, std::int32_t b) {
                   rows.push_back({key, label ? *label : std::string(), a, b});
                 });
  EXPECT_TRUE(rows == expected);
  EXPECT_FALSE(rows.empty());
}

TEST_P(BatchTest, LoadsEqualAPerKeyLoopOnOneAndFourThreads) {
  for (const std::string& spec : report_key_sets()) {
    const KeySet keys = *KeySet::parse(spec);
    for (const Algorithm& algorithm : bucket_count_algorithms()) {
      for (std::int32_t n : {1, 129, 1000000}) {
        std::vector<std::uint64_t> expected(static_cast<std::size_t>(n));
        keys.for_each([&](std::uint64_t key, const std::string*) {
          ++expected[static_cast<std::size_t>(algorithm.function(key, n))];
        });
        for (unsigned threads : {1U, 4U}) {
          set_report_threads(threads);
          std::vector<std::uint64_t> loads(static_cast<std::size_t>(n));
          add_loads(algorithm, keys, n, 0, keys.size(), loads);
          EXPECT_TRUE(loads == expected)
              << algorithm.name << " " << spec << " n " << n << " threads " << threads;
        }
      }
    }
  }
}

TEST_P(BatchTest, BucketsEqualAPerKeyLoopOnOneAndFourThreads) {
  const KeySet keys = *KeySet::parse(report_key_sets()[2]);
  for (const std::string& name : kSimdAlgorithms) {
    const Algorithm& algorithm = algorithm_named(name);
    std::vector<std::pair<std::uint64_t, std::int32_t>> expected;
    std::vector<const Key*> expected_keys;
    keys.for_each_key(0, keys.size(), [&](std::uint64_t value, const Key* key) {
      expected.emplace_back(value, algorithm.function(value, 1000));
      expected_keys.push_back(key);
    });
    for (unsigned threads : {1U, 4U}) {
      set_report_threads(threads);
      std::vector<std::pair<std::uint64_t, std::int32_t>> rows;
      std::vector<const Key*> row_keys;
      for_each_bucket(algorithm, keys, 1000, 0, keys.size(),
                      [&](std::uint64_t value, const Key* key, std::int32_t bucket) {
                        rows.emplace_back(value, bucket);
                        row_keys.push_back(key);
                      });
      EXPECT_TRUE(rows == expected) << name << " threads " << threads;
      EXPECT_TRUE(row_keys == expected_keys) << name << " threads " << threads;
    }
  }
}

/// BUCKETS' text by a plain per-key loop over the scalar function.
std::string buckets_text_by_scalar_loop(const Algorithm& algorithm, const KeySet& keys,
                                        std::int32_t n) {
  std::string text;
  keys.for_each([&](std::uint64_t key, const std::string* label) {
    append_key(text, key, label);
    text += ": " + std::to_string(algorithm.function(key, n)) + "\n";
  });
  return text;
}

/// Where two texts first differ, for a failure message that does not print
/// megabytes.
std::string first_difference(const std::string& a, const std::string& b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  const std::size_t from = a.rfind('\n', at) == std::string::npos ? 0 : a.rfind('\n', at) + 1;
  return "sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()) +
         ", first difference at byte " + std::to_string(at) + ": \"" + a.substr(from, 40) +
         "\" vs \"" + b.substr(from, 40) + "\"";
}

TEST_P(BatchTest, BucketsCommandPrintsAPerKeyLoopOnOneAndFourThreads) {
  const std::string spec = report_key_sets()[2];
  const KeySet keys = *KeySet::parse(spec);
  ASSERT_GE(keys.size(), kParallelMinKeys);
  for (const std::string& name : kSimdAlgorithms) {
    const std::string expected = buckets_text_by_scalar_loop(algorithm_named(name), keys, 1000);
    for (unsigned threads : {1U, 4U}) {
      // The interpreter prints BUCKETS three ways: threads write the text
      // (nothing observes lines: the CLI), lines one by one for an output
      // observer (the checker), and in slices under an output budget (here
      // one that every line fits exactly).
      for (const std::string mode : {"plain", "observed", "budget"}) {
        set_report_threads(threads);
        std::string out, err;
        std::uint64_t events = 0;
        Interpreter interpreter([&out](std::string_view text) { out += text; },
                                [&err](std::string_view text) { err += text; });
        if (mode == "observed") {
          interpreter.set_output_observer([&events](const OutputEvent&) { ++events; });
        }
        if (mode == "budget") interpreter.set_budget({keys.size(), expected.size()});
        const int status = interpreter.run("ALGO " + name + "\nKEYS " + spec + "\nBUCKETS 1000\n");
        const std::string what = name + ", " + std::to_string(threads) + " threads, " + mode;
        EXPECT_EQ(status, 0) << what << ": " << err;
        EXPECT_TRUE(out == expected) << what << ": " << first_difference(out, expected);
        if (mode == "observed") {
          EXPECT_EQ(events, keys.size()) << what;
        }
      }
    }
  }
  set_report_threads(1);
}

// Growing, shrinking, and too large for flows (3000 x 3001 cells): the
// report counts staying keys apart and adds them to both loads and the
// flows' diagonal at the end of each add.
TEST_P(BatchTest, ResizeReportEqualsAPerKeyLoop) {
  const KeySet keys = *KeySet::parse(report_key_sets()[2]);
  for (const auto& [from, to] : std::vector<std::pair<std::int32_t, std::int32_t>>{
           {129, 1000}, {1000, 129}, {3000, 3001}}) {
    const bool with_flows = std::uint64_t(from) * std::uint64_t(to) <= kMaxFlowCells;
    for (const Algorithm& algorithm : bucket_count_algorithms()) {
      ResizeReport report = *ResizeReport::create(algorithm, from, to, 50);
      // In uneven slices, as the page feeds it.
      for (std::uint64_t begin = 0; begin < keys.size(); begin += 77777) {
        report.add(keys, begin, begin + 77777);
      }
      const auto f = static_cast<std::size_t>(from), t = static_cast<std::size_t>(to);
      std::vector<std::uint64_t> before(f), after(t), flows(with_flows ? f * t : 0);
      std::vector<MovedRow> moved = moved_by_scalar_loop(algorithm, keys, from, to);
      keys.for_each([&](std::uint64_t key, const std::string*) {
        const std::int32_t a = algorithm.function(key, from), b = algorithm.function(key, to);
        ++before[static_cast<std::size_t>(a)];
        ++after[static_cast<std::size_t>(b)];
        if (with_flows) ++flows[static_cast<std::size_t>(a) * t + static_cast<std::size_t>(b)];
      });
      const std::string context = std::string(algorithm.name) + " " + std::to_string(from) +
                                  " -> " + std::to_string(to);
      EXPECT_EQ(report.total(), keys.size());
      EXPECT_EQ(report.moved(), moved.size()) << context;
      EXPECT_TRUE(report.loads_before() == before) << context;
      EXPECT_TRUE(report.loads_after() == after) << context;
      EXPECT_TRUE(report.flows() == flows) << context;
      ASSERT_EQ(report.sample().size(), 50u);
      for (std::size_t i = 0; i < 50; ++i) {
        const MovedKey& sampled = report.sample()[i];
        EXPECT_EQ((MovedRow{sampled.value, sampled.label, sampled.old_bucket, sampled.new_bucket}),
                  moved[i])
            << context << " sample " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, BatchTest,
                         ::testing::Values(BatchPath::scalar, BatchPath::avx2, BatchPath::avx512),
                         [](const ::testing::TestParamInfo<BatchPath>& info) {
                           return std::string(batch_path_name(info.param));
                         });

// ---- dispatch and threads ------------------------------------------------------------

TEST(BatchDispatch, ScalarIsAlwaysSupportedAndAnUnsupportedPathIsRefused) {
  EXPECT_TRUE(batch_path_supported(BatchPath::scalar));
  const BatchPath saved = batch_path();
  EXPECT_TRUE(set_batch_path(BatchPath::scalar));
  EXPECT_EQ(batch_path(), BatchPath::scalar);
  for (BatchPath native : {BatchPath::avx2, BatchPath::avx512}) {
    if (!batch_path_supported(native)) {
      EXPECT_FALSE(set_batch_path(native)) << batch_path_name(native);
      EXPECT_EQ(batch_path(), BatchPath::scalar);
    }
  }
  // The AVX-512 kernels need AVX2 too: a CPU that runs them has both.
  if (batch_path_supported(BatchPath::avx512)) {
    EXPECT_TRUE(batch_path_supported(BatchPath::avx2));
  }
  // SIMD128 is the WebAssembly build's (wasm/test/batch.test.mjs tests it).
  EXPECT_FALSE(batch_path_supported(BatchPath::simd128));
  EXPECT_FALSE(set_batch_path(BatchPath::simd128));
  EXPECT_EQ(batch_path(), BatchPath::scalar);
  EXPECT_EQ(batch_path_name(BatchPath::simd128), "simd128");
  set_batch_path(saved);
}

TEST(BatchDispatch, OnlyJumpJumpBackAndIndependentHaveKernels) {
  for (const Algorithm& algorithm : bucket_count_algorithms()) {
    const bool expected = algorithm.name == "jump" || algorithm.name == "jumpback" ||
                          algorithm.name == "jumpback-indep";
    EXPECT_EQ(has_simd_batch(algorithm.id), expected) << algorithm.name;
  }
}

TEST(ParallelChunks, ConsumesEveryChunkOnceInOrder) {
  for (unsigned threads : {1U, 2U, 5U}) {
    const std::size_t slots = ordered_chunk_slots(threads);
    std::vector<std::uint64_t> slot_values(slots);
    std::vector<std::uint64_t> consumed;
    run_ordered_chunks(
        1000, threads,
        [&](std::uint64_t chunk, std::size_t slot, unsigned worker) {
          ASSERT_LT(slot, slots);
          ASSERT_LT(worker, std::max(threads, 1U));
          slot_values[slot] = chunk * chunk;
        },
        [&](std::uint64_t chunk, std::size_t slot) {
          EXPECT_EQ(slot_values[slot], chunk * chunk);
          consumed.push_back(chunk);
        });
    ASSERT_EQ(consumed.size(), 1000u) << threads;
    for (std::uint64_t i = 0; i < 1000; ++i) EXPECT_EQ(consumed[i], i) << threads;
  }
}

TEST(ParallelChunks, TheCallingThreadIsWorkerZeroAndComputesToo) {
  // On `threads` cores, `threads` threads compute: the calling thread,
  // which consumes, computes whenever the next chunk is not ready yet.
  for (unsigned threads : {2U, 3U}) {
    const std::thread::id caller = std::this_thread::get_id();
    std::mutex mutex;
    std::map<unsigned, std::thread::id> thread_of_worker;
    std::uint64_t computed_by_caller = 0;
    bool worker_changed_thread = false;
    run_ordered_chunks(
        60, threads,
        [&](std::uint64_t, std::size_t, unsigned worker) {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          const std::lock_guard<std::mutex> lock(mutex);
          const auto [at, added] = thread_of_worker.emplace(worker, std::this_thread::get_id());
          if (!added && at->second != std::this_thread::get_id()) worker_changed_thread = true;
          if (std::this_thread::get_id() == caller) ++computed_by_caller;
        },
        [](std::uint64_t, std::size_t) {});
    EXPECT_FALSE(worker_changed_thread) << threads;
    ASSERT_TRUE(thread_of_worker.count(0)) << threads;
    EXPECT_EQ(thread_of_worker[0], caller) << threads;
    for (const auto& [worker, id] : thread_of_worker) {
      if (worker != 0) {
        EXPECT_NE(id, caller) << threads << " worker " << worker;
      }
    }
    EXPECT_GT(computed_by_caller, 0u) << threads;
  }
}

TEST(ParallelChunks, RethrowsAWorkersExceptionOnTheCallingThread) {
  for (unsigned threads : {1U, 3U}) {
    std::uint64_t consumed = 0;
    EXPECT_THROW(run_ordered_chunks(
                     100, threads,
                     [](std::uint64_t chunk, std::size_t, unsigned) {
                       if (chunk == 37) throw std::runtime_error("chunk 37");
                     },
                     [&](std::uint64_t, std::size_t) { ++consumed; }),
                 std::runtime_error);
    EXPECT_LE(consumed, 37u) << threads;
  }
}

TEST(ParallelChunks, SmallKeySetsStayOnOneThread) {
  set_report_threads(8);
  EXPECT_EQ(threads_for_keys(kParallelMinKeys - 1), 1u);
  EXPECT_EQ(threads_for_keys(kParallelMinKeys), std::min<std::uint64_t>(8, kParallelMinKeys / kParallelChunkKeys));
  EXPECT_EQ(threads_for_keys(std::uint64_t{1} << 30), 8u);
  set_report_threads(0);
  EXPECT_EQ(report_threads(), 1u);
  set_report_threads(1);
}

}  // namespace
}  // namespace jumphash
