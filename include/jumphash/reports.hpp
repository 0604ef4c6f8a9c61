// Reports built on the hash: which keys move when n changes (MOVED), how
// many keys each bucket holds (LOAD), and a key's jump history (TRACE).
//
// Reports produce rows (plain structs or callbacks); the interpreter renders
// them as text, the WebAssembly API hands them to the page's charts. Each
// report can run over a slice [begin, end) of a key set so that a caller can
// show progress and cancel between slices.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/batch.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/limits.hpp"

namespace jumphash {

// kMaxLoadBuckets, kMaxModuloTrace, kMaxFlowCells: in jumphash/limits.hpp,
// the one table of limits.

namespace detail {
/// One block of a report loop: up to kBatchBlockKeys consecutive keys of a
/// key set (values, and the Key of keys written one by one, else null) with
/// their buckets at two bucket counts.
struct KeyBlock {
  std::size_t count = 0;
  std::array<std::uint64_t, kBatchBlockKeys> values;
  std::array<const Key*, kBatchBlockKeys> keys;
  std::array<std::int32_t, kBatchBlockKeys> first, second;
  const std::string* label(std::size_t i) const { return keys[i] ? &keys[i]->label : nullptr; }
};

/// Fills `block` with keys[begin, end) (at most kBatchBlockKeys keys) and
/// their buckets among `first` (and among `second` when second > 0) by
/// buckets_batch. Bucket counts must be checked.
void look_up_block(const Algorithm& algorithm, const KeySet& keys, std::uint64_t begin,
                   std::uint64_t end, std::int32_t first, std::int32_t second, KeyBlock& block);

/// Calls visit(block) for consecutive blocks of keys[begin, end), looked up
/// as look_up_block does.
template <class Visit>
void for_each_block(const Algorithm& algorithm, const KeySet& keys, std::uint64_t begin,
                    std::uint64_t end, std::int32_t first, std::int32_t second, KeyBlock& block,
                    Visit&& visit) {
  for (std::uint64_t start = begin; start < end; start += kBatchBlockKeys) {
    look_up_block(algorithm, keys, start, std::min<std::uint64_t>(end, start + kBatchBlockKeys),
                  first, second, block);
    visit(block);
  }
}

/// Runs the blocks of keys[begin, end) in chunks on threads_for_keys
/// threads: on_block(block, sink) collects a block's rows into a chunk's
/// `Rows` (a container with clear()), and consume(rows) sees each chunk's
/// rows in key order on the calling thread.
template <class Rows, class OnBlock, class Consume>
void ordered_blocks(const Algorithm& algorithm, const KeySet& keys, std::uint64_t begin,
                    std::uint64_t end, std::int32_t first, std::int32_t second, OnBlock&& on_block,
                    Consume&& consume) {
  const unsigned threads = threads_for_keys(end - begin);
  const std::uint64_t chunks = (end - begin + kParallelChunkKeys - 1) / kParallelChunkKeys;
  std::vector<Rows> slots(ordered_chunk_slots(threads));
  run_ordered_chunks(
      chunks, threads,
      [&](std::uint64_t chunk, std::size_t slot, unsigned) {
        Rows& rows = slots[slot];
        rows.clear();
        const std::uint64_t start = begin + chunk * kParallelChunkKeys;
        KeyBlock block;
        for_each_block(algorithm, keys, start, std::min(end, start + kParallelChunkKeys), first,
                       second, block, [&](const KeyBlock& b) { on_block(b, rows); });
      },
      [&](std::uint64_t, std::size_t slot) { consume(slots[slot]); });
}
}  // namespace detail

/// Calls on_moved(value, label, old_bucket, new_bucket) for each key of
/// keys[begin, end) whose bucket differs between n = from and n = to, in
/// order, and returns how many keys moved. from and to must be checked.
/// Looks keys up in batches (buckets_batch) and, for key sets of at least
/// kParallelMinKeys keys, on report_threads() threads; on_moved is always
/// called on the calling thread, in key order.
template <class OnMoved>
std::uint64_t for_each_moved(const Algorithm& algorithm, const KeySet& keys, std::int32_t from,
                             std::int32_t to, std::uint64_t begin, std::uint64_t end,
                             OnMoved&& on_moved) {
  end = std::min(end, keys.size());
  if (begin >= end) return 0;
  std::uint64_t moved = 0;
  if (threads_for_keys(end - begin) <= 1) {
    detail::KeyBlock block;
    detail::for_each_block(algorithm, keys, begin, end, from, to, block,
                           [&](const detail::KeyBlock& b) {
                             for (std::size_t i = 0; i < b.count; ++i) {
                               if (b.first[i] != b.second[i]) {
                                 ++moved;
                                 on_moved(b.values[i], b.label(i), b.first[i], b.second[i]);
                               }
                             }
                           });
    return moved;
  }
  struct MovedRow {
    std::uint64_t value;
    const std::string* label;
    std::int32_t old_bucket, new_bucket;
  };
  detail::ordered_blocks<std::vector<MovedRow>>(
      algorithm, keys, begin, end, from, to,
      [](const detail::KeyBlock& b, std::vector<MovedRow>& rows) {
        for (std::size_t i = 0; i < b.count; ++i) {
          if (b.first[i] != b.second[i]) {
            rows.push_back({b.values[i], b.label(i), b.first[i], b.second[i]});
          }
        }
      },
      [&](const std::vector<MovedRow>& rows) {
        moved += rows.size();
        for (const MovedRow& row : rows) {
          on_moved(row.value, row.label, row.old_bucket, row.new_bucket);
        }
      });
  return moved;
}

/// Calls on_bucket(value, key, bucket) for each key of keys[begin, end) in
/// order, with its bucket among n (checked); `key` is the Key of keys
/// written one by one, null for ranges and random sets (as
/// KeySet::for_each_key). Batched and threaded as for_each_moved.
template <class OnBucket>
void for_each_bucket(const Algorithm& algorithm, const KeySet& keys, std::int32_t n,
                     std::uint64_t begin, std::uint64_t end, OnBucket&& on_bucket) {
  end = std::min(end, keys.size());
  if (begin >= end) return;
  if (threads_for_keys(end - begin) <= 1) {
    detail::KeyBlock block;
    detail::for_each_block(algorithm, keys, begin, end, n, 0, block,
                           [&](const detail::KeyBlock& b) {
                             for (std::size_t i = 0; i < b.count; ++i) {
                               on_bucket(b.values[i], b.keys[i], b.first[i]);
                             }
                           });
    return;
  }
  struct BucketRow {
    std::uint64_t value;
    const Key* key;
    std::int32_t bucket;
  };
  detail::ordered_blocks<std::vector<BucketRow>>(
      algorithm, keys, begin, end, n, 0,
      [](const detail::KeyBlock& b, std::vector<BucketRow>& rows) {
        for (std::size_t i = 0; i < b.count; ++i) rows.push_back({b.values[i], b.keys[i], b.first[i]});
      },
      [&](const std::vector<BucketRow>& rows) {
        for (const BucketRow& row : rows) on_bucket(row.value, row.key, row.bucket);
      });
}

/// Adds the number of keys of keys[begin, end) in each bucket among n to
/// loads[0..n) (loads.size() must be n; n must be checked). Batched and
/// threaded as for_each_moved (each thread counts into loads of its own,
/// summed at the end).
void add_loads(const Algorithm& algorithm, const KeySet& keys, std::int32_t n, std::uint64_t begin,
               std::uint64_t end, std::vector<std::uint64_t>& loads);

/// Balance of a load vector against the uniform expectation total / n.
struct LoadStats {
  std::uint64_t total = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  double mean = 0;
  double max_over_mean = 0;              ///< 0 when there are no keys
  double chi_square = 0;                 ///< Pearson's chi-square against uniform
  std::uint64_t degrees_of_freedom = 0;  ///< n - 1
};
LoadStats load_stats(const std::vector<std::uint64_t>& loads);

/// One row of TRACE: at bucket count `n` the key moves to `bucket`.
struct TraceStep {
  std::int64_t n;
  std::int32_t bucket;
};

/// The bucket counts n in 1..max at which the key's bucket differs from its
/// bucket at n - 1 (n = 1 always included), in increasing n. Consistent
/// algorithms walk the active indices backwards (ch(k, b) for the previous
/// answer b), so max may be 2147483647; modulo, which changes at almost every
/// n, allows max up to 1000000. Errors: max outside those ranges.
Result<std::vector<TraceStep>> trace_key(const Algorithm& algorithm, std::uint64_t key,
                                         std::int64_t max);

/// One moved key of a resize, for the sample of moved keys.
struct MovedKey {
  std::uint64_t value;
  std::string label;  ///< empty for numeric keys
  std::int32_t old_bucket;
  std::int32_t new_bucket;
};

/// One non-zero cell of a row-major flow matrix: matrix[index] == count.
struct FlowCell {
  std::uint32_t index;
  std::uint64_t count;
  bool operator==(const FlowCell&) const = default;
};

/// Calls on_cell(FlowCell) for each non-zero cell of a flow matrix, in
/// index order. A resize moves few keys: 1000 -> 1001 buckets fills about
/// 2,000 of 1,001,000 cells (the diagonal and the moved keys' cells).
/// Matrices hold at most kMaxFlowCells (2^22) cells, so an index fits 32 bits.
template <class OnCell>
void for_each_nonzero_cell(const std::vector<std::uint64_t>& matrix, OnCell&& on_cell) {
  for (std::size_t i = 0; i < matrix.size(); ++i) {
    if (matrix[i] != 0) on_cell(FlowCell{static_cast<std::uint32_t>(i), matrix[i]});
  }
}

/// The non-zero cells of a flow matrix, in index order (for_each_nonzero_cell).
std::vector<FlowCell> nonzero_cells(const std::vector<std::uint64_t>& matrix);

/// A resize report's row-major flow matrix that also marks which cells are
/// non-zero (a bit a cell), so that its cells come out without reading the
/// whole matrix: 1000 -> 1001 buckets is 1,001,000 cells of which about
/// 2,000 are non-zero, and a split report lists the cells of every part and
/// of the merge (reading an 8 MB matrix took about 1 ms a part in the page's
/// module; the bits are 125 KB).
///
/// The counts of the marked cells are kept in a hash table while few cells
/// are marked (fewer than one in kDenseFrom and than kDenseFromCells), and
/// in a whole row-major array from then on. A consistent algorithm's resize
/// marks the diagonal and the cells into the added buckets (or out of the
/// removed ones), one cell a row: 8 KB apart in a whole array of 1000 ->
/// 1001, whose first job in a fresh module spent about 20 ms of 80 having
/// the system hand it those pages (Node; the same job again took 60), and
/// every job held 8 MB. Modulo, which moves most keys, fills most cells and
/// goes to the whole array within its first 4,096 moved keys.
class FlowMatrix {
 public:
  /// The share of cells (one in kDenseFrom), or the number of cells
  /// (kDenseFromCells), from which counts are kept in a whole array rather
  /// than the hash table: a table of 4,096 cells has 8,192 slots (128 KB).
  static constexpr std::size_t kDenseFrom = 16;
  static constexpr std::size_t kDenseFromCells = 4096;

