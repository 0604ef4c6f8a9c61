// Embind registrations for the jumphash core, and the small adapters that
// make it callable from JavaScript without exceptions or 64-bit Numbers.
//
// Conventions at this boundary (src/index.js is the only caller):
//   - Errors come back as values: an `error` string, empty on success, whose
//     text is the core's message (what the CLI prints after "line N: error:").
//   - Integer arguments that the CLI reads as tokens (bucket counts, TRACE
//     max) arrive as the token text (JavaScript's String(n)) and go through
//     the CLI's own parser, so a bad value gets the CLI's message verbatim.
//   - Arrays go out through linear memory (a pointer and a length; counts as
//     doubles, which is exact below 2^53), keys as uint64 in memory. No
//     uint64 is ever returned by value: Embind 3.1.6 would return it as a
//     signed BigInt.
#include <emscripten/bind.h>
#include <emscripten/em_macros.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bindings_shared.hpp"
#include "jumphash/algorithms.hpp"
#include "jumphash/batch.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/reports.hpp"
#include "jumphash/version.hpp"

namespace jumphash::wasm {
namespace {

using emscripten::allow_raw_pointers;


const Algorithm* algorithm_at(int index) {
  const auto all = algorithms();
  if (index < 0 || static_cast<std::size_t>(index) >= all.size()) return nullptr;
  return &all[static_cast<std::size_t>(index)];
}

// ---- registry -------------------------------------------------------------

/// One registry entry as the package's algorithms() returns it.
struct AlgorithmInfo {
  std::string name, kind, title, paper, expected_cost, memory;
  bool consistent = false;
  bool removes_any_bucket = false;
  bool weights = false;
  /// Largest bucket count it takes (a node-set algorithm turns n into nodes
  /// "0".."n-1", so its limit is the node limit).
  double max_buckets = 0;
  /// Largest TRACE max; 0 when it has no jump history (node-set algorithms).
  double max_trace = 0;
};

/// One option of a node-set algorithm (ALGO name option=value).
struct OptionInfo {
  std::string name, default_value, description;
  std::string choices;  ///< comma-separated; empty for integer options
  double min = 0, max = 0;
};

/// The core's limits (one table, returned by the package's limits()).
struct Limits {
  double max_buckets = kMaxBuckets;
  double max_load_buckets = kMaxLoadBuckets;
  double max_modulo_trace = kMaxModuloTrace;
  double max_keys_per_set = static_cast<double>(kMaxKeysPerSet);
  double max_nodes = kMaxNodes;
  double max_node_weight = kMaxNodeWeight;
  double max_node_name_bytes = kMaxNodeNameBytes;
  double max_placement_points = static_cast<double>(kMaxPlacementPoints);
  double max_flow_cells = static_cast<double>(kMaxFlowCells);
  double max_checked_lines = static_cast<double>(kMaxCheckedLines);
  double max_check_output_bytes = static_cast<double>(kMaxCheckOutputBytes);
  double max_script_bytes = static_cast<double>(kMaxScriptBytes);
  double max_run_output_bytes = static_cast<double>(kMaxRunOutputBytes);
  double max_stream_output_bytes = static_cast<double>(kMaxStreamOutputBytes);
  double max_embed_lookups = static_cast<double>(kMaxEmbedLookups);
  double max_link_field_chars = static_cast<double>(kMaxLinkFieldChars);
  double max_link_chars = static_cast<double>(kMaxLinkChars);
  double max_pasted_list_chars = static_cast<double>(kMaxPastedListChars);
};

Limits limits() { return {}; }

/// The whole limits table as text, one row a line: name, value, unit,
/// what it bounds and who checks it, tab-separated (the package's
/// limits().table). Every value is below 2^53, so it survives a double.
std::string limit_table() {
  std::string text;
  for (const Limit& limit : jumphash::limits()) {
    text += limit.name;
    text += '\t';
    text += std::to_string(limit.value);
    text += '\t';
    text += limit.unit;
    text += '\t';
    text += limit.bounds;
    text += '\t';
    text += limit.enforced_by;
    text += '\n';
  }
  return text;
}

int algorithm_count() { return static_cast<int>(algorithms().size()); }

int option_count(int algorithm) {
  const Algorithm* a = algorithm_at(algorithm);
  return a ? static_cast<int>(a->options.size()) : 0;
}

OptionInfo option_info(int algorithm, int option) {
  const OptionSpec& spec = algorithm_at(algorithm)->options[static_cast<std::size_t>(option)];
  OptionInfo info{std::string(spec.name), std::string(spec.default_value),
                  std::string(spec.description), {}, static_cast<double>(spec.min),
                  static_cast<double>(spec.max)};
  for (std::string_view choice : spec.choices) {
    if (!info.choices.empty()) info.choices += ',';
    info.choices += choice;
  }
  return info;
}

/// The command language's words, from the core's lists: command names and
/// every algorithm's name (node-set ones too), each comma-separated.
struct LanguageWords {
  std::string commands, algorithms;
};

LanguageWords language_words() {
  LanguageWords words;
  for (std::string_view name : command_names()) {
    if (!words.commands.empty()) words.commands += ',';
    words.commands += name;
  }
  for (const Algorithm& a : algorithms()) {
    if (!words.algorithms.empty()) words.algorithms += ',';
    words.algorithms += a.name;
  }
  return words;
}

AlgorithmInfo algorithm_info(int index) {
  const Algorithm* a = algorithm_at(index);
  if (!a) return {};
  const bool counts = a->kind == AlgorithmKind::bucket_count;
  return {std::string(a->name),
          counts ? "bucket-count" : "node-set",
          std::string(a->title),
          std::string(a->paper),
          std::string(a->expected_cost),
          std::string(a->memory),
          a->consistent,
          a->removes_any_bucket,
          a->weights,
          static_cast<double>(counts ? kMaxBuckets : kMaxNodes),
          static_cast<double>(!counts ? 0 : a->consistent ? kMaxBuckets : kMaxModuloTrace)};
}

/// A registry index, or an error naming the known algorithms.
struct AlgorithmLookup {
  int index = -1;
  std::string error;
};

AlgorithmLookup find_algorithm_index(const std::string& name) {
  Result<const Algorithm*> found = find_algorithm(name);
  if (!found) return {-1, found.error()};
  return {static_cast<int>(*found - algorithms().data()), {}};
}

// ---- validation with the CLI's messages ------------------------------------

/// "" when `token` is an integer in min..max, else the CLI's message for it
/// (e.g. "bucket count must be an integer in 1..2147483647 (got '0')").
std::string check_integer(const std::string& token, const std::string& what, double min,
                          double max) {
  Result<std::int64_t> n =
      parse_integer(token, what, static_cast<std::int64_t>(min), static_cast<std::int64_t>(max));
  return n ? std::string() : n.error();
}

/// The CLI's message for a key token (empty when it is a key).
std::string key_error(const std::string& token) {
  Result<Key> key = parse_key_text_as_cli(token);
  return key ? std::string() : key.error();
}

struct ParsedKey {
  std::string error;
  std::string decimal;  ///< the value in decimal (never a double)
  std::string label;    ///< how it prints
};

ParsedKey parse_key_text(const std::string& token) {
  Result<Key> key = parse_key_text_as_cli(token);
  if (!key) return {key.error(), {}, {}};
  std::string decimal;
  append_decimal(decimal, key->value);
  std::string label;
  append_key(label, key->value, key->label.empty() ? nullptr : &key->label);
  return {{}, decimal, label};
}

struct KeyCount {
  std::string error;
  double count = 0;
};

KeyCount key_count(const std::string& spec) {
  Result<KeySet> keys = KeySet::parse(std::string_view(spec));
  if (!keys) return {keys.error(), 0};
  return {{}, static_cast<double>(keys->size())};
}

// ---- lookups ---------------------------------------------------------------

/// Unchecked: JavaScript has validated the index and 1 <= n <= kMaxBuckets.
int bucket_of(int algorithm, std::uint64_t key, int n) {
  return algorithm_at(algorithm)->function(key, n);
}

/// The bucket of a key given as text, or -1 when the text is not a key.
int bucket_of_text(int algorithm, const std::string& token, int n) {
  Result<Key> key = parse_key_text_as_cli(token);
  if (!key) return -1;
  return algorithm_at(algorithm)->function(key->value, n);
}

std::uintptr_t batch_keys() { return address(g_batch_keys); }
std::uintptr_t batch_out() { return address(g_batch_out); }
int batch_capacity() { return static_cast<int>(kBatchCapacity); }

/// g_batch_out[i] = bucket of g_batch_keys[i] for i < count (count <= capacity),
/// on the batch path (SIMD128 for jump, jumpback and jumpback-indep).
void buckets_batch(int algorithm, int count, int n) {
  const std::size_t size = std::min(static_cast<std::size_t>(count), kBatchCapacity);
  jumphash::buckets_batch(*algorithm_at(algorithm), std::span<const std::uint64_t>(g_batch_keys, size), n,
                          std::span<std::int32_t>(g_batch_out, size));
}

/// The batch path in use: "simd128" or "scalar".
std::string current_batch_path() { return std::string(batch_path_name(batch_path())); }

/// Chooses the batch path ("simd128" or "scalar"; for tests and benchmarks).
/// False when this build has no such path.
bool choose_batch_path(const std::string& name) {
  for (BatchPath path : {BatchPath::scalar, BatchPath::simd128}) {
    if (name == batch_path_name(path)) return set_batch_path(path);
  }
  return false;
}

// ---- command language ------------------------------------------------------

struct ScriptResult {
  std::string stdout_text, stderr_text;
  int exit_code = 0;
};

ScriptResult run(const std::string& script) {
  ScriptOutput output = run_script(script);
  return {std::move(output.stdout_text), std::move(output.stderr_text), output.exit_code};
}

/// Runs a script and hands what it prints to on_chunk(stream, bytes, lines,
/// chars): stream "stdout" or "stderr"; bytes a Uint8Array view of this
/// module's memory, valid only during the call, holding UTF-8 whole lines
/// (about the interpreter's flush size) as they are printed, so that no
/// output is ever held whole, nor made a JavaScript string unless the
/// caller asks; lines and chars their count of '\n' and of UTF-16 code
/// units (as JavaScript's length). The budget (max_lookups,
/// max_output_bytes; 0 = no bound) ends the run with the interpreter's clear
/// error. Returns the exit status (0 or 1).
int run_stream(const std::string& script, double max_lookups, double max_output_bytes,
               emscripten::val on_chunk) {
  const emscripten::val stdout_name("stdout");
  const emscripten::val stderr_name("stderr");
  auto hand_over = [&](const emscripten::val& stream, std::string_view text) {
    const TextCounts counts = count_text(text);
    on_chunk(stream,
             emscripten::val(emscripten::typed_memory_view(
                 text.size(), reinterpret_cast<const unsigned char*>(text.data()))),
             counts.lines, counts.chars);
  };
  Interpreter interpreter([&](std::string_view text) { hand_over(stdout_name, text); },
                          [&](std::string_view text) { hand_over(stderr_name, text); });
  interpreter.set_budget(WorkBudget{static_cast<std::uint64_t>(max_lookups),
                                    static_cast<std::uint64_t>(max_output_bytes)});
  return interpreter.run(script);
}

// ---- trace -----------------------------------------------------------------

/// TRACE <key> <max> as rows; checks in the CLI's order with its messages.
class Trace {
 public:
  Trace(int algorithm, const std::string& key_token, const std::string& max_token) {
    const Algorithm& a = *algorithm_at(algorithm);
    Result<Key> key = parse_key_text_as_cli(key_token);
    if (!key) {
      error_ = key.error();
      return;
    }
    if (a.kind != AlgorithmKind::bucket_count) {
      // The CLI's message for TRACE, with the function's name.
      error_ = "trace needs a bucket-count algorithm (";
      for (const Algorithm& counted : bucket_count_algorithms()) {
        if (counted.id != bucket_count_algorithms().front().id) error_ += ", ";
        error_ += counted.name;
      }
      error_ += "): " + std::string(a.name) + " places keys on named nodes, so a key has no jump history over n";
      return;
    }
    const std::int64_t limit = a.consistent ? kMaxBuckets : kMaxModuloTrace;
    std::string what = "trace: max";
    if (!a.consistent) what += " for " + std::string(a.name);
    Result<std::int64_t> max = parse_integer(max_token, what, 1, limit);
    if (!max) {
      error_ = max.error();
      return;
    }
    Result<std::vector<TraceStep>> steps = trace_key(a, key->value, *max);
    if (!steps) {
      error_ = steps.error();
      return;
    }
    for (const TraceStep& step : *steps) {
      rows_.push_back(static_cast<double>(step.n));
      rows_.push_back(step.bucket);
    }
  }
  std::string error() const { return error_; }
  int steps() const { return static_cast<int>(rows_.size() / 2); }
  /// steps() pairs (n, bucket) of doubles.
  std::uintptr_t rows() const { return address(rows_.data()); }

