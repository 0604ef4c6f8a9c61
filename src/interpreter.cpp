// The command interpreter; see jumphash/interpreter.hpp for the language.
#include "jumphash/interpreter.hpp"

#include <algorithm>
#include <cctype>
#include <istream>
#include <ostream>
#include <sstream>

#include "jumphash/reports.hpp"

namespace jumphash {
namespace {

constexpr std::size_t kFlushThreshold = 1 << 16;

std::string upper(std::string_view word) {
  std::string result(word);
  for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

Error arity(std::string_view command, std::size_t expected, std::string_view usage,
            std::size_t got) {
  return fail(std::string(command), " takes ", std::to_string(expected), " argument",
              expected == 1 ? "" : "s", " (", std::string(usage), "), got ", std::to_string(got));
}

Result<std::int32_t> parse_bucket_count(std::string_view token, std::string_view what,
                                        std::int64_t max = kMaxBuckets) {
  Result<std::int64_t> n = parse_integer(token, what, 1, max);
  if (!n) return Error{n.error()};
  return static_cast<std::int32_t>(*n);
}

}  // namespace

Interpreter::Interpreter(std::ostream& out, std::ostream& err)
    : out_(out), err_(err), algorithm_(&algorithms()[0]) {}

Interpreter::~Interpreter() { flush(); }

void Interpreter::flush() {
  if (!buffer_.empty()) {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }
}

void Interpreter::emit_line() {
  buffer_ += '\n';
  if (observer_) {
    flush();
    observer_(line_number_);
  } else if (buffer_.size() >= kFlushThreshold) {
    flush();
  }
}

bool Interpreter::run_line(std::string_view line, std::uint64_t line_number) {
  line_number_ = line_number;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  Result<bool> result = [&]() -> Result<bool> {
    Result<std::vector<std::string_view>> tokens = split_tokens(line);
    if (!tokens) return Error{tokens.error()};
    if (tokens->empty()) return true;
    return execute(*tokens);
  }();
  flush();
  if (!result) {
    failed_ = true;
    out_.flush();
    err_ << "line " << line_number << ": error: " << result.error() << '\n';
    return false;
  }
  return true;
}

Result<bool> Interpreter::execute(const std::vector<std::string_view>& args) {
  const std::string command = upper(args[0]);
  const std::size_t count = args.size() - 1;

  if (command == "ALGO") {
    if (count != 1) return arity("ALGO", 1, "ALGO <name>", count);
    Result<const Algorithm*> found = find_algorithm(args[1]);
    if (!found) return Error{found.error()};
    algorithm_ = *found;
    return true;
  }

  if (command == "HASH") {
    if (count != 2) return arity("HASH", 2, "HASH <key> <n>", count);
    Result<Key> key = parse_key(args[1]);
    if (!key) return Error{key.error()};
    Result<std::int32_t> n = parse_bucket_count(args[2], "bucket count");
    if (!n) return Error{n.error()};
    append_key(buffer_, key->value, key->label.empty() ? nullptr : &key->label);
    buffer_ += ": ";
    append_decimal(buffer_, static_cast<std::uint64_t>(algorithm_->function(key->value, *n)));
    emit_line();
    return true;
  }

  if (command == "KEYS") {
    std::vector<std::string_view> specs(args.begin() + 1, args.end());
    Result<KeySet> keys = KeySet::parse(specs);
    if (!keys) return Error{keys.error()};
    keys_ = std::move(keys).value();
    return true;
  }

  if (command == "BUCKETS") {
    if (count != 1) return arity("BUCKETS", 1, "BUCKETS <n>", count);
    Result<std::int32_t> n = parse_bucket_count(args[1], "bucket count");
    if (!n) return Error{n.error()};
    visit_algorithm(algorithm_->id, [&](auto bucket_of) {
      keys_.for_each([&](std::uint64_t key, const std::string* label) {
        append_key(buffer_, key, label);
        buffer_ += ": ";
        append_decimal(buffer_, static_cast<std::uint64_t>(bucket_of(key, *n)));
        emit_line();
      });
    });
    return true;
  }

  if (command == "MOVED") {
    if (count != 2) return arity("MOVED", 2, "MOVED <from> <to>", count);
    Result<std::int32_t> from = parse_bucket_count(args[1], "from bucket count");
    if (!from) return Error{from.error()};
    Result<std::int32_t> to = parse_bucket_count(args[2], "to bucket count");
    if (!to) return Error{to.error()};
    const std::uint64_t moved = for_each_moved(
        *algorithm_, keys_, *from, *to, 0, keys_.size(),
        [&](std::uint64_t key, const std::string* label, std::int32_t old_bucket,
            std::int32_t new_bucket) {
          append_key(buffer_, key, label);
          buffer_ += ": ";
          append_decimal(buffer_, static_cast<std::uint64_t>(old_bucket));
          buffer_ += " -> ";
          append_decimal(buffer_, static_cast<std::uint64_t>(new_bucket));
          emit_line();
        });
    buffer_ += "moved: ";
    append_decimal(buffer_, moved);
    buffer_ += " of ";
    append_decimal(buffer_, keys_.size());
    emit_line();
    return true;
  }

  if (command == "LOAD") {
    if (count != 1) return arity("LOAD", 1, "LOAD <n>", count);
    Result<std::int32_t> n = parse_bucket_count(args[1], "LOAD bucket count", kMaxLoadBuckets);
    if (!n) return Error{n.error()};
    std::vector<std::uint64_t> loads(static_cast<std::size_t>(*n));
    add_loads(*algorithm_, keys_, *n, 0, keys_.size(), loads);
    for (std::size_t bucket = 0; bucket < loads.size(); ++bucket) {
      append_decimal(buffer_, bucket);
      buffer_ += ": ";
      append_decimal(buffer_, loads[bucket]);
      emit_line();
    }
    return true;
  }

  if (command == "TRACE") {
    if (count != 2) return arity("TRACE", 2, "TRACE <key> <max>", count);
    Result<Key> key = parse_key(args[1]);
    if (!key) return Error{key.error()};
    const std::int64_t limit = algorithm_->consistent ? kMaxBuckets : kMaxModuloTrace;
    std::string what = "TRACE max";
    if (!algorithm_->consistent) what += " for " + std::string(algorithm_->name);
    Result<std::int32_t> max = parse_bucket_count(args[2], what, limit);
    if (!max) return Error{max.error()};
    Result<std::vector<TraceStep>> steps = trace_key(*algorithm_, key->value, *max);
    if (!steps) return Error{steps.error()};
    for (const TraceStep& step : *steps) {
      append_decimal(buffer_, static_cast<std::uint64_t>(step.n));
      buffer_ += ": ";
      append_decimal(buffer_, static_cast<std::uint64_t>(step.bucket));
      emit_line();
    }
    return true;
  }

  return fail("unknown command '", std::string(args[0]),
              "' (known: ALGO, HASH, KEYS, BUCKETS, MOVED, LOAD, TRACE)");
}

int Interpreter::run(std::istream& input) {
  std::string line;
  std::uint64_t number = 0;
  while (std::getline(input, line)) run_line(line, ++number);
  flush();
  out_.flush();
  return failed_ ? 1 : 0;
}

int Interpreter::run(std::string_view script) {
  std::uint64_t number = 0;
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    if (end == std::string_view::npos) end = script.size();
    run_line(script.substr(start, end - start), ++number);
    start = end + 1;
  }
  flush();
  out_.flush();
  return failed_ ? 1 : 0;
}

ScriptOutput run_script(std::string_view script) {
  std::ostringstream out, err;
  int exit_code;
  {
    Interpreter interpreter(out, err);
    exit_code = interpreter.run(script);
  }
  return {out.str(), err.str(), exit_code};
}

}  // namespace jumphash
