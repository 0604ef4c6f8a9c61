// MOVED, LOAD and TRACE as rows; see jumphash/reports.hpp.
#include "jumphash/reports.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace jumphash {

namespace detail {

void look_up_block(const Algorithm& algorithm, const KeySet& keys, std::uint64_t begin,
                   std::uint64_t end, std::int32_t first, std::int32_t second, KeyBlock& block) {
  std::size_t count = 0;
  keys.for_each_key(begin, end, [&](std::uint64_t value, const Key* key) {
    block.values[count] = value;
    block.keys[count] = key;
    ++count;
  });
  block.count = count;
  const std::span<const std::uint64_t> values(block.values.data(), count);
  const std::span<std::int32_t> out_first(block.first.data(), count);
  if (second > 0) {
    buckets_batch_pair(algorithm, values, first, second, out_first,
                       std::span<std::int32_t>(block.second.data(), count));
  } else {
    buckets_batch(algorithm, values, first, out_first);
  }
}

}  // namespace detail

void add_loads(const Algorithm& algorithm, const KeySet& keys, std::int32_t n, std::uint64_t begin,
               std::uint64_t end, std::vector<std::uint64_t>& loads) {
  end = std::min(end, keys.size());
  if (begin >= end) return;
  std::uint64_t* counts = loads.data();
  auto count_block = [](std::uint64_t* into) {
    return [into](const detail::KeyBlock& block) {
      for (std::size_t i = 0; i < block.count; ++i) ++into[block.first[i]];
    };
  };
  // Each thread counts into loads of its own: at most 256 MiB of them.
  constexpr std::uint64_t kMaxCounterBytes = std::uint64_t{1} << 28;
  const std::uint64_t per_thread = static_cast<std::uint64_t>(n) * sizeof(std::uint64_t);
  const unsigned threads = static_cast<unsigned>(std::min<std::uint64_t>(
      threads_for_keys(end - begin), std::max<std::uint64_t>(1, kMaxCounterBytes / per_thread)));
  if (threads <= 1) {
    detail::KeyBlock block;
    detail::for_each_block(algorithm, keys, begin, end, n, 0, block, count_block(counts));
    return;
  }
  std::vector<std::vector<std::uint64_t>> thread_loads(
      threads, std::vector<std::uint64_t>(static_cast<std::size_t>(n)));
  const std::uint64_t chunks = (end - begin + kParallelChunkKeys - 1) / kParallelChunkKeys;
  run_ordered_chunks(
      chunks, threads,
      [&](std::uint64_t chunk, std::size_t, unsigned worker) {
        const std::uint64_t start = begin + chunk * kParallelChunkKeys;
        detail::KeyBlock block;
        detail::for_each_block(algorithm, keys, start, std::min(end, start + kParallelChunkKeys),
                               n, 0, block, count_block(thread_loads[worker].data()));
      },
      [](std::uint64_t, std::size_t) {});
  for (const std::vector<std::uint64_t>& counted : thread_loads) {
    for (std::size_t bucket = 0; bucket < counted.size(); ++bucket) counts[bucket] += counted[bucket];
  }
}

LoadStats load_stats(const std::vector<std::uint64_t>& loads) {
  LoadStats stats;
  if (loads.empty()) return stats;
  stats.min = *std::min_element(loads.begin(), loads.end());
  stats.max = *std::max_element(loads.begin(), loads.end());
  for (std::uint64_t load : loads) stats.total += load;
  stats.mean = static_cast<double>(stats.total) / static_cast<double>(loads.size());
  stats.degrees_of_freedom = loads.size() - 1;
  if (stats.total == 0) return stats;
  stats.max_over_mean = static_cast<double>(stats.max) / stats.mean;
  for (std::uint64_t load : loads) {
    const double d = static_cast<double>(load) - stats.mean;
    stats.chi_square += d * d / stats.mean;
  }
  return stats;
}