 private:
  std::string error_;
  std::vector<double> rows_;
};

// ---- chunked reports -------------------------------------------------------

/// MOVED as a structured, chunked report (ResizeReport over a KeySet).
class ResizeJob {
 public:
  ResizeJob(int algorithm, const std::string& key_spec, const std::string& from_token,
            const std::string& to_token, const std::string& sample_limit_token) {
    const Algorithm& a = *algorithm_at(algorithm);
    Result<KeySet> keys = KeySet::parse(std::string_view(key_spec));
    if (!keys) {
      error_ = keys.error();
      return;
    }
    // The report keeps per-bucket loads, so its limit (10^6) is in the
    // messages, not the CLI's MOVED limit (2^31-1).
    Result<std::int64_t> from = parse_integer(from_token, "from bucket count", 1, kMaxLoadBuckets);
    if (!from) {
      error_ = from.error();
      return;
    }
    Result<std::int64_t> to = parse_integer(to_token, "to bucket count", 1, kMaxLoadBuckets);
    if (!to) {
      error_ = to.error();
      return;
    }
    Result<std::int64_t> sample_limit =
        parse_integer(sample_limit_token, "sampleLimit", 0, kMaxLoadBuckets);
    if (!sample_limit) {
      error_ = sample_limit.error();
      return;
    }
    Result<ResizeReport> report =
        ResizeReport::create(a, *from, *to, static_cast<std::size_t>(*sample_limit));
    if (!report) {
      error_ = report.error();
      return;
    }
    keys_ = std::move(keys).value();
    cursor_ = KeyCursor(keys_.size());
    report_ = std::make_unique<ResizeReport>(std::move(report).value());
  }

