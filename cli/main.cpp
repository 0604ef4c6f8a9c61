// `jumphash`: the native command-line face of the core's interpreter.
//
//   jumphash [FILE|-]        run a script from FILE or standard input
//   jumphash -e 'LINE' ...   run the given lines
//   jumphash check SCRIPT OUTPUT   check a student's OUTPUT against SCRIPT
//   jumphash reproduce [--json] [ID...]   re-measure the articles' claims
//   jumphash --help | --version
//
// Exit status: 0 every line ran, 1 some line failed, 2 usage error.
// For check: 0 every line matches, 1 some line does not, 2 usage error
// (missing arguments, unreadable file, a script with errors, too many lines).
// For reproduce: 0 no deterministic claim differs, 1 one does, 2 usage error
// (an unknown option or claim id).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/batch.hpp"
#include "jumphash/checker.hpp"
#include "jumphash/claims.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/limits.hpp"
#include "jumphash/version.hpp"

namespace {

constexpr const char* kUsage =
    "usage: jumphash [-j N] [FILE|-]\n"
    "       jumphash [-j N] -e 'COMMAND' [-e 'COMMAND' ...]\n"
    "       jumphash --help | --version\n";

constexpr const char* kThreadsHelp =
    "-j N runs MOVED, LOAD and BUCKETS over large key sets (at least 262144 keys)\n"
    "on N threads, 1..256 (default: the machine's cores); the output is the same\n"
    "for any N.\n";

/// The thread count of -j: 1..kMaxReportThreads, or 0 when `text` is not one.
unsigned parse_thread_count(const std::string& text) {
  if (text.empty() || text.size() > 3 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return 0;
  }
  const unsigned long count = std::stoul(text);
  return count >= 1 && count <= jumphash::kMaxReportThreads ? static_cast<unsigned>(count) : 0;
}

constexpr const char* kCheckUsage = "usage: jumphash check SCRIPT OUTPUT\n";

constexpr const char* kLanguageHelp =
    "Runs a script in the jumphash command language, one command a line:\n"
    "  ALGO <name> [<option>=<value>]...  later commands use that algorithm (default jump)\n"
    "  HASH <key> <n>     print \"<key>: <bucket>\" for n buckets (1..2147483647)\n"
    "  KEYS <spec>...     set the key list: keys, ranges A..B, random:COUNT:SEED\n"
    "  BUCKETS <n>        print \"<key>: <bucket>\" for every key\n"
    "  MOVED <from> <to>  print \"<key>: <old> -> <new>\" for moved keys, then\n"
    "                     \"moved: <count> of <total>\"\n"
    "  LOAD <n>           print \"<bucket>: <count>\" for buckets 0..n-1 (n <= 1000000)\n"
    "  TRACE <key> <max>  print \"<n>: <bucket>\" wherever the key's bucket changes\n"
    "Node lists (a node is name or name*weight, weight 1..1000000; quote names\n"
    "with spaces: \"cache 3\"*2):\n"
    "  NODES <node>...    set the node list (at most 100000 nodes, names unique)\n"
    "  REMOVE <name>...   remove any nodes;  ADD <node>...  add nodes at the end\n"
    "  HASH <key>         print \"<key>: <node>\"\n"
    "  BUCKETS            print \"<key>: <node>\" for every key\n"
    "  LOAD               print \"<node>: <count>\" for every node, in list order\n"
    "  MOVED <edit>...    edits -name, +name[*w], =name*w on a copy of the list:\n"
    "                     \"<key>: <old> -> <new>\" per moved key, then \"moved: ...\"\n"
    "A bucket-count algorithm on a node list indexes it, servers[bucket(key, count)]:\n"
    "removing a middle node renumbers the rest. A node-set algorithm given a bucket\n"
    "count n places keys on nodes named 0..n-1.\n"
    "A key is decimal (0..18446744073709551615), 0x hex (1-16 digits) or a \"string\"\n"
    "(XXH3-64 of its UTF-8 bytes for bucket-count algorithms; node-set algorithms\n"
    "hash a string's bytes and a number's decimal text). '#' starts a comment.\n"
    "Keywords ignore case. Errors go to stderr as \"line <N>: error: <message>\";\n"
    "later lines still run. Exit status: 0 all lines ran, 1 a line failed, 2 usage error.\n";

constexpr const char* kCheckHelp =
    "usage: jumphash check SCRIPT OUTPUT\n"
    "Compares OUTPUT, a student's program's stdout for SCRIPT ('-' reads it from\n"
    "standard input), with what SCRIPT prints. For each line that is not a match\n"
    "it prints the expected-output line, the script line that printed it, the\n"
    "expected and actual text, the verdict (wrong value, wrong format, missing\n"
    "line, extra line, out of order) and the mistakes that give exactly the\n"
    "student's value (js-number, integer-division, key-as-double, off-by-one-n,\n"
    "guava-rounding, other-algorithm, index-renumbering, moved-estimated,\n"
    "no-64-bit-wrap), then \"checked: <matching> of <expected lines> lines match\".\n"
    "Exit status: 0 all lines match, 1 some do not, 2 usage error or a script\n"
    "with errors.\n";

/// The algorithms, read from the registry: name, kind, what it can do, options.
std::string algorithms_help() {
  std::string text = "Algorithms (kind; removes any node / weights; options):\n";
  for (const jumphash::Algorithm& a : jumphash::algorithms()) {
    std::string line = "  " + std::string(a.name);
    line.resize(std::max<std::size_t>(line.size() + 1, 17), ' ');
    line += std::string(jumphash::kind_name(a.kind));
    if (a.kind == jumphash::AlgorithmKind::node_set) {
      line += a.removes_any_bucket ? "; removes any node" : "; moves some other keys too";
      line += a.weights ? ", weights" : ", no weights";
    }
    for (const jumphash::OptionSpec& option : a.options) {
      line += "; " + std::string(option.name) + "=" + std::string(option.default_value);
    }
    text += line + "\n";
  }
  return text;
}

constexpr const char* kReproduceUsage = "usage: jumphash reproduce [--json] [ID...]\n";

/// The claim ids, wrapped under "Claims:" at 79 columns.
std::string claim_list_help() {
  std::string text = "Claims:";
  std::size_t column = text.size();
  for (const jumphash::Claim& claim : jumphash::claims()) {
    if (column + 1 + claim.id.size() > 79) {
      text += "\n ";
      column = 1;
    }
    text += ' ';
    text += claim.id;
    column += 1 + claim.id.size();
  }
  return text + "\n";
}

std::string reproduce_help() {
  return std::string(kReproduceUsage) +
         "Re-measures the claims of the papers and articles behind jumphash on this\n"
         "machine. For each claim it prints the statement, its source, the published\n"
         "value, the value measured here, how it is measured, the tolerance and a\n"
         "verdict: reproduced, differs, or measured-only (a table of times from another\n"
         "machine, shown as ratios). Timing claims are ratios of loops in this run.\n"
         "With no ID it runs every claim (each takes up to about 2 s). --json prints\n"
         "one JSON document (with each claim's chart data) instead of the table.\n" +
         claim_list_help() +
         "Exit status: 0 no deterministic claim differs, 1 one does, 2 usage error\n"
         "(an unknown option or claim id).\n";
}

/// The limits table (jumphash/limits.hpp), one limit a row, wrapped at 79
/// columns under its value.
std::string limits_help() {
  constexpr std::size_t kWidth = 79, kIndent = 20;
  std::string text =
      "Limits (one more is an error that names the limit; the README has the same table):\n";
  for (const jumphash::Limit& limit : jumphash::limits()) {
    std::string row = "  " + std::string(limit.name);
    row.resize(std::max<std::size_t>(row.size() + 1, kIndent), ' ');
    row += std::to_string(limit.value) + " " + std::string(limit.unit) + ": " +
           std::string(limit.bounds);
    if (limit.enforced_by == "page") row += "; the page checks it";
    std::size_t start = 0;
    while (row.size() - start > kWidth - (start == 0 ? 0 : kIndent)) {
      const std::size_t width = kWidth - (start == 0 ? 0 : kIndent);
      std::size_t cut = row.rfind(' ', start + width);
      if (cut == std::string::npos || cut <= start) cut = start + width;
      text += std::string(start == 0 ? 0 : kIndent, ' ') + row.substr(start, cut - start) + "\n";
      start = cut + 1;
    }
    text += std::string(start == 0 ? 0 : kIndent, ' ') + row.substr(start) + "\n";
  }
  return text;
}

std::string help_text() {
  return std::string(kLanguageHelp) + "\n" + kThreadsHelp + "\n" + algorithms_help() + "\n" +
         kCheckHelp + "\n" + reproduce_help() + "\n" + limits_help();
}

/// Runs `input` line by line (a script of any length streams through), then
/// returns the exit status: 0 when every line ran, 1 when any failed.
int run_stream(jumphash::Interpreter& interpreter, std::istream& input) {
  std::string line;
  std::uint64_t number = 0;
  while (std::getline(input, line)) interpreter.run_line(line, ++number);
  interpreter.flush();
  std::cout.flush();
  return interpreter.any_failed() ? 1 : 0;
}

int usage_error(const std::string& message) {
  std::cerr << "jumphash: " << message << '\n' << kUsage;
  return 2;
}

/// Reads FILE, or standard input for "-"; false (with `error`) when unreadable.
bool read_all(const std::string& file, std::string& text, std::string& error) {
  std::ostringstream buffer;
  if (file == "-") {
    buffer << std::cin.rdbuf();
  } else {
    std::error_code ignored;
    if (std::filesystem::is_directory(file, ignored)) {
      error = "cannot read '" + file + "': it is a directory";
      return false;
    }
    std::ifstream input(file, std::ios::binary);
    if (!input) {
      error = "cannot read '" + file + "': " + std::strerror(errno);
      return false;
    }
    buffer << input.rdbuf();
    if (input.bad()) {
      error = "cannot read '" + file + "'";
      return false;
    }
  }
  text = buffer.str();
  return true;
}

int check_usage_error(const std::string& message) {
  std::cerr << "jumphash: check: " << message << '\n' << kCheckUsage;
  return 2;
}

/// `jumphash check SCRIPT OUTPUT`; args are the words after "check".
int check_command(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage << '\n' << help_text();
      return 0;
    }
  }
  if (args.size() != 2) {
    return check_usage_error("it takes a SCRIPT and an OUTPUT file, got " +
                             std::to_string(args.size()) + " argument" +
                             (args.size() == 1 ? "" : "s"));
  }
  if (args[0] == "-" && args[1] == "-") {
    return check_usage_error("only one of SCRIPT and OUTPUT can be standard input");
  }
  std::string script, output, error;
  if (!read_all(args[0], script, error) || !read_all(args[1], output, error)) {
    return check_usage_error(error);
  }
  jumphash::Result<jumphash::CheckReport> report = jumphash::check_output(script, output);
  if (!report) {
    std::cerr << "jumphash: check: " << report.error() << '\n';
    return 2;
  }
  std::cout << jumphash::render_check_report(*report);
  std::cout.flush();
  if (!report->script_errors.empty()) {
    std::cerr << "jumphash: check: the script '" << args[0] << "' has errors (listed above)\n";
    return 2;
  }
  return report->all_match() ? 0 : 1;
}


