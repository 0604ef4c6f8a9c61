// Every registered algorithm on node lists of 10, 100, 1000 and 10000
// servers ("10.0.x.y:11211", weight 1, default options): ns per lookup next
// to modulo (servers[key % n]) in the same run, bytes of lookup state, and
// the time to build the structure. Prints Google Benchmark's table, then
// markdown tables of CPU time per lookup (x modulo), bytes of state and
// build time; "-" with the reason where an algorithm cannot build.
//
//   build/native/bench/jumphash_cluster_bench [--benchmark_min_time=0.1]
//
// The flag sets the lookups' time; each build benchmark runs a fixed number
// of iterations worth about 0.1 s of CPU time (see build_iterations).
//
// Keys, 2^20 of each kind, read in a cycle (as bench/algorithms_bench.cpp):
//  - numeric: SplitMix64 outputs (seed 12345), Cluster::locate(value, null):
//    node-set algorithms hash their decimal text, bucket-count ones index
//    the list with the value;
//  - string: "key0".."key1048575" parsed as the command language parses a
//    quoted key, Cluster::locate(value, &key): node-set algorithms hash the
//    text, bucket-count ones use the XXH3-64 value computed at parse time
//    (so their time, and modulo's, excludes hashing the string).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <time.h>
#include <unistd.h>

#include "jumphash/algorithms.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/splitmix64.hpp"

namespace {

using namespace jumphash;

constexpr std::int64_t kNodeCounts[] = {10, 100, 1000, 10000};

constexpr std::size_t kKeyCount = std::size_t{1} << 20;

const Algorithm& modulo_algorithm() {
  return algorithms()[static_cast<std::size_t>(AlgorithmId::modulo)];
}

/// n servers named like a memcached pool: 10.0.0.1:11211, 10.0.0.2:11211, ...
/// (250 hosts per /24), weight 1.
NodeList server_nodes(std::int64_t n) {
  NodeList nodes;
  nodes.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    nodes.push_back(Node{"10.0." + std::to_string(i / 250) + "." + std::to_string(1 + i % 250) +
                             ":11211",
                         1});
  }
  return nodes;
}

const std::vector<std::uint64_t>& numeric_keys() {
  static const std::vector<std::uint64_t> keys = [] {
    std::vector<std::uint64_t> result(kKeyCount);
    std::uint64_t state = 12345;
    for (auto& key : result) key = splitmix64_next(state);
    return result;
  }();
  return keys;
}

const std::vector<Key>& string_keys() {
  static const std::vector<Key> keys = [] {
    std::vector<Key> result;
    result.reserve(kKeyCount);
    for (std::size_t i = 0; i < kKeyCount; ++i) {
      result.push_back(*parse_key("\"key" + std::to_string(i) + "\""));
    }
    return result;
  }();
  return keys;
}

/// The cluster of the running lookup benchmarks: Google Benchmark calls a
/// benchmark several times while it picks the iteration count, and the two
/// key kinds of one (algorithm, n) run one after the other, so one slot
/// builds each cluster once.
const Result<Cluster>& cached_cluster(const Algorithm& algorithm, std::int64_t n) {
  static std::optional<Result<Cluster>> cluster;
  static const Algorithm* cached_algorithm = nullptr;
  static std::int64_t cached_n = 0;
  if (!cluster || cached_algorithm != &algorithm || cached_n != n) {
    cluster.reset();  // free the previous structure before building the next
    cluster.emplace(
        Cluster::create(algorithm, OptionValues::defaults(algorithm.options), server_nodes(n)));
    cached_algorithm = &algorithm;
    cached_n = n;
  }
  return *cluster;
}

/// ns per lookup of numeric keys (every benchmark reports state_bytes).
void lookup_numeric(benchmark::State& state, const Algorithm* algorithm) {
  const Result<Cluster>& cluster = cached_cluster(*algorithm, state.range(0));
  if (!cluster) {
    state.SkipWithError(cluster.error().c_str());
    return;
  }
  const auto& keys = numeric_keys();
  std::uint64_t sum = 0;
  std::size_t i = 0;
  for (auto _ : state) sum += cluster->locate(keys[i++ & (kKeyCount - 1)], nullptr);
  benchmark::DoNotOptimize(sum);
  state.counters["state_bytes"] = static_cast<double>(cluster->state_bytes());
}