  std::string error() const { return error_; }
  /// Keys of this job's range, and how many of them are done.
  double total() const { return cursor_.total(); }
  double done() const { return cursor_.done(); }
  /// Narrows the job to key positions [begin, end), counted from the end
  /// down when `from_end` (before the first step); an error or "".
  std::string setKeyRange(double begin, double end, bool from_end) {
    return cursor_.narrow(begin, end, from_end);
  }

  /// Accounts for up to max_keys more keys; true when all are done.
  bool step(double max_keys) {
    if (!report_) return true;
    return step_report(cursor_, *report_, keys_, max_keys);
  }

  /// Room for another job's loads before, loads after and flows (doubles), for absorb.
  std::uintptr_t stage(double count) { return staged_.stage(count); }
  /// Adds another job's counts over a later key range, staged as `before`,
  /// `after` and `flows` doubles (the package's Job.absorb; the sample is
  /// joined there); an error or "".
  std::string absorb(double total, double moved, double before, double after, double flows) {
    return staged_.add_resize_to(*report_, total, moved, before, after, flows);
  }
  /// As absorb, for a part whose flows are staged as `cells` indices, then
  /// `cells` counts (the package's ResizePart).
  std::string absorb_cells(double total, double moved, double before, double after, double cells) {
    return staged_.add_resize_to(*report_, total, moved, before, after, cells, true);
  }