int reproduce_usage_error(const std::string& message) {
  std::cerr << "jumphash: reproduce: " << message << '\n' << kReproduceUsage;
  return 2;
}

/// `jumphash reproduce [--json] [ID...]`; args are the words after "reproduce".
int reproduce_command(const std::vector<std::string>& args) {
  bool json = false;
  std::vector<const jumphash::Claim*> selected;
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::cout << reproduce_help();
      return 0;
    }
    if (arg == "--json") {
      json = true;
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      return reproduce_usage_error("unknown option '" + jumphash::printable_input(arg) +
                                   "' (the options are --json and --help)");
    }
    jumphash::Result<const jumphash::Claim*> claim = jumphash::find_claim(arg);
    if (!claim) return reproduce_usage_error(claim.error());
    if (std::find(selected.begin(), selected.end(), *claim) == selected.end()) {
      selected.push_back(*claim);
    }
  }
  if (selected.empty()) {
    for (const jumphash::Claim& claim : jumphash::claims()) selected.push_back(&claim);
  }
  std::vector<jumphash::ClaimRun> runs;
  bool deterministic_differs = false;
  for (const jumphash::Claim* claim : selected) {
    runs.push_back({claim, jumphash::run_claim(*claim)});
    deterministic_differs =
        deterministic_differs || (claim->kind == jumphash::ClaimKind::deterministic &&
                                  runs.back().result.verdict == jumphash::ClaimVerdict::differs);
    // The table streams: each claim's block as soon as it is measured.
    if (!json) std::cout << jumphash::render_claim_block(runs.back()) << std::flush;
  }
  std::cout << (json ? jumphash::render_claims_json(runs) : jumphash::render_claims_summary(runs));
  std::cout.flush();
  return deterministic_differs ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc >= 2 && std::strcmp(argv[1], "check") == 0) {
    return check_command(std::vector<std::string>(argv + 2, argv + argc));
  }
  if (argc >= 2 && std::strcmp(argv[1], "reproduce") == 0) {
    return reproduce_command(std::vector<std::string>(argv + 2, argv + argc));
  }
  std::vector<std::string> lines;
  std::string file;
  bool have_file = false;
  jumphash::set_report_threads(std::max(1U, std::thread::hardware_concurrency()));
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage << '\n' << help_text();
      return 0;
    }
    if (arg == "--version") {
      std::cout << "jumphash " << jumphash::kVersion << '\n';
      return 0;
    }
    if (arg == "-j") {
      const unsigned threads = i + 1 < argc ? parse_thread_count(argv[i + 1]) : 0;
      if (threads == 0) {
        return usage_error("-j needs a thread count in 1.." +
                           std::to_string(jumphash::kMaxReportThreads) + ", e.g. -j 4" +
                           (i + 1 < argc ? ", got '" + jumphash::printable_input(argv[i + 1]) + "'"
                                         : std::string()));
      }
      jumphash::set_report_threads(threads);
      ++i;
      continue;
    }
    if (arg == "-e") {
      if (i + 1 >= argc) return usage_error("-e needs a command, e.g. -e 'HASH 42 100'");
      lines.emplace_back(argv[++i]);
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') return usage_error("unknown option '" + arg + "'");
    if (have_file)
      return usage_error("more than one script given ('" + file + "' and '" + arg + "')");
    file = arg;
    have_file = true;
  }
  if (have_file && !lines.empty())
    return usage_error("give either -e commands or a script, not both");

  // std::cerr is tied to std::cout, so an error line follows the output
  // before it in a terminal.
  jumphash::Interpreter interpreter(
      [](std::string_view text) {
        std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
      },
      [](std::string_view text) {
        std::cerr.write(text.data(), static_cast<std::streamsize>(text.size()));
      });
  if (!lines.empty()) {
    std::uint64_t number = 0;
    for (const std::string& line : lines) {
      // A -e argument may itself hold several lines.
      std::string_view rest = line;
      while (true) {
        const std::size_t end = rest.find('\n');
        interpreter.run_line(rest.substr(0, end), ++number);
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end + 1);
      }
    }
    std::cout.flush();
    return interpreter.any_failed() ? 1 : 0;
  }
  if (!have_file || file == "-") return run_stream(interpreter, std::cin);
  std::error_code ignored;
  if (std::filesystem::is_directory(file, ignored)) {
    return usage_error("cannot read '" + file + "': it is a directory");
  }
  std::ifstream input(file, std::ios::binary);
  if (!input) {
    return usage_error("cannot read '" + file + "': " + std::strerror(errno));
  }
  return run_stream(interpreter, input);
}
