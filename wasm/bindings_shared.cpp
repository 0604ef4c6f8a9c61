// The per-count, per-key and per-byte loops of the main module's Embind glue
// (declared in bindings_shared.hpp): compiled at the module's -O3, while
// bindings.cpp around them is compiled for size. Each is kept out of line
// (noinline), so that link-time inlining does not move a loop into a
// function optimized for size.
#include "bindings_shared.hpp"

namespace jumphash::wasm {

[[gnu::noinline]] std::vector<double> to_doubles(const std::vector<std::uint64_t>& counts) {
  return std::vector<double>(counts.begin(), counts.end());
}

[[gnu::noinline]] std::vector<double> to_doubles(const FlowMatrix& flows) {
  return flows.counts<double>();
}

[[gnu::noinline]] TextCounts count_text(std::string_view utf8) {
  TextCounts counts;
  for (const char c : utf8) {
    const auto byte = static_cast<unsigned char>(c);
    counts.lines += byte == '\n';
    // A UTF-8 sequence's lead byte starts a code point; four-byte ones are
    // two UTF-16 units.
    counts.chars += (byte & 0xC0) != 0x80 ? (byte >= 0xF0 ? 2 : 1) : 0;
  }
  return counts;
}

[[gnu::noinline]] void PrintedKeys::add(std::uint64_t value, const std::string* label) {
  if (label || !labels_only_) append_key(text_, value, label);
  ends_.push_back(static_cast<std::uint32_t>(text_.size()));
}

void collect_flows(const FlowMatrix& flows, bool as_cells, FlowCellColumns& cells,
                   std::vector<double>& matrix) {
  if (as_cells) {
    cells.collect(flows);
    matrix.clear();
  } else {
    cells.collect(FlowMatrix());
    matrix = to_doubles(flows);
  }
}

[[gnu::noinline]] bool PrintedKeys::ascii() const {
  for (const char c : text_) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

[[gnu::noinline]] std::optional<std::vector<std::uint64_t>> StagedCounts::counts(
    std::size_t first, std::size_t count) const {
  if (first + count > staged_.size()) return std::nullopt;
  std::vector<std::uint64_t> counts;
  counts.reserve(count);
  for (std::size_t i = first; i < first + count; ++i) {
    const double x = staged_[i];
    if (!is_count(x)) return std::nullopt;
    counts.push_back(static_cast<std::uint64_t>(x));
  }
  return counts;
}

// Once per merged part, over its few cells: compiled for size (cold).
[[gnu::cold]] Result<ResizeCounts> StagedCounts::resize_cells(double total, double moved,
                                                              double before, double after,
                                                              double cells) const {
  Result<ResizeCounts> loads = resize(total, moved, before, after, 0);
  if (!loads) return loads;
  ResizeCounts part = std::move(loads).value();
  part.flows_as_cells = true;
  const std::size_t first = static_cast<std::size_t>(before + after);
  const std::size_t count = static_cast<std::size_t>(cells);
  const bool fits = first + 2 * count <= staged_.size();
  for (std::size_t i = 0; fits && i < count; ++i) {
    const double index = staged_[first + i], keys = staged_[first + count + i];
    if (!is_count(index) || index > 4294967295.0 || !is_count(keys)) break;
    part.flow_cells.push_back(
        {static_cast<std::uint32_t>(index), static_cast<std::uint64_t>(keys)});
  }
  if (part.flow_cells.size() != count) {
    return fail("absorb: a part's flow cells must be counts (integers >= 0) at indices below 2^32");
  }
  return part;
}

[[gnu::noinline]] void FlowCellColumns::collect(const FlowMatrix& flows) {
  index_.clear();
  count_.clear();
  const std::size_t nonzero = flows.nonzero_count();
  whole_ = nonzero * 3 >= flows.size() * 2 && !flows.empty();
  if (whole_) {
    count_ = to_doubles(flows);
    return;
  }
  index_.resize(nonzero);
  count_.resize(nonzero);
  std::size_t at = 0;
  flows.for_each_nonzero([&](FlowCell cell) {
    index_[at] = cell.index;
    count_[at++] = static_cast<double>(cell.count);
  });
}

[[gnu::noinline]] std::string StagedCounts::add_loads_to(std::vector<std::uint64_t>& loads) const {
  const auto more = counts(0, staged_.size());
  if (!more) return "absorb: a part's loads must be counts (integers >= 0)";
  if (more->size() != loads.size()) {
    return "absorb: a part with " + std::to_string(more->size()) + " loads where this report has " +
           std::to_string(loads.size());
  }
  for (std::size_t i = 0; i < loads.size(); ++i) loads[i] += (*more)[i];
  return {};
}

[[gnu::noinline]] std::vector<double> load_stats_doubles(const std::vector<std::uint64_t>& loads) {
  const LoadStats stats = load_stats(loads);
  return {static_cast<double>(stats.total), static_cast<double>(stats.min),
          static_cast<double>(stats.max),   stats.mean,
          stats.max_over_mean,              stats.chi_square,
          static_cast<double>(stats.degrees_of_freedom)};
}

}  // namespace jumphash::wasm