Result<std::vector<TraceStep>> trace_key(const Algorithm& algorithm, std::uint64_t key,
                                         std::int64_t max) {
  std::vector<TraceStep> steps;
  if (!algorithm.consistent) {
    Result<std::int32_t> checked = check_bucket_count(
        max, std::string("TRACE max for ") + std::string(algorithm.name), kMaxModuloTrace);
    if (!checked) return Error{checked.error()};
    std::int32_t previous = -1;
    for (std::int32_t n = 1; n <= *checked; ++n) {
      const std::int32_t bucket = algorithm.function(key, n);
      if (bucket != previous) steps.push_back({n, bucket});
      previous = bucket;
    }
    return steps;
  }
  Result<std::int32_t> checked = check_bucket_count(max, "TRACE max");
  if (!checked) return Error{checked.error()};
  // For a monotone hash, ch(k, n) is the largest active index below n, and
  // the bucket changes exactly at n = a + 1 for each active index a. Walk
  // them downwards: the active index below b is ch(k, b).
  std::int32_t bucket = algorithm.function(key, *checked);
  steps.push_back({std::int64_t{bucket} + 1, bucket});
  while (bucket > 0) {
    bucket = algorithm.function(key, bucket);
    steps.push_back({std::int64_t{bucket} + 1, bucket});
  }
  std::reverse(steps.begin(), steps.end());
  return steps;
}

ResizeReport::ResizeReport(const Algorithm& algorithm, std::int32_t from, std::int32_t to,
                           std::size_t sample_limit)
    : algorithm_(&algorithm),
      from_(from),
      to_(to),
      sample_limit_(sample_limit),
      before_(static_cast<std::size_t>(from)),
      after_(static_cast<std::size_t>(to)) {
  if (static_cast<std::uint64_t>(from) * static_cast<std::uint64_t>(to) <= kMaxFlowCells) {
    flows_ = FlowMatrix(static_cast<std::size_t>(from) * static_cast<std::size_t>(to));
  }
}

Result<ResizeReport> ResizeReport::create(const Algorithm& algorithm, std::int64_t from,
                                          std::int64_t to, std::size_t sample_limit) {
  Result<std::int32_t> checked_from =
      check_bucket_count(from, "from bucket count", kMaxLoadBuckets);
  if (!checked_from) return Error{checked_from.error()};
  Result<std::int32_t> checked_to = check_bucket_count(to, "to bucket count", kMaxLoadBuckets);
  if (!checked_to) return Error{checked_to.error()};
  return ResizeReport(algorithm, *checked_from, *checked_to, sample_limit);
}

namespace {

/// Runs `add_slice`, which appends a slice's moved keys to `sample` (at
/// most `limit` in all), with the keys sampled so far set aside, then puts
/// as many of those after them as the limit leaves room for: a slice that
/// comes before every key added so far goes in front (add_before).
template <class MovedKeyT, class AddSlice>
void sample_in_front(std::vector<MovedKeyT>& sample, std::size_t limit, AddSlice&& add_slice) {
  std::vector<MovedKeyT> later;
  later.swap(sample);
  add_slice();
  // push_back, not a ranged insert: the module already has it (a smaller page).
  for (std::size_t i = 0; i < later.size() && sample.size() < limit; ++i) {
    sample.push_back(std::move(later[i]));
  }
}

}  // namespace

void ResizeReport::add_before(const KeySet& keys, std::uint64_t begin, std::uint64_t end) {
  sample_in_front(sample_, sample_limit_, [&] { add(keys, begin, end); });
}