  FlowMatrix() = default;
  /// A matrix of `cells` zero counts (at most kMaxFlowCells).
  explicit FlowMatrix(std::size_t cells) : size_(cells), nonzero_((cells + 63) / 64, 0) {}
  /// Copies the marked cells (the others hold nothing to copy).
  FlowMatrix(const FlowMatrix& other);
  FlowMatrix& operator=(const FlowMatrix& other);
  FlowMatrix(FlowMatrix&&) noexcept = default;
  FlowMatrix& operator=(FlowMatrix&&) noexcept = default;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  /// Keys in cell `index` (< size()).
  std::uint64_t count(std::size_t index) const { return marked(index) ? stored(index) : 0; }
  /// Every cell, row-major, as `Count` (double for the page's module): a
  /// copy, zero where not marked.
  template <class Count = std::uint64_t>
  std::vector<Count> counts() const {
    std::vector<Count> cells(size_, Count{0});
    for_each_nonzero([&](FlowCell cell) { cells[cell.index] = static_cast<Count>(cell.count); });
    return cells;
  }

  /// Adds one key to cell `index` (< size()).
  void increment(std::size_t index) { add(index, 1); }
  /// Adds `count` keys to cell `index` (< size()).
  void add(std::size_t index, std::uint64_t count) {
    if (!dense_) {
      if (count != 0) add_sparse(index, count);
    } else if (marked(index)) {
      store_[index] += count;
    } else if (count != 0) {
      store_[index] = count;
      mark(index);
    }
  }

