// What the two Embind files of the main module (bindings.cpp: bucket counts,
// keys, the command language; cluster_bindings.cpp: node lists) share: the
// batch buffers that keys cross in, and the CLI's reading of a key token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/interpreter.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/reports.hpp"

namespace jumphash::wasm {

/// Keys per batch call: the JavaScript side copies up to this many keys into
/// `g_batch_keys`, calls once, and copies the results out of `g_batch_out`.
inline constexpr std::size_t kBatchCapacity = std::size_t{1} << 16;
alignas(8) inline std::uint64_t g_batch_keys[kBatchCapacity];
alignas(8) inline std::int32_t g_batch_out[kBatchCapacity];

/// A pointer as JavaScript sees it: an offset into the module's memory.
inline std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// The loops below run over every count of a report (a 1000 x 1001 flow
// matrix: a million), every sampled key or every byte a script prints
// (count_text: up to 256 MB a run in the page): they are defined in
// bindings_shared.cpp, compiled for speed, while the Embind glue around
// them is compiled for size (wasm/CMakeLists.txt).

/// Counts as doubles for a Float64Array view (exact below 2^53).
std::vector<double> to_doubles(const std::vector<std::uint64_t>& counts);
/// A flow matrix's every cell as doubles, row-major (its marks say which
/// cells to read; FlowMatrix).
std::vector<double> to_doubles(const FlowMatrix& flows);

/// Lines ('\n') and UTF-16 code units (JavaScript's length) of UTF-8 text.
struct TextCounts {
  double lines = 0, chars = 0;
};
TextCounts count_text(std::string_view utf8);

/// The keys a chunked job covers: positions [begin, end) of its key set,
/// all of them unless narrowed (the page splits a report across workers,
/// each job taking a range; see the package's keyRange option), counted
/// from begin up, or from end down (the package's fromEnd: the page's
/// second worker of a pair, which meets the first wherever they are).
class KeyCursor {
 public:
  explicit KeyCursor(std::uint64_t size = 0) : size_(size), end_(size) {}

  /// Narrows the job to positions [begin, end), counted from end down
  /// when `from_end`; an error naming the key count unless 0 <= begin <=
  /// end <= size (integers, checked by the package) and no key was done yet.
  std::string narrow(double begin, double end, bool from_end = false) {
    if (done() != 0) return "keyRange: set it before the first step";
    if (!(begin >= 0 && begin <= end && end <= static_cast<double>(size_))) {
      return "keyRange must be [begin, end] with 0 <= begin <= end <= " + std::to_string(size_) +
             " (the key count)";
    }
    begin_ = static_cast<std::uint64_t>(begin);
    end_ = static_cast<std::uint64_t>(end);
    from_end_ = from_end;
    next_ = from_end_ ? end_ : begin_;
    return {};
  }
  bool from_end() const { return from_end_; }
  std::uint64_t begin() const { return begin_; }
  std::uint64_t end() const { return end_; }
  double total() const { return static_cast<double>(end_ - begin_); }
  double done() const { return static_cast<double>(from_end_ ? end_ - next_ : next_ - begin_); }
  /// The next slice, of at most max_keys keys (a double from JavaScript,
  /// >= 1): [first, last), after the keys done so far, or before them
  /// when counting from the end.
  struct Slice {
    std::uint64_t first, last;
  };
  Slice take(double max_keys) {
    const std::uint64_t remaining = from_end_ ? next_ - begin_ : end_ - next_;
    const std::uint64_t count = max_keys >= static_cast<double>(remaining)
                                    ? remaining
                                    : static_cast<std::uint64_t>(max_keys);
    if (from_end_) {
      next_ -= count;
      return {next_, next_ + count};
    }
    next_ += count;
    return {next_ - count, next_};
  }
  bool finished() const { return next_ == (from_end_ ? begin_ : end_); }