void ResizeReport::add(const KeySet& keys, std::uint64_t begin, std::uint64_t end) {
  end = std::min(end, keys.size());
  if (begin >= end) return;
  std::uint64_t* before = before_.data();
  std::uint64_t* after = after_.data();
  const bool flows = !flows_.empty();
  // A staying key (most keys) costs one count, in `stayed`, added to its
  // bucket's load before and after and to the flows' diagonal at the end;
  // a moved key counts in both loads and its flow cell at once.
  std::vector<std::uint64_t> stayed(static_cast<std::size_t>(std::min(from_, to_)));
  std::uint64_t* stays = stayed.data();
  detail::KeyBlock block;
  if (pair_derives_smaller(*algorithm_) && from_ != to_) {
    // One pass: a key whose bucket among the larger count is below the
    // smaller count stays there (buckets_batch_pair's reasoning); every
    // other key moved, and only those are looked up at the smaller count.
    const bool growing = to_ > from_;
    const std::int32_t larger = growing ? to_ : from_;
    const std::int32_t smaller = growing ? from_ : to_;
    detail::for_each_block(
        *algorithm_, keys, begin, end, larger, 0, block, [&](const detail::KeyBlock& b) {
          for (std::size_t i = 0; i < b.count; ++i) {
            const std::int32_t bucket = b.first[i];
            if (bucket < smaller) {
              ++stays[bucket];
              continue;
            }
            const std::int32_t other = algorithm_->function(b.values[i], smaller);
            add_moved(b.values[i], b.label(i), growing ? other : bucket, growing ? bucket : other);
          }
        });
  } else {
    detail::for_each_block(*algorithm_, keys, begin, end, from_, to_, block,
                           [&](const detail::KeyBlock& b) {
                             for (std::size_t i = 0; i < b.count; ++i) {
                               const std::int32_t old_bucket = b.first[i];
                               const std::int32_t new_bucket = b.second[i];
                               if (old_bucket == new_bucket) {
                                 ++stays[old_bucket];
                                 continue;
                               }
                               add_moved(b.values[i], b.label(i), old_bucket, new_bucket);
                             }
                           });
  }
  for (std::size_t bucket = 0; bucket < stayed.size(); ++bucket) {
    before[bucket] += stayed[bucket];
    after[bucket] += stayed[bucket];
    if (flows) flows_.add(bucket * static_cast<std::size_t>(to_) + bucket, stayed[bucket]);
  }
  total_ += end - begin;
}

void ResizeReport::add_moved(std::uint64_t value, const std::string* label, std::int32_t old_bucket,
                             std::int32_t new_bucket) {
  ++before_[static_cast<std::size_t>(old_bucket)];
  ++after_[static_cast<std::size_t>(new_bucket)];
  ++moved_;
  if (!flows_.empty()) {
    flows_.increment(static_cast<std::size_t>(old_bucket) * static_cast<std::size_t>(to_) +
                     static_cast<std::size_t>(new_bucket));
  }
  if (sample_.size() < sample_limit_) {
    sample_.push_back({value, label ? *label : std::string(), old_bucket, new_bucket});
  }
}

FlowMatrix::FlowMatrix(const FlowMatrix& other)
    : size_(other.size_),
      nonzero_(other.nonzero_),
      dense_(other.dense_),
      slots_(other.slots_),
      entries_(other.entries_) {
  const std::size_t stored = dense_ ? size_ : 2 * slots_;
  if (stored == 0) return;
  store_.reset(new std::uint64_t[stored]);
  if (dense_) {  // not zeroed: read only where marked
    other.for_each_nonzero([&](FlowCell cell) { store_[cell.index] = cell.count; });
  } else {
    std::copy(other.store_.get(), other.store_.get() + stored, store_.get());
  }
}

// slot_of and put stay out of line: inlined into every loop that lists
// cells, the table's probe made the page's module about 0.7 KB (gzip)
// larger, which the embed page's budget has no room for. (stored() reads
// the whole array inline: modulo's flow balance reads every cell.)
[[gnu::noinline]] std::size_t FlowMatrix::slot_of(std::size_t index) const {
  const std::uint64_t key = std::uint64_t{index} + 1;  // 0: an empty slot
  std::size_t slot = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 32);
  for (;; ++slot) {
    slot &= slots_ - 1;
    if (store_[2 * slot] == 0 || store_[2 * slot] == key) return slot;
  }
}