  /// How many cells are non-zero.
  std::size_t nonzero_count() const;
  /// Calls on_cell(FlowCell) for each non-zero cell, in index order.
  template <class OnCell>
  void for_each_nonzero(OnCell&& on_cell) const {
    // No bit past size() is ever set, so whole words need no masks.
    for (std::size_t word = 0; word < nonzero_.size(); ++word) {
      for_each_marked(word, nonzero_[word], on_cell);
    }
  }
  /// Calls on_cell(FlowCell) for each non-zero cell of index in [begin, end)
  /// (end <= size()), in index order, reading the marks a word (64 cells) at
  /// a time: a row of 1,001 cells is 16 words.
  template <class OnCell>
  void for_each_nonzero_in(std::size_t begin, std::size_t end, OnCell&& on_cell) const {
    for (std::size_t word = begin / 64; word * 64 < end; ++word) {
      std::uint64_t bits = nonzero_[word];
      if (word * 64 < begin) bits &= ~std::uint64_t{0} << (begin % 64);
      if (end - word * 64 < 64) bits &= (std::uint64_t{1} << (end - word * 64)) - 1;
      for_each_marked(word, bits, on_cell);
    }
  }

 private:
  /// Calls on_cell for the cells of mark word `word` whose bits are set in `bits`.
  template <class OnCell>
  void for_each_marked(std::size_t word, std::uint64_t bits, OnCell& on_cell) const {
    for (; bits != 0; bits &= bits - 1) {
      const std::size_t index = word * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      on_cell(FlowCell{static_cast<std::uint32_t>(index), stored(index)});
    }
  }
  bool marked(std::size_t index) const { return (nonzero_[index / 64] >> (index % 64) & 1) != 0; }
  void mark(std::size_t index) { nonzero_[index / 64] |= std::uint64_t{1} << (index % 64); }
  /// The count of marked cell `index`: read in place from the whole array,
  /// probed for in the table (out of line, slot_of).
  std::uint64_t stored(std::size_t index) const {
    return dense_ ? store_[index] : store_[2 * slot_of(index) + 1];
  }
  /// The hash table's slot that holds cell `index`, or the empty slot where
  /// it would go (linear probing; the table is at most half full).
  std::size_t slot_of(std::size_t index) const;
  /// add() while the counts are in the hash table, which may then grow, or
  /// give every count to the whole array.
  void add_sparse(std::size_t index, std::uint64_t count);
  /// Writes the count of a cell not in the table or array yet.
  void put(std::size_t index, std::uint64_t count);