 private:
  std::uint64_t size_ = 0, begin_ = 0, end_ = 0, next_ = 0;
  bool from_end_ = false;
};

/// Counts the next slice of `cursor`, at most max_keys keys, into `report`
/// (a ResizeReport or NodeResizeReport): add_before when counting from the
/// end, so that the sample stays in key order. True when the range is done.
template <class Report>
bool step_report(KeyCursor& cursor, Report& report, const KeySet& keys, double max_keys) {
  const KeyCursor::Slice slice = cursor.take(max_keys);
  if (cursor.from_end())
    report.add_before(keys, slice.first, slice.last);
  else
    report.add(keys, slice.first, slice.last);
  return cursor.finished();
}

/// How the sampled keys of a resize print (append_key: decimal, or a
/// string key as written, which may hold any character, newlines too),
/// packed for JavaScript to read in one go: one UTF-8 buffer and each key's
/// end offset in it. When every byte is ASCII, byte offsets are string
/// offsets, and one decode of the buffer serves every key.
class PrintedKeys {
 public:
  /// Empties the list. `labels_only`: a key that prints as its value in
  /// decimal gets no text (an empty entry; a string key's text is never
  /// empty): the package's sample in columns reads only the others, and
  /// printing 200,000 decimals took 8-9 ms of a part's 25.
  void clear(bool labels_only) {
    text_.clear();
    ends_.clear();
    labels_only_ = labels_only;
  }
  void add(std::uint64_t value, const std::string* label);
  std::uintptr_t text() const { return reinterpret_cast<std::uintptr_t>(text_.data()); }
  double bytes() const { return static_cast<double>(text_.size()); }
  /// One uint32 per key: where its text ends (the next one starts there).
  std::uintptr_t ends() const { return reinterpret_cast<std::uintptr_t>(ends_.data()); }
  bool ascii() const;

 private:
  std::string text_;
  std::vector<std::uint32_t> ends_;
  bool labels_only_ = false;
};

/// Where another job's counts arrive from JavaScript (absorb): the package
/// writes them as doubles into `staged` (a buffer the job sizes with
/// `stage`), then the job reads them here. Each must be an integer in
/// 0..2^53, else nullopt.
class StagedCounts {
 public:
  /// Room for `count` doubles; the address JavaScript writes them to.
  std::uintptr_t stage(double count) {
    staged_.assign(count > 0 ? static_cast<std::size_t>(count) : 0, 0.0);
    return reinterpret_cast<std::uintptr_t>(staged_.data());
  }
  /// staged[first, first + count) as counts.
  std::optional<std::vector<std::uint64_t>> counts(std::size_t first, std::size_t count) const;
  /// The staged loads before ++ loads after ++ flows of a resize part, of
  /// the given lengths, with its total and moved keys.
  Result<ResizeCounts> resize(double total, double moved, double before, double after,
                              double flows) const {
    const auto b = counts(0, static_cast<std::size_t>(before));
    const auto a = counts(static_cast<std::size_t>(before), static_cast<std::size_t>(after));
    const auto f = counts(static_cast<std::size_t>(before + after), static_cast<std::size_t>(flows));
    if (!b || !a || !f || !is_count(total) || !is_count(moved) || moved > total) {
      return fail("absorb: a part's total, moved, loads and flows must be counts (integers >= 0)");
    }
    return ResizeCounts{static_cast<std::uint64_t>(total),
                        static_cast<std::uint64_t>(moved),
                        std::move(*b),
                        std::move(*a),
                        std::move(*f),
                        {},
                        false};
  }
  /// The staged loads before ++ loads after ++ `cells` cell indices ++
  /// `cells` cell counts of a resize part whose flows come as cells (the
  /// package's ResizePart.flowCells).
  Result<ResizeCounts> resize_cells(double total, double moved, double before, double after,
                                    double cells) const;
  /// Adds a resize part staged as above (`flows` doubles of its matrix, or
  /// with `as_cells`, `flows` cells) to `report` (a ResizeReport or a
  /// NodeResizeReport: add_counts, all or nothing); an error or "".
  template <class Report>
  std::string add_resize_to(Report& report, double total, double moved, double before, double after,
                            double flows, bool as_cells = false) const {
    Result<ResizeCounts> part = as_cells ? resize_cells(total, moved, before, after, flows)
                                         : resize(total, moved, before, after, flows);
    if (!part) return part.error();
    Result<std::uint64_t> added = report.add_counts(*part);
    return added ? std::string() : "absorb: " + added.error();
  }
  /// Adds the staged loads (all of them) to `loads`; an error or "".
  std::string add_loads_to(std::vector<std::uint64_t>& loads) const;