void FlowMatrix::add_sparse(std::size_t index, std::uint64_t count) {
  if (entries_ != 0) {
    const std::size_t slot = slot_of(index);
    if (store_[2 * slot] != 0) {
      store_[2 * slot + 1] += count;
      return;
    }
  }
  mark(index);
  std::unique_ptr<std::uint64_t[]> table;
  std::size_t slots = 0;
  if (entries_ + 1 >= kDenseFromCells || (entries_ + 1) * kDenseFrom >= size_) {
    // From here on, a whole array, with the table's counts moved into it.
    table = std::move(store_);
    slots = slots_;
    store_.reset(new std::uint64_t[size_]);  // not zeroed: read only where marked
    dense_ = true;
    slots_ = 0;
    entries_ = 0;
  } else if (2 * (entries_ + 1) > slots_) {
    // Twice the slots (64 at first), every cell placed again.
    table = std::move(store_);
    slots = slots_;
    slots_ = std::max<std::size_t>(64, 2 * slots_);
    store_.reset(new std::uint64_t[2 * slots_]());
    entries_ = 0;
  }
  for (std::size_t slot = 0; slot < slots; ++slot) {
    if (table[2 * slot] != 0) {
      put(static_cast<std::size_t>(table[2 * slot] - 1), table[2 * slot + 1]);
    }
  }
  put(index, count);
}

[[gnu::noinline]] void FlowMatrix::put(std::size_t index, std::uint64_t count) {
  if (dense_) {
    store_[index] = count;
    return;
  }
  const std::size_t slot = slot_of(index);
  store_[2 * slot] = std::uint64_t{index} + 1;
  store_[2 * slot + 1] = count;
  ++entries_;
}

FlowMatrix& FlowMatrix::operator=(const FlowMatrix& other) {
  if (this != &other) *this = FlowMatrix(other);
  return *this;
}

std::size_t FlowMatrix::nonzero_count() const {
  std::size_t nonzero = 0;
  for (const std::uint64_t bits : nonzero_)
    nonzero += static_cast<std::size_t>(std::popcount(bits));
  return nonzero;
}

std::vector<FlowCell> nonzero_cells(const std::vector<std::uint64_t>& matrix) {
  std::vector<FlowCell> cells;
  for_each_nonzero_cell(matrix, [&](FlowCell cell) { cells.push_back(cell); });
  return cells;
}