/// ns per lookup of string keys "key<i>".
void lookup_string(benchmark::State& state, const Algorithm* algorithm) {
  const Result<Cluster>& cluster = cached_cluster(*algorithm, state.range(0));
  if (!cluster) {
    state.SkipWithError(cluster.error().c_str());
    return;
  }
  const auto& keys = string_keys();
  std::uint64_t sum = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const Key& key = keys[i++ & (kKeyCount - 1)];
    sum += cluster->locate(key.value, &key);
  }
  benchmark::DoNotOptimize(sum);
  state.counters["state_bytes"] = static_cast<double>(cluster->state_bytes());
}

/// Bytes of one cluster and of the list it is built from, roughly: what
/// bounds a batch of the build benchmark.
std::size_t cluster_bytes(const Cluster& cluster) {
  return cluster.state_bytes() + cluster.nodes().size() * (sizeof(Node) + 32);
}

/// Cluster::create alone. It consumes its list, so the copies of the list
/// are made, and the clusters destroyed, outside the timing, in batches of
/// about 64 MiB (a single cluster for the big rings at n=10000).
void build(benchmark::State& state, const Algorithm* algorithm) {
  const NodeList nodes = server_nodes(state.range(0));
  const OptionValues options = OptionValues::defaults(algorithm->options);
  const Result<Cluster> probe = Cluster::create(*algorithm, options, nodes);
  if (!probe) {
    state.SkipWithError(probe.error().c_str());
    return;
  }
  constexpr std::size_t kBatchBytes = std::size_t{64} << 20;
  const std::size_t batch = std::clamp<std::size_t>(kBatchBytes / cluster_bytes(*probe), 1, 1024);
  std::vector<NodeList> lists;
  std::vector<Cluster> built;
  built.reserve(batch);
  for (auto _ : state) {
    if (lists.empty()) {
      state.PauseTiming();
      built.clear();
      lists.assign(batch, nodes);
      state.ResumeTiming();
    }
    Result<Cluster> cluster = Cluster::create(*algorithm, options, std::move(lists.back()));
    lists.pop_back();
    if (!cluster) {
      state.SkipWithError(cluster.error().c_str());
      break;
    }
    built.push_back(std::move(cluster).value());
  }
  state.counters["state_bytes"] = static_cast<double>(probe->state_bytes());
}

/// CPU time of this process, in seconds (unlike wall time, not inflated
/// while other work on the machine has the cores).
double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

/// Iterations for the build benchmark of (algorithm, n): about
/// kBuildSeconds of CPU time, copies and destruction included. Google
/// Benchmark's own choice counts only timed time, and would run a cheap
/// build (a bucket-count cluster only keeps the list) millions of times,
/// each with an untimed copy of the list.
constexpr double kBuildSeconds = 0.1;
benchmark::IterationCount build_iterations(const Algorithm& algorithm, std::int64_t n) {
  const NodeList nodes = server_nodes(n);
  const OptionValues options = OptionValues::defaults(algorithm.options);
  if (!Cluster::create(algorithm, options, nodes)) return 1;  // the benchmark reports the error
  // Mean CPU time per build (list copy and destruction included) over at
  // least 10 ms of builds after the cold one above.
  const double start = process_cpu_seconds();
  int builds = 0;
  double elapsed = 0;
  do {
    const Result<Cluster> cluster = Cluster::create(algorithm, options, nodes);
    benchmark::DoNotOptimize(cluster);
    ++builds;
    elapsed = process_cpu_seconds() - start;
  } while (elapsed < 0.01);
  const double seconds = elapsed / builds;
  return static_cast<benchmark::IterationCount>(
      std::clamp(kBuildSeconds / seconds, 1.0, 1e6));
}