  double moved() const { return static_cast<double>(report_->moved()); }
  double minimum_moved_expected() const { return report_->minimum_moved_expected(); }
  int from() const { return report_->from(); }
  int to() const { return report_->to(); }
  std::string algorithm_name() const { return std::string(report_->algorithm().name); }

  /// Fills the double buffers below from the report so far: the flows as
  /// their non-zero cells (`flows_as_cells`) or as the whole matrix, the
  /// flow balance when `with_balance` (a ResizePart derives none), and the
  /// sampled keys' text, of every key when `every_key_text`, else of the
  /// string keys only (PrintedKeys::clear); no sample without `with_sample`
  /// (the package's partResult({ sample: false })).
  void collect(bool flows_as_cells, bool with_balance, bool every_key_text, bool with_sample) {
    before_ = to_doubles(report_->loads_before());
    after_ = to_doubles(report_->loads_after());
    collect_flows(report_->flow_matrix(), flows_as_cells, cells_, flows_);
    balance_.clear();
    if (has_flows() && with_balance) {
      // In columns: every source's keys moved out, then chi-squares, then
      // degrees of freedom (the package's FlowBalanceColumns, one copy).
      const auto sources = static_cast<std::size_t>(report_->from());
      balance_.resize(sources * 3);
      for (std::size_t source = 0; source < sources; ++source) {
        const ResizeReport::FlowBalance b = report_->flow_balance(static_cast<std::int32_t>(source));
        balance_[source] = static_cast<double>(b.moved_out);
        balance_[sources + source] = b.chi_square;
        balance_[2 * sources + source] = static_cast<double>(b.degrees_of_freedom);
      }
    }
    sample_values_.clear();
    sample_buckets_.clear();
    sample_keys_.clear(!every_key_text);
    if (with_sample) {
      collect_sample(report_->sample(), &MovedKey::old_bucket, &MovedKey::new_bucket,
                     sample_values_, sample_buckets_, sample_keys_);
    }
  }
  std::uintptr_t loads_before() const { return address(before_.data()); }
  std::uintptr_t loads_after() const { return address(after_.data()); }
  /// Whether the from x to matrix was kept (from x to <= 2^22).
  bool has_flows() const { return report_->has_flows(); }
  std::uintptr_t flows() const { return address(flows_.data()); }
  /// The flows' non-zero cells, when collected as a part.
  double cell_count() const { return cells_.size(); }
  /// True when the cells are the whole matrix (no indices: FlowCellColumns).
  bool cells_whole() const { return cells_.whole(); }
  std::uintptr_t cell_indices() const { return cells_.indices(); }
  std::uintptr_t cell_counts() const { return cells_.counts(); }
  /// from() x 3 doubles, in columns: each source's keys moved out, then the chi-squares, then the degrees of freedom.
  std::uintptr_t flow_balance() const { return address(balance_.data()); }
  /// Moved keys the report has sampled so far (its sample limit at most);
  /// once collected with the sample, the length of the sample buffers.
  int sampled() const { return static_cast<int>(report_->sample().size()); }
  std::uintptr_t sample_values() const { return address(sample_values_.data()); }
  /// Two columns of sampled() buckets: every key's old bucket, then every
  /// key's new one (the package copies each column whole: SampleColumns).
  std::uintptr_t sample_buckets() const { return address(sample_buckets_.data()); }
  /// How the sampled keys print (PrintedKeys).
  std::uintptr_t sample_key_text() const { return sample_keys_.text(); }
  double sample_key_bytes() const { return sample_keys_.bytes(); }
  std::uintptr_t sample_key_ends() const { return sample_keys_.ends(); }
  bool sample_keys_ascii() const { return sample_keys_.ascii(); }