  std::size_t size_ = 0;
  std::vector<std::uint64_t> nonzero_;  ///< bit i % 64 of word i / 64: cell i is non-zero
  /// Dense: size_ counts, valid where marked. Else the hash table: `slots_`
  /// pairs of (cell index + 1, 0 for an empty slot; the cell's count).
  std::unique_ptr<std::uint64_t[]> store_;
  bool dense_ = false;
  /// The hash table's slots (a power of 2); 0 before the first and once dense.
  std::size_t slots_ = 0;
  std::size_t entries_ = 0;  ///< cells in the hash table
};

/// The additive part of a resize report (ResizeReport, NodeResizeReport)
/// over some keys: what another instance computed over another key range
/// (the page splits a report across Web Workers, each with its own module),
/// to add to a report with `add_counts`. Loads and flows are the report's
/// shapes: sources x destinations, flows row-major or empty when not kept.
/// In place of `flows`, a part may give `flow_cells` (nonzero_cells of its
/// matrix, any order; a repeated index adds up) and set `flows_as_cells`:
/// a cell per moved key and source instead of one per matrix cell, for the
/// page's workers to pass.
struct ResizeCounts {
  std::uint64_t total = 0;
  std::uint64_t moved = 0;
  std::vector<std::uint64_t> loads_before, loads_after, flows;
  std::vector<FlowCell> flow_cells;
  bool flows_as_cells = false;
};

/// The structured resize report behind the page's Resize view: moved count,
/// loads before and after, the source -> destination count matrix and the
/// first moved keys. Feed it key slices with `add`; it keeps no key list.
class ResizeReport {
 public:
  /// Errors: from or to outside 1..2147483647, or loads that would not fit
  /// (from or to above kMaxLoadBuckets).
  static Result<ResizeReport> create(const Algorithm& algorithm, std::int64_t from, std::int64_t to,
                                     std::size_t sample_limit);