 private:
  static bool is_count(double x) {
    return x >= 0 && x <= 9007199254740992.0 && static_cast<double>(static_cast<std::uint64_t>(x)) == x;
  }
  std::vector<double> staged_;
};

/// A flow matrix's non-zero cells (FlowMatrix) as JavaScript reads them:
/// size() uint32 indices and as many counts as doubles (the package's
/// ResizePart.flowCells). A resize's part passes these instead of its
/// matrix: 1000 -> 1001 buckets fills about 2,000 of 1,001,000 cells. When
/// two thirds or more of the cells are non-zero (modulo), listing them
/// takes more room (12 bytes a cell) than the matrix (8): then there are no
/// indices (whole()) and the counts are every cell, row-major.
class FlowCellColumns {
 public:
  void collect(const FlowMatrix& flows);
  bool whole() const { return whole_; }
  double size() const { return static_cast<double>(count_.size()); }
  std::uintptr_t indices() const { return address(index_.data()); }
  std::uintptr_t counts() const { return address(count_.data()); }

 private:
  bool whole_ = false;
  std::vector<std::uint32_t> index_;
  std::vector<double> count_;
};

/// A report's flow matrix for JavaScript: its non-zero cells into `cells`
/// when `as_cells` (and `matrix` emptied), else the whole matrix as doubles
/// into `matrix` (and no cells).
void collect_flows(const FlowMatrix& flows, bool as_cells, FlowCellColumns& cells,
                   std::vector<double>& matrix);

/// A resize's moved-key sample for JavaScript, appended to empty buffers:
/// each key's value into `values`, its bucket or node indices (the members
/// `old_index` and `new_index`) into `columns` as two columns (every key's
/// old one, then every key's new one: the package copies each column
/// whole), and its text into `keys` (PrintedKeys::add). Compiled in each
/// Embind file, for size, as it was when each had its own loop: here, for
/// speed, both copies took the embed over its budget (+186 bytes).
template <class MovedKeyType, class Index>
void collect_sample(const std::vector<MovedKeyType>& sample, Index MovedKeyType::*old_index,
                    Index MovedKeyType::*new_index, std::vector<std::uint64_t>& values,
                    std::vector<std::int32_t>& columns, PrintedKeys& keys) {
  columns.resize(2 * sample.size());
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const MovedKeyType& key = sample[i];
    values.push_back(key.value);
    columns[i] = static_cast<std::int32_t>(key.*old_index);
    columns[sample.size() + i] = static_cast<std::int32_t>(key.*new_index);
    keys.add(key.value, key.label.empty() ? nullptr : &key.label);
  }
}

/// load_stats(loads) as the 7 doubles the package reads: total, min, max,
/// mean, max/mean, chi-square, degrees of freedom.
std::vector<double> load_stats_doubles(const std::vector<std::uint64_t>& loads);

/// parse_key, after the CLI's tokenizer has seen a quoted key: the CLI reads
/// `"open` (no closing quote) as a line error of split_tokens, so the API
/// reports the same words for the same text.
inline Result<Key> parse_key_text_as_cli(std::string_view text) {
  if (!text.empty() && text[0] == '"') {
    Result<std::vector<std::string_view>> tokens = split_tokens(text);
    if (!tokens) return Error{tokens.error()};
  }
  return parse_key(text);
}

}  // namespace jumphash::wasm