 private:
  std::string error_;
  KeySet keys_;
  KeyCursor cursor_;
  StagedCounts staged_;
  std::unique_ptr<ResizeReport> report_;
  std::vector<double> before_, after_, flows_, balance_;
  FlowCellColumns cells_;
  std::vector<std::uint64_t> sample_values_;
  std::vector<std::int32_t> sample_buckets_;
  PrintedKeys sample_keys_;
};

/// LOAD as a structured, chunked report (add_loads + load_stats).
class LoadJob {
 public:
  LoadJob(int algorithm, const std::string& key_spec, const std::string& n_token)
      : algorithm_(algorithm_at(algorithm)) {
    Result<KeySet> keys = KeySet::parse(std::string_view(key_spec));
    if (!keys) {
      error_ = keys.error();
      return;
    }
    Result<std::int64_t> n = parse_integer(n_token, "load: bucket count", 1, kMaxLoadBuckets);
    if (!n) {
      error_ = n.error();
      return;
    }
    keys_ = std::move(keys).value();
    cursor_ = KeyCursor(keys_.size());
    n_ = static_cast<std::int32_t>(*n);
    loads_.assign(static_cast<std::size_t>(n_), 0);
  }

  std::string error() const { return error_; }
  double total() const { return cursor_.total(); }
  double done() const { return cursor_.done(); }
  /// Narrows the job to key positions [begin, end), counted from the end
  /// down when `from_end` (before the first step); an error or "".
  std::string setKeyRange(double begin, double end, bool from_end) {
    return cursor_.narrow(begin, end, from_end);
  }
  int n() const { return n_; }
  std::string algorithm_name() const { return std::string(algorithm_->name); }

  bool step(double max_keys) {
    if (n_ == 0) return true;
    const KeyCursor::Slice slice = cursor_.take(max_keys);
    add_loads(*algorithm_, keys_, n_, slice.first, slice.last, loads_);
    return cursor_.finished();
  }