  /// Accounts for keys[begin, end).
  void add(const KeySet& keys, std::uint64_t begin, std::uint64_t end);
  /// Accounts for keys[begin, end), which come before every key added so
  /// far (a range counted from its end, as by the page's second worker):
  /// the counts of add, and the slice's moved keys go in front of the
  /// sample, which stays the first moved keys in key order, at most the
  /// sample limit. Moves the keys sampled so far once a call.
  void add_before(const KeySet& keys, std::uint64_t begin, std::uint64_t end);

  /// Adds the counts of the same report over other keys (the sample is the
  /// caller's to join, in key order). Errors: loads or flows of another
  /// shape (not from, to and from x to, a cell index outside the matrix,
  /// both forms, or flows when this report keeps none), more moved keys
  /// than keys, or loads or flows that do not add up to the part's total
  /// (so a part that left its flows out is refused); nothing is added then.
  Result<std::uint64_t> add_counts(const ResizeCounts& counts);

  const Algorithm& algorithm() const { return *algorithm_; }
  std::int32_t from() const { return from_; }
  std::int32_t to() const { return to_; }
  std::uint64_t total() const { return total_; }
  std::uint64_t moved() const { return moved_; }
  /// The fewest keys any scheme must move: those that cannot stay, in
  /// expectation total x |to - from| / max(from, to).
  double minimum_moved_expected() const;
  const std::vector<std::uint64_t>& loads_before() const { return before_; }
  const std::vector<std::uint64_t>& loads_after() const { return after_; }
  /// Row-major from x to matrix: flows()[old * to + new] keys went from
  /// bucket old to bucket new (staying keys on the diagonal). Empty when
  /// from x to exceeds kMaxFlowCells. A copy that reads every cell; a
  /// cell at a time is flow_matrix().count(index).
  std::vector<std::uint64_t> flows() const { return flows_.counts(); }
  /// The same matrix, with its non-zero cells marked (FlowMatrix).
  const FlowMatrix& flow_matrix() const { return flows_; }
  bool has_flows() const { return !flows_.empty(); }
  const std::vector<MovedKey>& sample() const { return sample_; }

  /// Chi-square of where the moved keys of `source` went, against uniform
  /// over the buckets they may go to: the new buckets from..to-1 when
  /// growing, the surviving buckets 0..to-1 when shrinking, any other bucket
  /// for non-consistent algorithms. dof = destinations - 1; both 0 when the
  /// source moved no key or the matrix was not kept.
  struct FlowBalance {
    std::uint64_t moved_out = 0;
    double chi_square = 0;
    std::uint64_t degrees_of_freedom = 0;
  };
  FlowBalance flow_balance(std::int32_t source) const;