namespace {
/// Adds `from` to `to` element by element (same sizes, checked by the caller).
void add_same_shape(std::vector<std::uint64_t>& to, const std::vector<std::uint64_t>& from) {
  for (std::size_t i = 0; i < to.size(); ++i) to[i] += from[i];
}

/// Adds `count` to `sum`; false past 2^64 - 1.
bool add_to(std::uint64_t& sum, std::uint64_t count) {
  return !__builtin_add_overflow(sum, count, &sum);
}

/// The report's counts plus `counts`, all or nothing; returns the new total.
/// Cold: it runs once per merged part, so it is compiled for size (the
/// page's module), not unrolled.
[[gnu::cold]] Result<std::uint64_t> add_resize_counts(const ResizeCounts& counts,
                                                      std::uint64_t& total, std::uint64_t& moved,
                                                      std::vector<std::uint64_t>& before,
                                                      std::vector<std::uint64_t>& after,
                                                      FlowMatrix& flows) {
  const auto shape = [](std::size_t size) { return std::to_string(size); };
  const bool sparse = counts.flows_as_cells;
  if (sparse ? !counts.flows.empty() : !counts.flow_cells.empty()) {
    return fail("counts with both a flow matrix and flow cells");
  }
  // Cells stand for a matrix of this report's shape: it must keep one.
  const bool flows_fit = sparse ? !flows.empty() : counts.flows.size() == flows.size();
  if (counts.loads_before.size() != before.size() || counts.loads_after.size() != after.size() ||
      !flows_fit) {
    return fail("counts of another shape: loads ", shape(counts.loads_before.size()), " and ",
                shape(counts.loads_after.size()), ", flows ",
                sparse ? std::string("as cells") : shape(counts.flows.size()),
                " where this report has ", shape(before.size()), ", ", shape(after.size()), " and ",
                shape(flows.size()));
  }
  if (counts.moved > counts.total) return fail("counts with more moved keys than keys");
  // Every key of the part has one bucket before, one after and one cell.
  std::uint64_t sums[3] = {0, 0, 0};  // loads before, after, flows
  bool fits = true;
  for (std::uint64_t c : counts.loads_before) fits &= add_to(sums[0], c);
  for (std::uint64_t c : counts.loads_after) fits &= add_to(sums[1], c);
  for (std::uint64_t c : counts.flows) fits &= add_to(sums[2], c);
  for (const FlowCell& cell : counts.flow_cells) {
    if (cell.index >= flows.size()) {
      return fail("flow cell ", std::to_string(cell.index), " outside the ", shape(before.size()),
                  " x ", shape(after.size()), " matrix (indices 0..", shape(flows.size() - 1), ")");
    }
    fits &= add_to(sums[2], cell.count);
  }
  if (flows.empty()) sums[2] = counts.total;
  if (!fits) return fail("counts that add up past 2^64 - 1");
  if (sums[0] != counts.total || sums[1] != counts.total || sums[2] != counts.total) {
    return fail("counts that do not add up: ", std::to_string(counts.total), " keys, loads before ",
                std::to_string(sums[0]), ", after ", std::to_string(sums[1]), ", flows ",
                std::to_string(sums[2]));
  }
  add_same_shape(before, counts.loads_before);
  add_same_shape(after, counts.loads_after);
  if (sparse) {
    for (const FlowCell& cell : counts.flow_cells) flows.add(cell.index, cell.count);
  } else {
    for (std::size_t i = 0; i < counts.flows.size(); ++i) flows.add(i, counts.flows[i]);
  }
  total += counts.total;
  moved += counts.moved;
  return total;
}
}  // namespace

Result<std::uint64_t> ResizeReport::add_counts(const ResizeCounts& counts) {
  return add_resize_counts(counts, total_, moved_, before_, after_, flows_);
}

double ResizeReport::minimum_moved_expected() const {
  const double larger = static_cast<double>(std::max(from_, to_));
  return static_cast<double>(total_) * static_cast<double>(std::abs(to_ - from_)) / larger;
}

ResizeReport::FlowBalance ResizeReport::flow_balance(std::int32_t source) const {
  FlowBalance balance;
  if (flows_.empty() || source < 0 || source >= from_) return balance;
  const std::size_t row = static_cast<std::size_t>(source) * static_cast<std::size_t>(to_);
  // The keys that left: the row's non-zero cells but the one the source
  // stays in (row + source, past the row when the source is gone), read
  // through the matrix's marks rather than cell by cell: a report over
  // 1000 -> 1001 asks this of 1,000 rows of 1,001 cells, about 1,000 of
  // them non-zero in all.
  flows_.for_each_nonzero_in(row, row + static_cast<std::size_t>(to_), [&](FlowCell cell) {
    if (cell.index != row + static_cast<std::size_t>(source)) balance.moved_out += cell.count;
  });
  // The destinations: d in [first, to), every one for a consistent
  // algorithm, all but the source itself otherwise.
  const bool consistent = algorithm_->consistent;
  const std::int32_t first = consistent && to_ > from_ ? from_ : 0;
  const auto is_destination = [&](std::int32_t d) { return consistent || d != source; };
  const std::size_t destinations =
      static_cast<std::size_t>(to_ - first) - (!consistent && source < to_ ? 1 : 0);
  if (balance.moved_out == 0 || destinations < 2) return balance;
  const double expected =
      static_cast<double>(balance.moved_out) / static_cast<double>(destinations);
  for (std::int32_t d = first; d < to_; ++d) {
    if (!is_destination(d)) continue;
    const double diff =
        static_cast<double>(flows_.count(row + static_cast<std::size_t>(d))) - expected;
    balance.chi_square += diff * diff / expected;
  }
  balance.degrees_of_freedom = destinations - 1;
  return balance;
}