  /// Room for another job's loads (doubles), for absorb.
  std::uintptr_t stage(double count) { return staged_.stage(count); }
  /// Adds the staged loads of another job over other keys (the package's Job.absorb); an error or "".
  std::string absorb() { return staged_.add_loads_to(loads_); }

  /// Fills loads() and the stats below from the counts so far.
  void collect() {
    doubles_ = to_doubles(loads_);
    stats_ = load_stats_doubles(loads_);
  }
  std::uintptr_t loads() const { return address(doubles_.data()); }
  /// 7 doubles: total, min, max, mean, max/mean, chi-square, degrees of freedom.
  std::uintptr_t stats() const { return address(stats_.data()); }

 private:
  std::string error_;
  const Algorithm* algorithm_;
  KeySet keys_;
  KeyCursor cursor_;
  StagedCounts staged_;
  std::int32_t n_ = 0;
  std::vector<std::uint64_t> loads_;
  std::vector<double> doubles_;
  std::vector<double> stats_ = std::vector<double>(7, 0.0);
};

std::string version() { return kVersion; }

}  // namespace
}  // namespace jumphash::wasm

/// The hot single-key path as a plain export, which JavaScript calls without
/// Embind's generic invoker (about 20 ns instead of 120-160 ns per call under
/// -sDYNAMIC_EXECUTION=0). The key arrives as a BigInt through -sWASM_BIGINT.
/// Unchecked like `bucket`: JavaScript has validated algorithm and n.
extern "C" EMSCRIPTEN_KEEPALIVE int jumphash_bucket(int algorithm, std::uint64_t key, int n) {
  return jumphash::wasm::bucket_of(algorithm, key, n);
}