 private:
  ResizeReport(const Algorithm& algorithm, std::int32_t from, std::int32_t to,
               std::size_t sample_limit);
  /// Counts one moved key (out of line: most keys stay, and add has two loops).
  [[gnu::noinline]] void add_moved(std::uint64_t value, const std::string* label,
                                   std::int32_t old_bucket, std::int32_t new_bucket);
  const Algorithm* algorithm_;
  std::int32_t from_, to_;
  std::size_t sample_limit_;
  std::uint64_t total_ = 0, moved_ = 0;
  std::vector<std::uint64_t> before_, after_;
  FlowMatrix flows_;
  std::vector<MovedKey> sample_;
};

// ---- reports on node lists ----------------------------------------------------

/// For each node of `before`, its index in `after` (matched by name), or -1
/// when the node is gone.
std::vector<std::int64_t> node_index_map(const NodeList& before, const NodeList& after);

/// Calls on_moved(value, label, old_index, new_index) for each key of
/// keys[begin, end) whose node (by name) differs between the clusters
/// `before` and `after` (indices into their nodes()), in order, and returns
/// how many keys moved.
template <class OnMoved>
std::uint64_t for_each_moved_node(const Cluster& before, const Cluster& after, const KeySet& keys,
                                  std::uint64_t begin, std::uint64_t end, OnMoved&& on_moved) {
  const std::vector<std::int64_t> map = node_index_map(before.nodes(), after.nodes());
  std::uint64_t moved = 0;
  keys.for_each_key(begin, end, [&](std::uint64_t value, const Key* key) {
    const std::uint32_t old_node = before.locate(value, key);
    const std::uint32_t new_node = after.locate(value, key);
    if (map[old_node] != static_cast<std::int64_t>(new_node)) {
      ++moved;
      on_moved(value, key ? &key->label : nullptr, old_node, new_node);
    }
  });
  return moved;
}

/// Adds the number of keys of keys[begin, end) on each node of `cluster` to
/// loads[0..nodes) (loads.size() must be cluster.nodes().size()).
void add_node_loads(const Cluster& cluster, const KeySet& keys, std::uint64_t begin,
                    std::uint64_t end, std::vector<std::uint64_t>& loads);

/// Each node's share of the keys that a perfect scheme gives it: weight /
/// total weight for algorithms that honour weights, 1 / nodes otherwise.
std::vector<double> ideal_shares(const Cluster& cluster);

/// The fewest keys any scheme must move from `before` to `after`, as a
/// fraction: the share that nodes lose (gone nodes lose all of theirs),
/// sum over nodes of max(0, share before - share after).
double minimum_moved_fraction(const Cluster& before, const Cluster& after);

/// One moved key of a node resize.
struct MovedNodeKey {
  std::uint64_t value;
  std::string label;       ///< empty for numeric keys
  std::uint32_t old_node;  ///< index into the before list
  std::uint32_t new_node;  ///< index into the after list
};

/// The structured report of a change to a node list: moved count against
/// the fewest possible, loads per node before and after, the old-node ->
/// new-node flow matrix (the migration plan) and the first moved keys.
class NodeResizeReport {
 public:
  /// `before` and `after` must use the same algorithm.
  NodeResizeReport(Cluster before, Cluster after, std::size_t sample_limit);

  /// Accounts for keys[begin, end).
  void add(const KeySet& keys, std::uint64_t begin, std::uint64_t end);
  /// Accounts for keys[begin, end), which come before every key added so
  /// far (a range counted from its end, as by the page's second worker):
  /// the counts of add, and the slice's moved keys go in front of the
  /// sample, which stays the first moved keys in key order, at most the
  /// sample limit. Moves the keys sampled so far once a call.
  void add_before(const KeySet& keys, std::uint64_t begin, std::uint64_t end);

  /// As ResizeReport::add_counts (sources and destinations are the nodes
  /// before and after).
  Result<std::uint64_t> add_counts(const ResizeCounts& counts);

  const Cluster& before() const { return before_; }
  const Cluster& after() const { return after_; }
  std::uint64_t total() const { return total_; }
  std::uint64_t moved() const { return moved_; }
  /// total x minimum_moved_fraction(before, after).
  double minimum_moved_expected() const;
  const std::vector<std::uint64_t>& loads_before() const { return loads_before_; }
  const std::vector<std::uint64_t>& loads_after() const { return loads_after_; }
  /// Row-major before x after matrix: flows()[old * after_nodes + new] keys
  /// went from node old to node new (a surviving node's staying keys on its
  /// own cell). Empty when the matrix would exceed kMaxFlowCells. A copy
  /// that reads every cell, as ResizeReport::flows.
  std::vector<std::uint64_t> flows() const { return flows_.counts(); }
  /// The same matrix, with its non-zero cells marked (FlowMatrix).
  const FlowMatrix& flow_matrix() const { return flows_; }
  const std::vector<MovedNodeKey>& sample() const { return sample_; }

 private:
  Cluster before_, after_;
  std::vector<std::int64_t> map_;
  std::size_t sample_limit_;
  std::uint64_t total_ = 0, moved_ = 0;
  std::vector<std::uint64_t> loads_before_, loads_after_;
  FlowMatrix flows_;
  std::vector<MovedNodeKey> sample_;
};

}  // namespace jumphash