// ---- node lists ---------------------------------------------------------------

std::vector<std::int64_t> node_index_map(const NodeList& before, const NodeList& after) {
  std::unordered_map<std::string_view, std::int64_t> index_after;
  for (std::size_t i = 0; i < after.size(); ++i) index_after.emplace(after[i].name, i);
  std::vector<std::int64_t> map(before.size(), -1);
  for (std::size_t i = 0; i < before.size(); ++i) {
    const auto found = index_after.find(before[i].name);
    if (found != index_after.end()) map[i] = found->second;
  }
  return map;
}

void add_node_loads(const Cluster& cluster, const KeySet& keys, std::uint64_t begin,
                    std::uint64_t end, std::vector<std::uint64_t>& loads) {
  std::uint64_t* counts = loads.data();
  keys.for_each_key(begin, end, [&](std::uint64_t value, const Key* key) {
    ++counts[cluster.locate(value, key)];
  });
}

std::vector<double> ideal_shares(const Cluster& cluster) {
  const NodeList& nodes = cluster.nodes();
  std::vector<double> shares(nodes.size(), 1.0 / static_cast<double>(nodes.size()));
  if (cluster.algorithm().weights) {
    const double total = static_cast<double>(total_weight(nodes));
    for (std::size_t i = 0; i < nodes.size(); ++i) shares[i] = nodes[i].weight / total;
  }
  return shares;
}

double minimum_moved_fraction(const Cluster& before, const Cluster& after) {
  const std::vector<double> share_before = ideal_shares(before);
  const std::vector<double> share_after = ideal_shares(after);
  const std::vector<std::int64_t> map = node_index_map(before.nodes(), after.nodes());
  double lost = 0;
  for (std::size_t i = 0; i < map.size(); ++i) {
    const double now = map[i] < 0 ? 0.0 : share_after[static_cast<std::size_t>(map[i])];
    lost += std::max(0.0, share_before[i] - now);
  }
  return lost;
}

NodeResizeReport::NodeResizeReport(Cluster before, Cluster after, std::size_t sample_limit)
    : before_(std::move(before)),
      after_(std::move(after)),
      map_(node_index_map(before_.nodes(), after_.nodes())),
      sample_limit_(sample_limit),
      loads_before_(before_.nodes().size()),
      loads_after_(after_.nodes().size()) {
  const std::uint64_t cells =
      static_cast<std::uint64_t>(before_.nodes().size()) * after_.nodes().size();
  if (cells <= kMaxFlowCells) flows_ = FlowMatrix(static_cast<std::size_t>(cells));
}

void NodeResizeReport::add(const KeySet& keys, std::uint64_t begin, std::uint64_t end) {
  end = std::min(end, keys.size());
  if (begin >= end) return;
  const std::size_t width = after_.nodes().size();
  keys.for_each_key(begin, end, [&](std::uint64_t value, const Key* key) {
    const std::uint32_t old_node = before_.locate(value, key);
    const std::uint32_t new_node = after_.locate(value, key);
    ++loads_before_[old_node];
    ++loads_after_[new_node];
    if (!flows_.empty()) flows_.increment(old_node * width + new_node);
    if (map_[old_node] != static_cast<std::int64_t>(new_node)) {
      ++moved_;
      if (sample_.size() < sample_limit_) {
        sample_.push_back({value, key ? key->label : std::string(), old_node, new_node});
      }
    }
  });
  total_ += end - begin;
}

void NodeResizeReport::add_before(const KeySet& keys, std::uint64_t begin, std::uint64_t end) {
  sample_in_front(sample_, sample_limit_, [&] { add(keys, begin, end); });
}

Result<std::uint64_t> NodeResizeReport::add_counts(const ResizeCounts& counts) {
  return add_resize_counts(counts, total_, moved_, loads_before_, loads_after_, flows_);
}

double NodeResizeReport::minimum_moved_expected() const {
  return static_cast<double>(total_) * minimum_moved_fraction(before_, after_);
}

}  // namespace jumphash