EMSCRIPTEN_BINDINGS(jumphash) {
  using namespace emscripten;
  using namespace jumphash::wasm;

  value_object<AlgorithmInfo>("AlgorithmInfo")
      .field("name", &AlgorithmInfo::name)
      .field("kind", &AlgorithmInfo::kind)
      .field("title", &AlgorithmInfo::title)
      .field("paper", &AlgorithmInfo::paper)
      .field("expectedCost", &AlgorithmInfo::expected_cost)
      .field("memory", &AlgorithmInfo::memory)
      .field("consistent", &AlgorithmInfo::consistent)
      .field("removesAnyBucket", &AlgorithmInfo::removes_any_bucket)
      .field("weights", &AlgorithmInfo::weights)
      .field("maxBuckets", &AlgorithmInfo::max_buckets)
      .field("maxTrace", &AlgorithmInfo::max_trace);
  value_object<OptionInfo>("OptionInfo")
      .field("name", &OptionInfo::name)
      .field("defaultValue", &OptionInfo::default_value)
      .field("description", &OptionInfo::description)
      .field("choices", &OptionInfo::choices)
      .field("min", &OptionInfo::min)
      .field("max", &OptionInfo::max);
  value_object<Limits>("Limits")
      .field("maxBuckets", &Limits::max_buckets)
      .field("maxLoadBuckets", &Limits::max_load_buckets)
      .field("maxModuloTrace", &Limits::max_modulo_trace)
      .field("maxKeysPerSet", &Limits::max_keys_per_set)
      .field("maxNodes", &Limits::max_nodes)
      .field("maxNodeWeight", &Limits::max_node_weight)
      .field("maxNodeNameBytes", &Limits::max_node_name_bytes)
      .field("maxPlacementPoints", &Limits::max_placement_points)
      .field("maxFlowCells", &Limits::max_flow_cells)
      .field("maxCheckedLines", &Limits::max_checked_lines)
      .field("maxCheckOutputBytes", &Limits::max_check_output_bytes)
      .field("maxScriptBytes", &Limits::max_script_bytes)
      .field("maxRunOutputBytes", &Limits::max_run_output_bytes)
      .field("maxStreamOutputBytes", &Limits::max_stream_output_bytes)
      .field("maxEmbedLookups", &Limits::max_embed_lookups)
      .field("maxLinkFieldChars", &Limits::max_link_field_chars)
      .field("maxLinkChars", &Limits::max_link_chars)
      .field("maxPastedListChars", &Limits::max_pasted_list_chars);
  value_object<LanguageWords>("LanguageWords")
      .field("commands", &LanguageWords::commands)
      .field("algorithms", &LanguageWords::algorithms);
  value_object<AlgorithmLookup>("AlgorithmLookup")
      .field("index", &AlgorithmLookup::index)
      .field("error", &AlgorithmLookup::error);
  value_object<ParsedKey>("ParsedKey")
      .field("error", &ParsedKey::error)
      .field("decimal", &ParsedKey::decimal)
      .field("label", &ParsedKey::label);
  value_object<KeyCount>("KeyCount")
      .field("error", &KeyCount::error)
      .field("count", &KeyCount::count);
  value_object<ScriptResult>("ScriptResult")
      .field("stdout", &ScriptResult::stdout_text)
      .field("stderr", &ScriptResult::stderr_text)
      .field("exitCode", &ScriptResult::exit_code);

  function("version", &version);
  function("algorithmCount", &algorithm_count);
  function("algorithmInfo", &algorithm_info);
  function("optionCount", &option_count);
  function("optionInfo", &option_info);
  function("limits", &limits);
  function("limitTable", &limit_table);
  function("findAlgorithm", &find_algorithm_index);
  function("checkInteger", &check_integer);
  function("keyError", &key_error);
  function("parseKey", &parse_key_text);
  function("keyCount", &key_count);
  function("bucketOfText", &bucket_of_text);
  function("batchKeys", &batch_keys);
  function("batchOut", &batch_out);
  function("batchCapacity", &batch_capacity);
  function("bucketsBatch", &buckets_batch);
  function("batchPath", &current_batch_path);
  function("setBatchPath", &choose_batch_path);
  function("run", &run);
  function("runStream", &run_stream);
  function("languageWords", &language_words);

  class_<Trace>("Trace")
      .constructor<int, const std::string&, const std::string&>()
      .function("error", &Trace::error)
      .function("steps", &Trace::steps)
      .function("rows", &Trace::rows);

  class_<ResizeJob>("ResizeJob")
      .constructor<int, const std::string&, const std::string&, const std::string&,
                   const std::string&>()
      .function("error", &ResizeJob::error)
      .function("total", &ResizeJob::total)
      .function("done", &ResizeJob::done)
      .function("setKeyRange", &ResizeJob::setKeyRange)
      .function("stage", &ResizeJob::stage)
      .function("absorb", &ResizeJob::absorb)
      .function("absorbCells", &ResizeJob::absorb_cells)
      .function("step", &ResizeJob::step)
      .function("moved", &ResizeJob::moved)
      .function("minimumMovedExpected", &ResizeJob::minimum_moved_expected)
      .function("from", &ResizeJob::from)
      .function("to", &ResizeJob::to)
      .function("algorithmName", &ResizeJob::algorithm_name)
      .function("collect", &ResizeJob::collect)
      .function("loadsBefore", &ResizeJob::loads_before)
      .function("loadsAfter", &ResizeJob::loads_after)
      .function("hasFlows", &ResizeJob::has_flows)
      .function("flows", &ResizeJob::flows)
      .function("cellCount", &ResizeJob::cell_count)
      .function("cellsWhole", &ResizeJob::cells_whole)
      .function("cellIndices", &ResizeJob::cell_indices)
      .function("cellCounts", &ResizeJob::cell_counts)
      .function("flowBalance", &ResizeJob::flow_balance)
      .function("sampled", &ResizeJob::sampled)
      .function("sampleValues", &ResizeJob::sample_values)
      .function("sampleBuckets", &ResizeJob::sample_buckets)
      .function("sampleKeyText", &ResizeJob::sample_key_text)
      .function("sampleKeyBytes", &ResizeJob::sample_key_bytes)
      .function("sampleKeyEnds", &ResizeJob::sample_key_ends)
      .function("sampleKeysAscii", &ResizeJob::sample_keys_ascii);

  class_<LoadJob>("LoadJob")
      .constructor<int, const std::string&, const std::string&>()
      .function("error", &LoadJob::error)
      .function("total", &LoadJob::total)
      .function("done", &LoadJob::done)
      .function("setKeyRange", &LoadJob::setKeyRange)
      .function("stage", &LoadJob::stage)
      .function("absorb", &LoadJob::absorb)
      .function("n", &LoadJob::n)
      .function("algorithmName", &LoadJob::algorithm_name)
      .function("step", &LoadJob::step)
      .function("collect", &LoadJob::collect)
      .function("loads", &LoadJob::loads)
      .function("stats", &LoadJob::stats);
}