/// Collects each run's CPU time per iteration (ns: steadier than wall time
/// while other work shares the machine), its counters and the
/// errors of skipped runs, by "family/algorithm/n" (without the
/// "/iterations:N" of the build benchmarks).
class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  /// Colours only on a terminal (the --benchmark_color flag configures the
  /// library's own reporter, not this one).
  CollectingReporter()
      : ConsoleReporter(isatty(fileno(stdout)) ? OO_Defaults : OO_Tabular) {}
  std::map<std::string, double> ns;
  std::map<std::string, double> state_bytes;
  std::map<std::string, std::string> errors;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const std::string name = run.run_name.function_name + "/" + run.run_name.args;
      if (run.error_occurred) {
        errors[name] = run.error_message;
        continue;
      }
      if (run.run_type != Run::RT_Iteration) continue;
      ns[name] = run.cpu_accumulated_time / static_cast<double>(run.iterations) * 1e9;
      const auto bytes = run.counters.find("state_bytes");
      if (bytes != run.counters.end()) state_bytes[name] = bytes->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

std::string run_name(const char* benchmark, const Algorithm& algorithm, std::int64_t n) {
  return std::string(benchmark) + "/" + std::string(algorithm.name) + "/" + std::to_string(n);
}

void print_header(const char* title) {
  std::printf("\n%s\n| algorithm |", title);
  for (std::int64_t n : kNodeCounts) std::printf(" n=%lld |", static_cast<long long>(n));
  std::printf("\n|---|");
  for (std::size_t i = 0; i < std::size(kNodeCounts); ++i) std::printf("---|");
  std::printf("\n");
}

/// One markdown table: a row per algorithm, a column per node count; a cell
/// is `cell(value)` or "-" with the reason the run was skipped.
template <class Cell>
void print_table(const CollectingReporter& reporter, const char* title, const char* benchmark,
                 const std::map<std::string, double>& values, Cell&& cell) {
  print_header(title);
  for (const Algorithm& algorithm : algorithms()) {
    std::printf("| %s |", std::string(algorithm.name).c_str());
    for (std::int64_t n : kNodeCounts) {
      const std::string name = run_name(benchmark, algorithm, n);
      const auto value = values.find(name);
      const auto error = reporter.errors.find(name);
      if (value != values.end()) {
        std::printf(" %s |", cell(value->second, n).c_str());
      } else if (error != reporter.errors.end()) {
        std::printf(" - (%s) |", error->second.c_str());
      } else {
        std::printf(" - (not run) |");
      }
    }
    std::printf("\n");
  }
}

std::string format(const char* pattern, double a, double b = 0) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, a, b);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  for (const Algorithm& algorithm : algorithms()) {
    const std::string name(algorithm.name);
    for (std::int64_t n : kNodeCounts) {
      benchmark::RegisterBenchmark(("lookup_numeric/" + name).c_str(), lookup_numeric, &algorithm)
          ->Arg(n);
      benchmark::RegisterBenchmark(("lookup_string/" + name).c_str(), lookup_string, &algorithm)
          ->Arg(n);
      benchmark::RegisterBenchmark(("build/" + name).c_str(), build, &algorithm)
          ->Arg(n)
          ->Iterations(build_iterations(algorithm, n))
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  for (const char* benchmark : {"lookup_numeric", "lookup_string"}) {
    const std::string title = std::string("ns per lookup, ") +
                              (benchmark == std::string("lookup_numeric")
                                   ? "numeric keys (SplitMix64 values; node-set algorithms hash "
                                     "the decimal text)"
                                   : "string keys \"key<i>\" (node-set algorithms hash the text; "
                                     "bucket-count ones use its precomputed XXH3-64)") +
                              " — (x modulo = servers[key % n], same run)";
    print_table(reporter, title.c_str(), benchmark, reporter.ns,
                [&](double ns, std::int64_t n) {
                  const auto base = reporter.ns.find(run_name(benchmark, modulo_algorithm(), n));
                  if (base == reporter.ns.end()) return format("%.1f", ns);
                  return format("%.1f (%.2fx)", ns, ns / base->second);
                });
  }
  print_table(reporter, "Bytes of lookup state (Cluster::state_bytes; node names not counted)",
              "lookup_numeric", reporter.state_bytes, [](double bytes, std::int64_t) {
                return bytes >= 1024 ? format("%.0f (%.1f KiB)", bytes, bytes / 1024)
                                     : format("%.0f", bytes);
              });
  print_table(reporter,
              "Build time, µs: Cluster::create alone (copying the list it consumes, and "
              "destroying the result, untimed; bucket-count rows only keep the list)",
              "build", reporter.ns,
              [](double ns, std::int64_t) { return format(ns >= 1e5 ? "%.0f" : "%.2f", ns / 1e3); });
  return 0;
}
