// MOVED, LOAD, TRACE and the structured resize report.
#include "jumphash/reports.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "jumphash/splitmix64.hpp"

namespace jumphash {
namespace {

const Algorithm& algorithm(std::string_view name) { return **find_algorithm(name); }

// The walk over active indices must equal the definition: every n in 1..max
// where the bucket differs from the bucket at n - 1.
TEST(Trace, WalkingActiveIndicesEqualsLoopingOverN) {
  for (const Algorithm& each : bucket_count_algorithms()) {
    for (std::uint64_t key : {0ULL, 42ULL, 18446744073709551615ULL, 628522610165938199ULL,
                              18063469494497682072ULL, 0xDEADBEEFULL}) {
      std::vector<std::pair<std::int64_t, std::int32_t>> brute;
      std::int32_t previous = -1;
      for (std::int32_t n = 1; n <= 3000; ++n) {
        const std::int32_t bucket = each.function(key, n);
        if (bucket != previous) brute.emplace_back(n, bucket);
        previous = bucket;
      }
      const auto steps = trace_key(each, key, 3000);
      ASSERT_TRUE(steps) << steps.error();
      std::vector<std::pair<std::int64_t, std::int32_t>> walked;
      for (const TraceStep& step : *steps) walked.emplace_back(step.n, step.bucket);
      EXPECT_EQ(walked, brute) << each.name << " key " << key;
    }
  }
}

TEST(Trace, ConsistentAlgorithmsTraceToTheLargestBucketCount) {
  for (const Algorithm& each : bucket_count_algorithms()) {
    if (!each.consistent) continue;
    const auto steps = trace_key(each, 42, kMaxBuckets);
    ASSERT_TRUE(steps) << steps.error();
    EXPECT_EQ(steps->front().n, 1);
    EXPECT_EQ(steps->back().bucket, each.function(42, static_cast<std::int32_t>(kMaxBuckets)));
    EXPECT_LT(steps->size(), 200u) << each.name;
  }
}

TEST(Trace, ModuloIsLimitedAndBadMaxIsAnError) {
  EXPECT_TRUE(trace_key(algorithm("modulo"), 42, 1000000));
  const auto too_far = trace_key(algorithm("modulo"), 42, 1000001);
  ASSERT_FALSE(too_far);
  EXPECT_EQ(too_far.error(), "TRACE max for modulo must be an integer in 1..1000000 (got '1000001')");
  EXPECT_FALSE(trace_key(algorithm("jump"), 42, 0));
}

TEST(Moved, ExerciseTenToTwelveOnTenThousandKeys) {
  const KeySet keys = *KeySet::parse("0..9999");
  std::vector<std::int32_t> destinations;
  const std::uint64_t moved = for_each_moved(
      algorithm("jump"), keys, 10, 12, 0, keys.size(),
      [&](std::uint64_t, const std::string*, std::int32_t, std::int32_t to) {
        destinations.push_back(to);
      });
  EXPECT_EQ(moved, 1653u);
  for (std::int32_t to : destinations) EXPECT_TRUE(to == 10 || to == 11);
}

TEST(Moved, ChunksAddUpToTheWhole) {
  const KeySet keys = *KeySet::parse("0..999 random:5000:9 \"a\" \"b\" 7");
  const std::uint64_t whole =
      for_each_moved(algorithm("jumpback"), keys, 7, 13, 0, keys.size(), [](auto...) {});
  std::uint64_t chunked = 0;
  for (std::uint64_t begin = 0; begin < keys.size(); begin += 333) {
    chunked += for_each_moved(algorithm("jumpback"), keys, 7, 13, begin, begin + 333,
                              [](auto...) {});
  }
  EXPECT_EQ(chunked, whole);
}

TEST(Load, CountsEveryKeyOnce) {
  const KeySet keys = *KeySet::parse("random:100000:1");
  std::vector<std::uint64_t> loads(100);
  add_loads(algorithm("jumpback"), keys, 100, 0, keys.size(), loads);
  const LoadStats stats = load_stats(loads);
  EXPECT_EQ(stats.total, 100000u);
  EXPECT_DOUBLE_EQ(stats.mean, 1000.0);
  EXPECT_EQ(stats.degrees_of_freedom, 99u);
  EXPECT_LT(stats.max_over_mean, 1.15);
  EXPECT_LT(stats.chi_square, 99 + 5 * 14.1);
}

TEST(ResizeReport, AgreesWithMovedAndLoads) {
  const KeySet keys = *KeySet::parse("0..49999");
  Result<ResizeReport> report = ResizeReport::create(algorithm("jump"), 10, 12, 5);
  ASSERT_TRUE(report);
  report.value().add(keys, 0, 20000);
  report.value().add(keys, 20000, keys.size());
  EXPECT_EQ(report->total(), 50000u);
  const std::uint64_t moved =
      for_each_moved(algorithm("jump"), keys, 10, 12, 0, keys.size(), [](auto...) {});
  EXPECT_EQ(report->moved(), moved);
  ASSERT_EQ(report->sample().size(), 5u);
  EXPECT_EQ(report->sample()[0].new_bucket >= 10, true);
  std::vector<std::uint64_t> before(10), after(12);
  add_loads(algorithm("jump"), keys, 10, 0, keys.size(), before);
  add_loads(algorithm("jump"), keys, 12, 0, keys.size(), after);
  EXPECT_EQ(report->loads_before(), before);
  EXPECT_EQ(report->loads_after(), after);
  // The matrix's off-diagonal sum is the moved count.
  std::uint64_t off_diagonal = 0;
  for (std::int32_t from = 0; from < 10; ++from) {
    for (std::int32_t to = 0; to < 12; ++to) {
      if (from != to) off_diagonal += report->flows()[static_cast<std::size_t>(from * 12 + to)];
    }
  }
  EXPECT_EQ(off_diagonal, moved);
  EXPECT_NEAR(report->minimum_moved_expected(), 50000.0 * 2 / 12, 1e-9);
}

// Two reports over consecutive key ranges (as two Web Workers compute
// them), one adding the other's counts, equal one report over all the keys,
// derived numbers included, to the bit.
TEST(ResizeReport, CountsOfALaterRangeAddUpToTheWhole) {
  const KeySet keys = *KeySet::parse("random:50000:3");
  for (const char* name : {"jump", "jumpback", "modulo"}) {
    SCOPED_TRACE(name);
    ResizeReport whole = *ResizeReport::create(algorithm(name), 40, 30, 0);
    whole.add(keys, 0, keys.size());
    ResizeReport first = *ResizeReport::create(algorithm(name), 40, 30, 0);
    first.add(keys, 0, 17000);
    ResizeReport second = *ResizeReport::create(algorithm(name), 40, 30, 0);
    second.add(keys, 17000, keys.size());
    // The later range's flows as a matrix, then as its non-zero cells.
    ResizeReport as_cells = *ResizeReport::create(algorithm(name), 40, 30, 0);
    as_cells.add(keys, 0, 17000);
    const Result<std::uint64_t> total = first.add_counts({second.total(),
                                                          second.moved(),
                                                          second.loads_before(),
                                                          second.loads_after(),
                                                          second.flows(),
                                                          {},
                                                          false});
    ASSERT_TRUE(total) << total.error();
    EXPECT_EQ(*total, 50000u);
    ResizeCounts cells{second.total(),
                       second.moved(),
                       second.loads_before(),
                       second.loads_after(),
                       {},
                       nonzero_cells(second.flows()),
                       true};
    EXPECT_LT(cells.flow_cells.size(), second.flows().size());
    ASSERT_TRUE(as_cells.add_counts(cells));
    for (const ResizeReport* report : {&first, &as_cells}) {
      EXPECT_EQ(report->total(), whole.total());
      EXPECT_EQ(report->moved(), whole.moved());
      EXPECT_EQ(report->loads_before(), whole.loads_before());
      EXPECT_EQ(report->loads_after(), whole.loads_after());
      EXPECT_EQ(report->flows(), whole.flows());
      EXPECT_EQ(report->minimum_moved_expected(), whole.minimum_moved_expected());
      for (std::int32_t source = 0; source < 40; ++source) {
        EXPECT_EQ(report->flow_balance(source).moved_out, whole.flow_balance(source).moved_out);
        EXPECT_EQ(report->flow_balance(source).chi_square, whole.flow_balance(source).chi_square);
      }
    }
  }
}

// A range counted from its end down, slice by slice (add_before, as the
// page's second worker of a pair counts), is the same report as counted up:
// counts, loads, flows, and the sample, the first moved keys in key order
// however the limit cuts the slices.
TEST(ResizeReport, CountedFromTheEndDownIsTheSameAsCountedUp) {
  const KeySet keys =
      *KeySet::parse(std::string_view(R"(random:20000:5 "alice" "bob" 0..2999 "carol")"));
  const std::vector<std::uint64_t> slices{1, 7, 3000, 2, 12000, 50, 100000};
  for (const char* name : {"jump", "jumpback", "modulo"}) {
    for (const auto& [from, to] : {std::pair{40, 30}, std::pair{10, 12}}) {
      for (const std::size_t limit : {0u, 1u, 5u, 700u, 100000u}) {
        SCOPED_TRACE(std::string(name) + " " + std::to_string(from) + " -> " + std::to_string(to) +
                     ", sample limit " + std::to_string(limit));
        ResizeReport up = *ResizeReport::create(algorithm(name), from, to, limit);
        up.add(keys, 0, keys.size());
        ResizeReport down = *ResizeReport::create(algorithm(name), from, to, limit);
        std::uint64_t next = keys.size();
        for (std::size_t i = 0; next > 0; ++i) {
          const std::uint64_t count = std::min(next, slices[i % slices.size()]);
          down.add_before(keys, next - count, next);
          next -= count;
        }
        EXPECT_EQ(down.total(), up.total());
        EXPECT_EQ(down.moved(), up.moved());
        EXPECT_EQ(down.loads_before(), up.loads_before());
        EXPECT_EQ(down.loads_after(), up.loads_after());
        EXPECT_EQ(down.flows(), up.flows());
        ASSERT_EQ(down.sample().size(), up.sample().size());
        EXPECT_EQ(up.sample().size(), std::min<std::uint64_t>(limit, up.moved()));
        for (std::size_t k = 0; k < up.sample().size(); ++k) {
          EXPECT_EQ(down.sample()[k].value, up.sample()[k].value) << k;
          EXPECT_EQ(down.sample()[k].label, up.sample()[k].label) << k;
          EXPECT_EQ(down.sample()[k].old_bucket, up.sample()[k].old_bucket) << k;
          EXPECT_EQ(down.sample()[k].new_bucket, up.sample()[k].new_bucket) << k;
        }
      }
    }
  }
}

TEST(ResizeReport, NonzeroCellsListEveryNonZeroCellInIndexOrder) {
  EXPECT_EQ(nonzero_cells({0, 5, 0, 0, 7, 1}), (std::vector<FlowCell>{{1, 5}, {4, 7}, {5, 1}}));
  EXPECT_TRUE(nonzero_cells(std::vector<std::uint64_t>(9)).empty());
  // 1000 -> 1001 over 10^5 keys: the diagonal and where the moved keys went.
  const KeySet keys = *KeySet::parse("0..99999");
  ResizeReport report = *ResizeReport::create(algorithm("jumpback"), 1000, 1001, 0);
  report.add(keys, 0, keys.size());
  const std::vector<FlowCell> cells = nonzero_cells(report.flows());
  EXPECT_LE(cells.size(), 1000 + report.moved());
  std::uint64_t sum = 0;
  for (const FlowCell& cell : cells) {
    EXPECT_EQ(report.flows()[cell.index], cell.count);
    sum += cell.count;
  }
  EXPECT_EQ(sum, 100000u);
}

/// flow_matrix().for_each_nonzero as a list.
std::vector<FlowCell> listed_cells(const FlowMatrix& matrix) {
  std::vector<FlowCell> cells;
  matrix.for_each_nonzero([&](FlowCell cell) { cells.push_back(cell); });
  return cells;
}

TEST(FlowMatrix, ListsItsNonZeroCellsInIndexOrderWhateverOrderTheyFilled) {
  FlowMatrix matrix(16);
  matrix.increment(9);
  matrix.add(2, 5);
  matrix.add(7, 0);  // no key: the cell stays zero and unlisted
  matrix.increment(9);
  matrix.add(2, 1);
  EXPECT_EQ(matrix.nonzero_count(), 2u);
  EXPECT_EQ(listed_cells(matrix), (std::vector<FlowCell>{{2, 6}, {9, 2}}));
  EXPECT_EQ(listed_cells(matrix), nonzero_cells(matrix.counts()));
  EXPECT_TRUE(listed_cells(FlowMatrix(4)).empty());
  EXPECT_TRUE(FlowMatrix().empty());
}

TEST(FlowMatrix, MarksCellsAcrossWordsAndTheLastPartialWord) {
  FlowMatrix matrix(130);  // three words of bits, the last of 2
  for (const std::size_t index : {129, 0, 64, 63, 65, 128}) matrix.add(index, index + 1);
  EXPECT_EQ(matrix.nonzero_count(), 6u);
  EXPECT_EQ(listed_cells(matrix), nonzero_cells(matrix.counts()));
  EXPECT_EQ(listed_cells(matrix).back(), (FlowCell{129, 130}));
}

// A new matrix zeroes only its marks, not its counts: it must read as zero
// wherever it was not counted, even in storage a matrix before it filled.
TEST(FlowMatrix, ReadsZeroWhereNotCountedEvenInStorageUsedBefore) {
  constexpr std::size_t kCells = 1000 * 1001;
  for (int round = 0; round < 3; ++round) {
    {
      FlowMatrix used(kCells);
      for (std::size_t index = 0; index < kCells; index += 7) used.add(index, index + 1);
    }
    FlowMatrix matrix(kCells);
    EXPECT_EQ(matrix.nonzero_count(), 0u);
    matrix.increment(14);
    matrix.add(kCells - 1, 3);
    const std::vector<std::uint64_t> counts = matrix.counts();
    ASSERT_EQ(counts.size(), kCells);
    std::vector<std::uint64_t> expected(kCells, 0);
    expected[14] = 1;
    expected[kCells - 1] = 3;
    EXPECT_TRUE(counts == expected);
    EXPECT_EQ(matrix.count(0), 0u);
    EXPECT_EQ(matrix.count(7), 0u);
    EXPECT_EQ(matrix.count(14), 1u);
    EXPECT_EQ(listed_cells(matrix), (std::vector<FlowCell>{{14, 1}, {kCells - 1, 3}}));
  }
}

TEST(FlowMatrix, CopiesAreIndependentAndCountTheSame) {
  FlowMatrix matrix(130);
  for (const std::size_t index : {3, 64, 129}) matrix.add(index, index);
  FlowMatrix copy(matrix);
  EXPECT_EQ(listed_cells(copy), listed_cells(matrix));
  copy.increment(3);
  copy.increment(5);
  EXPECT_EQ(matrix.count(3), 3u);
  EXPECT_EQ(matrix.count(5), 0u);
  EXPECT_EQ(copy.count(3), 4u);
  EXPECT_EQ(copy.count(5), 1u);
  FlowMatrix assigned(4);
  assigned.increment(1);
  assigned = matrix;
  EXPECT_EQ(assigned.size(), 130u);
  EXPECT_EQ(listed_cells(assigned), listed_cells(matrix));
  EXPECT_TRUE(assigned.counts() == matrix.counts());
  FlowMatrix empty_copy(FlowMatrix{});
  EXPECT_TRUE(empty_copy.empty());
  EXPECT_TRUE(empty_copy.counts().empty());
}

// A matrix keeps its counts in a hash table while few cells are marked
// (fewer than one in FlowMatrix::kDenseFrom and than kDenseFromCells), then
// in a whole array: every matrix size and fill, before and after that
// switch, must count, list and copy what a plain vector of counts does.
TEST(FlowMatrix, CountsAsAPlainVectorWhileFewCellsAreFilledAndAfter) {
  std::uint64_t state = kSplitMix64Gamma;
  const auto next = [&] { return splitmix64_next(state); };
  for (const std::size_t cells : {1, 15, 16, 17, 130, 1000, 1001 * 1000}) {
    // Enough filled cells to pass the switch for every size.
    const std::size_t fills = std::min<std::size_t>(
        cells, std::min(cells / FlowMatrix::kDenseFrom, FlowMatrix::kDenseFromCells) + 200);
    FlowMatrix matrix(cells);
    std::vector<std::uint64_t> expected(cells, 0);
    std::vector<FlowMatrix> copies;
    for (std::size_t added = 0; added < 3 * fills; ++added) {
      // Two adds in three to cells filled before (the first `fills` cells
      // of a shuffled walk), as a report's diagonal fills again and again.
      const std::size_t index = next() % 3 == 0 ? next() % cells : (next() % fills) * 7919 % cells;
      const std::uint64_t count = next() % 4;  // 0: no key, no mark
      matrix.add(index, count);
      expected[index] += count;
      if (added % (fills / 4 + 1) == 0) copies.emplace_back(matrix);
    }
    ASSERT_TRUE(matrix.counts() == expected) << cells << " cells";
    ASSERT_EQ(listed_cells(matrix), nonzero_cells(expected)) << cells << " cells";
    ASSERT_EQ(matrix.nonzero_count(), nonzero_cells(expected).size()) << cells << " cells";
    for (std::size_t index = 0; index < cells; index += cells / 97 + 1) {
      ASSERT_EQ(matrix.count(index), expected[index]) << cells << " cells, cell " << index;
    }
    // A copy taken at any fill goes on counting apart from the matrix.
    for (FlowMatrix& copy : copies) {
      const std::vector<std::uint64_t> before = copy.counts();
      copy.add(cells - 1, 5);
      std::vector<std::uint64_t> after = before;
      after[cells - 1] += 5;
      ASSERT_TRUE(copy.counts() == after) << cells << " cells";
    }
    ASSERT_TRUE(matrix.counts() == expected) << cells << " cells";
    ASSERT_TRUE(FlowMatrix(matrix).counts() == expected) << cells << " cells";
  }
}

TEST(FlowMatrix, ListsTheNonZeroCellsOfARangeWhateverWordsItCuts) {
  FlowMatrix matrix(200);  // four words of bits, the last of 8
  for (const std::size_t index : {0, 5, 63, 64, 100, 127, 128, 150, 199}) matrix.add(index, index + 1);
  const std::vector<FlowCell> all = listed_cells(matrix);
  for (std::size_t begin = 0; begin <= 200; ++begin) {
    for (std::size_t end = begin; end <= 200; ++end) {
      std::vector<FlowCell> in_range, expected;
      matrix.for_each_nonzero_in(begin, end, [&](FlowCell cell) { in_range.push_back(cell); });
      for (const FlowCell& cell : all) {
        if (cell.index >= begin && cell.index < end) expected.push_back(cell);
      }
      ASSERT_EQ(in_range, expected) << "[" << begin << ", " << end << ")";
    }
  }
}

// flow_balance by its definition (reports.hpp), read cell by cell from the
// matrix: moved out is the row but the source's own bucket; the
// destinations are from..to-1 when a consistent algorithm grows, 0..to-1
// when it shrinks, every other bucket for the rest; chi-square term by
// term in bucket order, so that the doubles agree to the bit.
TEST(ResizeReport, FlowBalanceIsItsDefinitionReadCellByCell) {
  const KeySet keys = *KeySet::parse("random:30000:5");
  for (const char* name : {"jump", "jumpback", "modulo"}) {
    for (const auto& [from, to] : {std::pair{100, 101}, std::pair{70, 64}, std::pair{10, 13},
                                   std::pair{64, 1}, std::pair{1, 5}, std::pair{40, 40}}) {
      SCOPED_TRACE(std::string(name) + " " + std::to_string(from) + " -> " + std::to_string(to));
      ResizeReport report = *ResizeReport::create(algorithm(name), from, to, 0);
      report.add(keys, 0, keys.size());
      const std::vector<std::uint64_t>& flows = report.flows();
      const bool consistent = algorithm(name).consistent;
      for (std::int32_t source = -1; source <= from; ++source) {
        ResizeReport::FlowBalance expected;
        if (source >= 0 && source < from) {
          const std::size_t row = static_cast<std::size_t>(source) * static_cast<std::size_t>(to);
          for (std::int32_t d = 0; d < to; ++d) {
            if (d != source) expected.moved_out += flows[row + static_cast<std::size_t>(d)];
          }
          std::vector<std::int32_t> destinations;
          for (std::int32_t d = consistent && to > from ? from : 0; d < to; ++d) {
            if (consistent || d != source) destinations.push_back(d);
          }
          if (expected.moved_out > 0 && destinations.size() >= 2) {
            const double mean = static_cast<double>(expected.moved_out) / static_cast<double>(destinations.size());
            for (const std::int32_t d : destinations) {
              const double diff = static_cast<double>(flows[row + static_cast<std::size_t>(d)]) - mean;
              expected.chi_square += diff * diff / mean;
            }
            expected.degrees_of_freedom = destinations.size() - 1;
          }
        }
        const ResizeReport::FlowBalance balance = report.flow_balance(source);
        EXPECT_EQ(balance.moved_out, expected.moved_out) << "source " << source;
        EXPECT_EQ(balance.chi_square, expected.chi_square) << "source " << source;
        EXPECT_EQ(balance.degrees_of_freedom, expected.degrees_of_freedom) << "source " << source;
      }
    }
  }
}

// Each report's listed cells are its matrix's, counted key by key, merged
// from parts as cells, and merged from parts as whole matrices.
TEST(ResizeReport, ListedFlowCellsAreTheMatrixsNonZeroCells) {
  const KeySet keys = *KeySet::parse("random:20000:3");
  for (const char* name : {"jump", "jumpback", "modulo"}) {
    for (const auto& [from, to] : {std::pair{1000, 1001}, std::pair{12, 10}, std::pair{10, 12}}) {
      SCOPED_TRACE(std::string(name) + " " + std::to_string(from) + " -> " + std::to_string(to));
      ResizeReport whole = *ResizeReport::create(algorithm(name), from, to, 0);
      whole.add(keys, 0, keys.size());
      EXPECT_EQ(listed_cells(whole.flow_matrix()), nonzero_cells(whole.flows()));
      for (const bool as_cells : {true, false}) {
        ResizeReport merged = *ResizeReport::create(algorithm(name), from, to, 0);
        for (const auto& [begin, end] : {std::pair{0, 7000}, std::pair{7000, 20000}}) {
          ResizeReport counted = *ResizeReport::create(algorithm(name), from, to, 0);
          counted.add(keys, begin, end);
          ResizeCounts counts;
          counts.total = counted.total();
          counts.moved = counted.moved();
          counts.loads_before = counted.loads_before();
          counts.loads_after = counted.loads_after();
          if (as_cells) {
            counts.flow_cells = listed_cells(counted.flow_matrix());
            counts.flows_as_cells = true;
          } else {
            counts.flows = counted.flows();
          }
          ASSERT_TRUE(merged.add_counts(counts));
        }
        EXPECT_EQ(merged.flows(), whole.flows());
        EXPECT_EQ(listed_cells(merged.flow_matrix()), nonzero_cells(whole.flows()));
      }
    }
  }
}

// A part's flows as cells: every way they can be wrong is named, and adds nothing.
TEST(ResizeReport, BadFlowCellsAreRefusedAndAddNothing) {
  const KeySet keys = *KeySet::parse("0..999");
  ResizeReport report = *ResizeReport::create(algorithm("jump"), 10, 12, 0);
  report.add(keys, 0, keys.size());
  const std::vector<std::uint64_t> before = report.flows();
  ResizeReport other = *ResizeReport::create(algorithm("jump"), 10, 12, 0);
  other.add(keys, 0, 500);
  const ResizeCounts good{other.total(),
                          other.moved(),
                          other.loads_before(),
                          other.loads_after(),
                          {},
                          nonzero_cells(other.flows()),
                          true};
  const auto refused = [&](ResizeCounts counts) {
    const Result<std::uint64_t> added = report.add_counts(counts);
    EXPECT_EQ(report.total(), 1000u);
    EXPECT_EQ(report.flows(), before);
    return added ? std::string("(added)") : added.error();
  };
  ResizeCounts outside = good;
  outside.flow_cells.push_back({120, 0});
  EXPECT_EQ(refused(outside), "flow cell 120 outside the 10 x 12 matrix (indices 0..119)");
  ResizeCounts both = good;
  both.flows = other.flows();
  EXPECT_EQ(refused(both), "counts with both a flow matrix and flow cells");
  ResizeCounts left_out = good;
  left_out.flow_cells.pop_back();
  EXPECT_EQ(refused(left_out).rfind(
                "counts that do not add up: 500 keys, loads before 500, after 500, flows ", 0),
            0u)
      << refused(left_out);
  ResizeCounts no_cells = good;
  no_cells.flow_cells.clear();
  EXPECT_EQ(refused(no_cells),
            "counts that do not add up: 500 keys, loads before 500, after 500, flows 0");
  ResizeCounts huge = good;
  huge.flow_cells = {{0, ~std::uint64_t{0}}, {1, 2}};
  EXPECT_EQ(refused(huge), "counts that add up past 2^64 - 1");
  // A dense matrix must add up too: one with a key left out is refused.
  ResizeCounts dense{
      other.total(), other.moved(), other.loads_before(), other.loads_after(), other.flows(), {},
      false};
  for (std::uint64_t& cell : dense.flows) {
    if (cell != 0) {
      --cell;
      break;
    }
  }
  EXPECT_EQ(refused(dense),
            "counts that do not add up: 500 keys, loads before 500, after 500, flows 499");
  // Cells for a report that keeps no matrix (more than 2^22 cells).
  ResizeReport wide = *ResizeReport::create(algorithm("jump"), 3000, 3001, 0);
  ResizeCounts wide_cells{
      0, 0, std::vector<std::uint64_t>(3000), std::vector<std::uint64_t>(3001), {}, {}, true};
  const Result<std::uint64_t> no_matrix = wide.add_counts(wide_cells);
  ASSERT_FALSE(no_matrix);
  EXPECT_EQ(no_matrix.error(),
            "counts of another shape: loads 3000 and 3001, flows as cells where this report has "
            "3000, 3001 and 0");
  // An empty part (no keys) passes as no cells.
  wide_cells.flows_as_cells = false;
  EXPECT_TRUE(wide.add_counts(wide_cells));
  ResizeCounts empty{0,  0,   std::vector<std::uint64_t>(10), std::vector<std::uint64_t>(12), {},
                     {}, true};
  EXPECT_TRUE(report.add_counts(empty));
  EXPECT_TRUE(report.add_counts(good));
  EXPECT_EQ(report.total(), 1500u);
}

TEST(ResizeReport, CountsOfAnotherShapeAreRefusedAndAddNothing) {
  const KeySet keys = *KeySet::parse("0..999");
  ResizeReport report = *ResizeReport::create(algorithm("jump"), 10, 12, 0);
  report.add(keys, 0, keys.size());
  ResizeReport other = *ResizeReport::create(algorithm("jump"), 10, 13, 0);
  other.add(keys, 0, keys.size());
  const Result<std::uint64_t> added = report.add_counts({other.total(),
                                                         other.moved(),
                                                         other.loads_before(),
                                                         other.loads_after(),
                                                         other.flows(),
                                                         {},
                                                         false});
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error(),
            "counts of another shape: loads 10 and 13, flows 130 where this report has 10, 12 and "
            "120");
  EXPECT_EQ(report.total(), 1000u);
  const Result<std::uint64_t> impossible = report.add_counts({1,
                                                              2,
                                                              std::vector<std::uint64_t>(10),
                                                              std::vector<std::uint64_t>(12),
                                                              std::vector<std::uint64_t>(120),
                                                              {},
                                                              false});
  ASSERT_FALSE(impossible);
  EXPECT_EQ(impossible.error(), "counts with more moved keys than keys");
  EXPECT_EQ(report.total(), 1000u);
}

TEST(ResizeReport, BadCountsAreErrors) {
  const auto zero = ResizeReport::create(algorithm("jump"), 0, 12, 0);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error(), "from bucket count must be an integer in 1..1000000 (got '0')");
  EXPECT_FALSE(ResizeReport::create(algorithm("jump"), 10, 1000001, 0));
}

}  // namespace
}  // namespace jumphash
