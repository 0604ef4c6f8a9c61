// The checker's diagnoses: each wrong, missing or extra line recomputed with
// the variants of jumphash/mistakes.hpp (bucket counts) and with the other
// registered algorithms (node lists), naming those that reproduce it.
#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "checker_internal.hpp"
#include "jumphash/mistakes.hpp"

namespace jumphash::checker_detail {

std::vector<Candidate> candidates_for(const Algorithm& algorithm) {
  std::vector<Candidate> out;
  const BucketFunction f = algorithm.function;
  const std::string name(algorithm.name);
  const bool jump_family =
      algorithm.id == AlgorithmId::jump || algorithm.id == AlgorithmId::jump_guava;
  if (jump_family) {
    out.push_back({"js-number", "with JavaScript Numbers",
                   [](std::uint64_t k, bool, std::int64_t n) {
                     return jump_hash_js_number(k, static_cast<std::int32_t>(n));
                   },
                   0, true});
    out.push_back({"integer-division", "with integer division",
                   [](std::uint64_t k, bool, std::int64_t n) {
                     return jump_hash_integer_division(k, static_cast<std::int32_t>(n));
                   },
                   0, true});
  }
  out.push_back({"key-as-double", "on the key through a double",
                 [f](std::uint64_t k, bool numeric, std::int64_t n) {
                   return f(numeric ? key_through_double(k) : k, static_cast<std::int32_t>(n));
                 },
                 0, algorithm.consistent});
  for (int shift : {-1, +1}) {
    out.push_back({"off-by-one-n", shift < 0 ? "at n - 1" : "at n + 1",
                   [f, shift](std::uint64_t k, bool, std::int64_t n) -> std::int32_t {
                     const std::int64_t m = n + shift;
                     if (m < 1 || m > kMaxBuckets) return -1;
                     return f(k, static_cast<std::int32_t>(m));
                   },
                   shift, algorithm.consistent});
  }
  if (jump_family) {
    const Algorithm& other =
        **find_algorithm(algorithm.id == AlgorithmId::jump ? "jump-guava" : "jump");
    out.push_back({"guava-rounding",
                   algorithm.id == AlgorithmId::jump ? "with jump-guava (Guava's rounding)"
                                                     : "with jump (the paper's C rounding)",
                   [g = other.function](std::uint64_t k, bool, std::int64_t n) {
                     return g(k, static_cast<std::int32_t>(n));
                   },
                   0, true});
  }
  for (const Algorithm& other : bucket_count_algorithms()) {
    if (other.id == algorithm.id) continue;
    // jump <-> jump-guava is guava-rounding, named with its own explanation.
    if (jump_family && (other.id == AlgorithmId::jump || other.id == AlgorithmId::jump_guava)) {
      continue;
    }
    out.push_back({"other-algorithm", "with " + std::string(other.name),
                   [g = other.function](std::uint64_t k, bool, std::int64_t n) {
                     return g(k, static_cast<std::int32_t>(n));
                   },
                   0, other.consistent});
  }
  return out;
}

namespace {

/// The bucket counts a bucket-count command computes at: MOVED's from and
/// to, else n twice (TRACE: its max). On a node list, the list's size
/// (MOVED: before and after the edits).
std::pair<std::int64_t, std::int64_t> bucket_counts(const Command& command) {
  const OutputContext& context = *command.context;
  if (context.cluster && command.kind != CommandKind::trace) {
    const auto before = static_cast<std::int64_t>(context.cluster->nodes().size());
    const auto after =
        context.after ? static_cast<std::int64_t>(context.after->nodes().size()) : before;
    return {before, after};
  }
  if (command.kind == CommandKind::moved) return {command.from, command.to};
  return {command.n, command.n};
}

/// How the script prints a key: its label, or its value in decimal.
std::string printed_key(std::uint64_t value, const Key* key) {
  return key && !key->label.empty() ? key->label : decimal(value);
}

/// The command's name as the script writes it: "HASH", "MOVED", ...
std::string_view command_word(const Command& command) {
  switch (command.kind) {
    case CommandKind::hash: return "HASH";
    case CommandKind::buckets: return "BUCKETS";
    case CommandKind::moved: return "MOVED";
    case CommandKind::load: return "LOAD";
    case CommandKind::trace: return "TRACE";
  }
  return "";
}

}  // namespace

std::vector<Diagnosis> Diagnoser::wrong_value(const ExpectedLine& e, const StudentLine& s,
                                              const std::vector<const StudentLine*>& block) {
  std::vector<Diagnosis> out;
  const Command& command = expected_.commands[e.command];
  if (command.on_nodes()) {
    node_wrong_value(e, s, block, out);
    return out;
  }
  if (!s.numbers_ok) return out;
  const std::vector<Candidate>& candidates = candidates_of(*command.algorithm);
  const bool printed_as_double = key_printed_as_double(e, s);
  if (printed_as_double && (e.shape == Shape::key_bucket || e.shape == Shape::key_move)) {
    add(out, "key-as-double",
        "the key " + e.key_text + " is printed as " + s.key_token + ", the nearest double");
  }
  switch (e.shape) {
    case Shape::key_bucket: {
      // Right numbers under a key printed differently: only the key is wrong.
      if ((s.key_text != e.key_text && !printed_as_double) || s.numbers.size() != 1 ||
          s.numbers == e.values) {
        break;
      }
      for (const Candidate& c : candidates) {
        if (c.id == "key-as-double" && (!e.numeric_key || key_through_double(e.key) == e.key)) {
          continue;
        }
        const std::int32_t b = c.bucket(e.key, e.numeric_key, command.n);
        if (b >= 0 && b == s.numbers[0]) {
          add(out, c.id, how(c, e, command) + " gives " + decimal(static_cast<std::uint64_t>(b)));
        }
      }
      break;
    }
    case Shape::key_move: {
      if ((s.key_text != e.key_text && !printed_as_double) || s.numbers.size() != 2 ||
          s.numbers == e.values) {
        break;
      }
      for (const Candidate& c : candidates) {
        if (c.id == "key-as-double" && (!e.numeric_key || key_through_double(e.key) == e.key)) {
          continue;
        }
        const std::int32_t old_bucket = c.bucket(e.key, e.numeric_key, command.from);
        const std::int32_t new_bucket = c.bucket(e.key, e.numeric_key, command.to);
        if (old_bucket >= 0 && new_bucket >= 0 && old_bucket == s.numbers[0] &&
            new_bucket == s.numbers[1]) {
          add(out, c.id,
              how(c, e, command) + " gives " + decimal(static_cast<std::uint64_t>(old_bucket)) +
                  " -> " + decimal(static_cast<std::uint64_t>(new_bucket)));
        }
      }
      break;
    }
    case Shape::moved_total:
      if (s.key_text == "moved" && s.numbers.size() == 2) moved_total(e, s, out);
      break;
    case Shape::trace: {
      if (!s.numeric_key || s.numbers.size() != 1) break;
      trace_step(e, s.key, s.numbers[0], out);
      break;
    }
    case Shape::load:
    case Shape::key_node:  // node lines: node_wrong_value
    case Shape::node_move:
    case Shape::node_load:
      break;
  }
  return out;
}

// A variant explains a missing MOVED line when the key does not move under
// it and it moves as many keys as the student's summary line says; a
// missing TRACE line when its trace lacks the step and has every step the
// student printed.
std::vector<Diagnosis> Diagnoser::missing(std::size_t line, bool stops_here,
                                          std::uint64_t missing_after,
                                          const std::vector<const StudentLine*>& block) {
  std::vector<Diagnosis> out;
  const ExpectedLine& e = expected_.lines[line];
  const Command& command = expected_.commands[e.command];
  const std::optional<UnwrappedHang>& hang = stops_here ? unwrapped_hang() : std::nullopt;
  if (hang && line >= hang->first_line && line <= hang->last_line) {
    const bool one_key = command.kind == CommandKind::hash || command.kind == CommandKind::trace;
    const std::string n = signed_decimal(hang->n);
    add(out, "no-64-bit-wrap",
        "the output stops here: " + std::string(command.algorithm->name) + " of key " +
            hang->key_text + " at n = " + n + ", which this " + std::string(command_word(command)) +
            " needs" + (one_key ? "" : " (the first of its keys that hangs)") +
            ", never returns without the 64-bit wrap: its first jump target is " +
            decimal(unwrapped_jump_first_target(hang->key)) + ", below " + n +
            ", and every later one is 0; " + decimal(missing_after) +
            " expected line(s) from here on are missing");
  }
  if (block.empty()) return out;
  if (command.on_nodes()) {
    if (e.shape == Shape::node_move) node_missing_move(e, block, out);
    return out;
  }
  const std::vector<Candidate>& candidates = candidates_of(*command.algorithm);
  if (e.shape == Shape::key_move) {
    std::optional<std::int64_t> student_count;
    for (const StudentLine* s : block) {
      if (s->key_text == "moved" && s->numbers_ok && s->numbers.size() == 2) {
        student_count = s->numbers[0];
      }
    }
    if (!student_count) return out;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Candidate& c = candidates[i];
      if (c.id == "key-as-double" && (!e.numeric_key || key_through_double(e.key) == e.key)) {
        continue;
      }
      const std::int32_t old_bucket = c.bucket(e.key, e.numeric_key, command.from);
      const std::int32_t new_bucket = c.bucket(e.key, e.numeric_key, command.to);
      if (old_bucket < 0 || old_bucket != new_bucket) continue;
      const std::optional<std::uint64_t> moved = moved_count(e.command, i);
      if (!moved || static_cast<std::int64_t>(*moved) != *student_count) continue;
      add(out, c.id,
          how(c, e, command) + ", the key stays in bucket " +
              decimal(static_cast<std::uint64_t>(old_bucket)) + " and " + decimal(*moved) +
              " keys move, as the output says");
    }
  } else if (e.shape == Shape::trace) {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Candidate& c = candidates[i];
      if (c.id == "key-as-double" && (!command.key.label.empty() ||
                                      key_through_double(command.key.value) == command.key.value)) {
        continue;
      }
      const std::optional<std::vector<TraceStep>>& steps = trace_of(e.command, i);
      if (!steps) continue;
      auto has = [&](std::uint64_t n, std::int64_t b) {
        return std::any_of(steps->begin(), steps->end(), [&](const TraceStep& step) {
          return static_cast<std::uint64_t>(step.n) == n && step.bucket == b;
        });
      };
      if (has(e.key, e.values[0])) continue;
      const bool explains_all = std::all_of(block.begin(), block.end(), [&](const StudentLine* s) {
        return s->numeric_key && s->numbers_ok && s->numbers.size() == 1 &&
               has(s->key, s->numbers[0]);
      });
      if (!explains_all) continue;
      ExpectedLine keyed = e;
      keyed.key = command.key.value;
      add(out, c.id,
          how(c, keyed, command) + ", the trace has every step the output shows and not " + e.text);
    }
  }
  return out;
}

std::vector<Diagnosis> Diagnoser::extra(const ExpectedLine& previous, const StudentLine& s) {
  std::vector<Diagnosis> out;
  const Command& command = expected_.commands[previous.command];
  if (command.on_nodes()) {
    if (command.kind == CommandKind::moved && s.node_names.size() == 2) {
      node_extra_move(previous, s, out);
    }
    return out;
  }
  if (!s.numbers_ok) return out;
  if (command.kind == CommandKind::trace && s.numeric_key && s.numbers.size() == 1) {
    trace_step(previous, s.key, s.numbers[0], out);
  } else if (command.kind == CommandKind::moved && s.numbers.size() == 2) {
    Result<Key> key = parse_key(s.key_token);
    if (!key) return out;
    const bool numeric = key->label.empty();
    ExpectedLine as_line;
    as_line.key = key->value;
    as_line.key_text = s.key_text;
    as_line.numeric_key = numeric;
    for (const Candidate& c : candidates_of(*command.algorithm)) {
      if (c.id == "key-as-double" && (!numeric || key_through_double(key->value) == key->value)) {
        continue;
      }
      const std::int32_t old_bucket = c.bucket(key->value, numeric, command.from);
      const std::int32_t new_bucket = c.bucket(key->value, numeric, command.to);
      if (old_bucket >= 0 && new_bucket >= 0 && old_bucket != new_bucket &&
          old_bucket == s.numbers[0] && new_bucket == s.numbers[1]) {
        add(out, c.id,
            how(c, as_line, command) + ", the key moves " +
                decimal(static_cast<std::uint64_t>(old_bucket)) + " -> " +
                decimal(static_cast<std::uint64_t>(new_bucket)));
      }
    }
  }
  return out;
}

// A program without the 64-bit wrap returns from jump only when n is at
// most the first jump target (unwrapped_jump_hangs in mistakes.hpp), and
// then with the right bucket; otherwise it never returns and the page's
// time limit stops it. So its output is the expected output up to the
// first command with such a call, and it stops in that command: at its
// first line (a program that computes before it prints) or, printing as it
// goes, just before the first line that needs the call:
// - HASH: its line; LOAD: its first line (every key is counted first);
// - BUCKETS: the line of the first key that hangs at n;
// - MOVED: the keys in order, each at from and at to; the next line after
//   the keys before it that moved (a key that stays prints nothing), or the
//   summary line;
// - TRACE: a scan over n = 1..max stops before the first line whose n
//   hangs; a walk down from the bucket at max stops at the first line. The
//   call reported is the one at max, which hangs in both.
// Only jump and jump-guava: the other algorithms have no such generator.
const std::optional<Diagnoser::UnwrappedHang>& Diagnoser::unwrapped_hang() {
  if (unwrapped_hang_) return *unwrapped_hang_;
  const std::vector<ExpectedLine>& lines = expected_.lines;
  std::optional<UnwrappedHang> found;
  for (std::size_t begin = 0, end = 0; begin < lines.size() && !found; begin = end) {
    const std::size_t index = lines[begin].command;
    end = begin;
    while (end < lines.size() && lines[end].command == index) ++end;
    const Command& command = expected_.commands[index];
    const AlgorithmId id = command.algorithm->id;
    if (id != AlgorithmId::jump && id != AlgorithmId::jump_guava) continue;
    // Not a structured binding: Emscripten's clang 14 cannot capture those
    // in the lambda below.
    const auto counts = bucket_counts(command);
    const auto from = counts.first;
    const auto to = counts.second;
    switch (command.kind) {
      case CommandKind::hash:
      case CommandKind::trace: {
        const std::uint64_t key = command.key.value;
        if (!unwrapped_jump_hangs(key, from)) break;
        std::size_t stop = begin;
        if (command.kind == CommandKind::trace) {
          // The step at j1 + 1 exists (the walk passes bucket j1 < max), so
          // some line's n hangs.
          auto n_of = [&](std::size_t i) { return static_cast<std::int64_t>(lines[i].key); };
          while (stop + 1 < end && !unwrapped_jump_hangs(key, n_of(stop))) ++stop;
        }
        found = UnwrappedHang{begin, stop, key, printed_key(key, &command.key), from};
        break;
      }
      case CommandKind::buckets:
        for (std::size_t i = begin; i < end; ++i) {
          if (unwrapped_jump_hangs(lines[i].key, from)) {
            found = UnwrappedHang{begin, i, lines[i].key, lines[i].key_text, from};
            break;
          }
        }
        break;
      case CommandKind::load:
      case CommandKind::moved: {
        // Scans in chunks and stops at the first key that hangs. Every key
        // from 7 up hangs at every n, so only repeats of keys 0..6 prolong
        // the scan.
        const bool moved = command.kind == CommandKind::moved;
        std::size_t next = begin;  // MOVED: the first line not printed yet
        const KeySet& keys = *command.keys;
        constexpr std::uint64_t kChunk = 256;
        for (std::uint64_t first = 0; first < keys.size() && !found; first += kChunk) {
          const std::uint64_t last = std::min(keys.size(), first + kChunk);
          keys.for_each_key(first, last, [&](std::uint64_t value, const Key* key) {
            if (found) return;
            const std::int64_t n = unwrapped_jump_hangs(value, from) ? from : to;
            if (unwrapped_jump_hangs(value, n)) {
              const std::size_t stop = moved ? next : begin;
              found = UnwrappedHang{begin, stop, value, printed_key(value, key), n};
            } else if (moved && lines[next].shape != Shape::moved_total &&
                       lines[next].key == value) {
              ++next;  // keys of one value move alike
            }
          });
        }
        break;
      }
    }
  }
  unwrapped_hang_ = std::move(found);
  return *unwrapped_hang_;
}

const std::vector<Candidate>& Diagnoser::candidates_of(const Algorithm& algorithm) {
  auto found = candidates_.find(algorithm.id);
  if (found == candidates_.end()) {
    found = candidates_.emplace(algorithm.id, candidates_for(algorithm)).first;
  }
  return found->second;
}

void Diagnoser::add(std::vector<Diagnosis>& out, std::string_view id, const std::string& detail) {
  for (Diagnosis& d : out) {
    if (d.id == id) {
      d.detail += "; " + detail;
      return;
    }
  }
  const MistakeInfo* info = find_mistake(id);
  Diagnosis d;
  d.id = std::string(id);
  d.detail = detail;
  if (info) d.explanation = info->explanation, d.fix = info->fix;
  // Keep the catalog's order.
  auto rank = [](std::string_view name) {
    std::size_t r = 0;
    for (const MistakeInfo& m : kMistakes) {
      if (m.id == name) return r;
      ++r;
    }
    return r;
  };
  auto at = std::find_if(out.begin(), out.end(),
                         [&](const Diagnosis& other) { return rank(other.id) > rank(id); });
  out.insert(at, std::move(d));
}

/// "with JavaScript Numbers", "on key 0 (18446744073709551615 through a
/// double)", "at n - 1 = 99", "at from - 1 = 9 and to - 1 = 10", ...
std::string Diagnoser::how(const Candidate& c, const ExpectedLine& e, const Command& command) {
  if (c.id == "key-as-double") {
    const std::uint64_t rounded = key_through_double(e.key);
    std::string text = std::string(command.algorithm->name) + " on key " + decimal(rounded) + " (" +
                       decimal(e.key) + " as a double is ";
    text += rounded == 0 ? "2^64, which wraps to 0)" : decimal(rounded) + ")";
    return text;
  }
  if (c.id == "off-by-one-n") {
    const std::string sign = c.n_shift < 0 ? " - 1 = " : " + 1 = ";
    const std::string name(command.algorithm->name);
    if (command.kind == CommandKind::moved) {
      return name + " at from" + sign + std::to_string(command.from + c.n_shift) + " and to" +
             sign + std::to_string(command.to + c.n_shift);
    }
    if (command.kind == CommandKind::trace) {
      return name + " at n" + (c.n_shift < 0 ? " - 1" : " + 1") + " for every n";
    }
    return name + " at n" + sign + std::to_string(command.n + c.n_shift);
  }
  if (c.id == "other-algorithm" || c.id == "guava-rounding") return c.how.substr(5);  // name
  return std::string(command.algorithm->name) + " " + c.how;
}

void Diagnoser::moved_total(const ExpectedLine& e, const StudentLine& s,
                            std::vector<Diagnosis>& out) {
  const Command& command = expected_.commands[e.command];
  const std::uint64_t total = command.keys->size();
  const std::int64_t counted = e.values[0];
  const std::int64_t count = s.numbers[0];
  if (count == counted || s.numbers[1] != static_cast<std::int64_t>(total)) return;
  // total x |to - from| / max(from, to): total <= 10^9 and |to - from|
  // < 2^31, so the product fits in 64 bits.
  const auto from = static_cast<std::uint64_t>(command.from);
  const auto to = static_cast<std::uint64_t>(command.to);
  const std::uint64_t numerator = total * (from > to ? from - to : to - from);
  const std::uint64_t denominator = std::max(from, to);
  const std::uint64_t truncated = numerator / denominator;
  const std::uint64_t rounded = (2 * numerator + denominator) / (2 * denominator);
  if (count == static_cast<std::int64_t>(truncated) ||
      count == static_cast<std::int64_t>(rounded)) {
    // The estimate with 6 significant digits, as iostream's default prints
    // it (snprintf keeps iostream out of the wasm module).
    char estimate[32];
    std::snprintf(estimate, sizeof estimate, "%.6g",
                  static_cast<double>(numerator) / static_cast<double>(denominator));
    const char* rounding = count == static_cast<std::int64_t>(truncated) && truncated != rounded
                               ? "truncated"
                               : (truncated == rounded ? "rounded or truncated" : "rounded");
    add(out, "moved-estimated",
        decimal(total) + " x |" + decimal(to) + " - " + decimal(from) + "| / " +
            decimal(denominator) + " = " + estimate + ", " + rounding + " to " +
            std::to_string(count) + "; the keys that really move number " + decimal(counted));
  }
  const Algorithm& algorithm = *command.algorithm;
  const std::vector<Candidate>& candidates = candidates_of(algorithm);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    const std::optional<std::uint64_t> moved = moved_count(e.command, i);
    if (moved && static_cast<std::int64_t>(*moved) == count) {
      std::string what = how(c, e, command);
      if (c.id == "key-as-double") {
        what = std::string(algorithm.name) + " on the keys through a double";
      }
      add(out, c.id, what + " moves " + decimal(*moved) + " of " + decimal(total) + " keys");
    }
  }
}

/// How many keys of the MOVED command's key set the candidate moves, or
/// nothing when the set exceeds kMaxDiagnosedMovedKeys or n +/- 1 is out
/// of range.
std::optional<std::uint64_t> Diagnoser::moved_count(std::size_t command_index,
                                                    std::size_t candidate_index) {
  const auto slot = std::make_pair(command_index, candidate_index);
  auto found = moved_counts_.find(slot);
  if (found != moved_counts_.end()) return found->second;
  const Command& command = expected_.commands[command_index];
  const Candidate& c = candidates_of(*command.algorithm)[candidate_index];
  std::optional<std::uint64_t> result;
  if (command.keys->size() <= kMaxDiagnosedMovedKeys) {
    std::uint64_t moved = 0;
    bool valid = true;
    command.keys->for_each([&](std::uint64_t key, const std::string* label) {
      if (!valid) return;
      const std::int32_t a = c.bucket(key, label == nullptr, command.from);
      const std::int32_t b = c.bucket(key, label == nullptr, command.to);
      if (a < 0 || b < 0) valid = false;
      if (a != b) ++moved;
    });
    if (valid) result = moved;
  }
  moved_counts_.emplace(slot, result);
  return result;
}

/// The candidate's TRACE of the command's key up to its max, or nothing
/// when it cannot be computed (modulo above kMaxModuloTrace).
const std::optional<std::vector<TraceStep>>& Diagnoser::trace_of(std::size_t command_index,
                                                                 std::size_t candidate_index) {
  const auto slot = std::make_pair(command_index, candidate_index);
  auto found = traces_.find(slot);
  if (found != traces_.end()) return found->second;
  const Command& command = expected_.commands[command_index];
  const Candidate& c = candidates_of(*command.algorithm)[candidate_index];
  const std::uint64_t key = command.key.value;
  const bool numeric = command.key.label.empty();
  std::optional<std::vector<TraceStep>> steps;
  if (c.n_shift != 0) {
    // The trace of n -> bucket(key, n + shift) for n in 1..max: the right
    // trace over 1+shift..max+shift, moved by -shift. At n = 1 with shift
    // -1 the loop runs for 0 buckets and returns b = -1.
    const std::int64_t shift = c.n_shift;
    Result<std::vector<TraceStep>> right =
        command.n + shift >= 1 ? trace_key(*command.algorithm, key, command.n + shift)
                               : Result<std::vector<TraceStep>>(std::vector<TraceStep>{});
    if (right) {
      std::vector<TraceStep> moved;
      if (shift < 0) moved.push_back({1, -1});
      for (const TraceStep& step : *right) {
        if (step.n - shift >= 1) moved.push_back({step.n - shift, step.bucket});
      }
      if (shift > 0 && (moved.empty() || moved.front().n != 1)) {
        moved.insert(moved.begin(), {1, command.algorithm->function(key, 2)});
      }
      steps = std::move(moved);
    }
  } else if (c.monotone) {
    // As trace_key does: the bucket below b is the bucket at n = b.
    std::vector<TraceStep> walk;
    std::int32_t b = c.bucket(key, numeric, command.n);
    walk.push_back({std::int64_t{b} + 1, b});
    while (b > 0) {
      b = c.bucket(key, numeric, b);
      walk.push_back({std::int64_t{b} + 1, b});
    }
    std::reverse(walk.begin(), walk.end());
    steps = std::move(walk);
  } else if (command.n <= kMaxModuloTrace) {
    std::vector<TraceStep> scan;
    std::int32_t previous = -1;
    for (std::int32_t n = 1; n <= command.n; ++n) {
      const std::int32_t b = c.bucket(key, numeric, n);
      if (b != previous) scan.push_back({n, b});
      previous = b;
    }
    steps = std::move(scan);
  }
  return traces_.emplace(slot, std::move(steps)).first->second;
}

void Diagnoser::trace_step(const ExpectedLine& e, std::uint64_t n, std::int64_t bucket,
                           std::vector<Diagnosis>& out) {
  const Command& command = expected_.commands[e.command];
  const std::vector<Candidate>& candidates = candidates_of(*command.algorithm);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    if (c.id == "key-as-double" && (!command.key.label.empty() ||
                                    key_through_double(command.key.value) == command.key.value)) {
      continue;
    }
    const std::optional<std::vector<TraceStep>>& steps = trace_of(e.command, i);
    if (!steps) continue;
    const bool has = std::any_of(steps->begin(), steps->end(), [&](const TraceStep& step) {
      return static_cast<std::uint64_t>(step.n) == n && step.bucket == bucket;
    });
    if (!has) continue;
    ExpectedLine keyed = e;
    keyed.key = command.key.value;
    add(out, c.id,
        how(c, keyed, command) + " has the step " + decimal(n) + ": " + signed_decimal(bucket));
  }
}

// ---------------------------------------------------------------------------
// Node lists.

namespace {

/// The first node removed from the middle of the list in `history` (so that
/// indexing the list, servers[bucket(key, count)], renumbers every node
/// after it), or nothing.
std::optional<std::string> renumbering_removal(const NodeHistory& history) {
  std::vector<std::string_view> names;
  names.reserve(history.listed.size());
  for (const Node& node : history.listed) names.push_back(node.name);
  for (const NodeEdit& edit : history.edits) {
    if (edit.kind == NodeEdit::Kind::add) {
      names.push_back(edit.node.name);
    } else if (edit.kind == NodeEdit::Kind::remove) {
      auto at = std::find(names.begin(), names.end(), edit.node.name);
      if (at == names.end()) continue;
      if (at + 1 != names.end()) return edit.node.name;
      names.erase(at);
    }
  }
  return std::nullopt;
}

/// "servers[jump(key, 9)]".
std::string indexing(const Algorithm& algorithm, std::size_t size) {
  return "servers[" + std::string(algorithm.name) + "(key, " + decimal(size) + ")]";
}

}  // namespace

const Node* Placer::locate(std::uint64_t value, const Key* key) const {
  if (cluster) return &cluster->nodes()[cluster->locate(value, key)];
  const std::int32_t b = bucket(value, key == nullptr, static_cast<std::int64_t>(indexed->size()));
  if (b < 0 || static_cast<std::size_t>(b) >= indexed->size()) return nullptr;
  return &(*indexed)[static_cast<std::size_t>(b)];
}

/// Appends the candidates' note (why the list is renumbered) once to the
/// diagnosis it explains.
static void add_notes(std::vector<Diagnosis>& out, const std::vector<NodeCandidate>& candidates) {
  for (Diagnosis& d : out) {
    for (const NodeCandidate& c : candidates) {
      if (c.id == d.id && !c.note.empty()) {
        d.detail += " (" + c.note + ")";
        break;
      }
    }
  }
}

std::shared_ptr<const Cluster> Diagnoser::build(const Algorithm& algorithm,
                                                const std::shared_ptr<const NodeHistory>& history) {
  const auto slot = std::make_pair(history.get(), algorithm.id);
  auto found = clusters_.find(slot);
  if (found != clusters_.end()) return found->second;
  const OptionValues options = OptionValues::defaults(algorithm.options);
  std::shared_ptr<const Cluster> result;
  // As the interpreter builds a cluster: memento replays the edits.
  Result<Cluster> built = Cluster::create(
      algorithm, options, algorithm.keeps_history ? history->listed : history->nodes);
  bool ok = built.ok();
  if (ok && algorithm.keeps_history) {
    for (const NodeEdit& edit : history->edits) ok = ok && built.value().apply(edit).ok();
  }
  if (ok) result = std::make_shared<const Cluster>(std::move(built).value());
  clusters_.emplace(slot, result);
  return result;
}

const std::vector<NodeCandidate>& Diagnoser::node_candidates_of(std::size_t command_index) {
  auto found = node_candidates_.find(command_index);
  if (found != node_candidates_.end()) return found->second;
  const Command& command = expected_.commands[command_index];
  const OutputContext& context = *command.context;
  const Algorithm& algorithm = *command.algorithm;
  const bool moved = context.after != nullptr;
  const NodeList& before_nodes = context.history->nodes;
  const NodeList* after_nodes = moved ? &context.after_history->nodes : nullptr;
  std::vector<NodeCandidate> out;

  // A bucket-count algorithm indexes the list: its variants do too.
  if (algorithm.kind == AlgorithmKind::bucket_count) {
    for (const Candidate& c : candidates_of(algorithm)) {
      NodeCandidate candidate;
      candidate.id = c.id;
      candidate.what = c.id == "other-algorithm" || c.id == "guava-rounding"
                           ? c.how.substr(5)
                           : std::string(algorithm.name) + " " + c.how;
      candidate.what += " indexing the list";
      candidate.before = Placer{nullptr, c.bucket, &before_nodes};
      if (moved) candidate.after = Placer{nullptr, c.bucket, after_nodes};
      out.push_back(std::move(candidate));
    }
  }
  // Every other node-set algorithm, with its default options.
  for (const Algorithm& other : algorithms()) {
    if (other.kind != AlgorithmKind::node_set || other.id == algorithm.id) continue;
    NodeCandidate candidate;
    candidate.id = "other-algorithm";
    candidate.what = std::string(other.name);
    candidate.before.cluster = build(other, context.history);
    if (!candidate.before.cluster) continue;
    if (moved) {
      candidate.after.cluster = build(other, context.after_history);
      if (!candidate.after.cluster) continue;
    }
    out.push_back(std::move(candidate));
  }
  // A node-set algorithm replaced by servers[bucket(key, count)]: after a
  // removal in the middle, the articles' pitfall.
  if (algorithm.kind == AlgorithmKind::node_set) {
    const std::optional<std::string> removed =
        renumbering_removal(moved ? *context.after_history : *context.history);
    for (const Algorithm& other : bucket_count_algorithms()) {
      if (other.id == AlgorithmId::jump_guava) continue;  // jump's twin but on 1 key in 10^7
      NodeCandidate candidate;
      candidate.id = removed ? "index-renumbering" : "other-algorithm";
      candidate.what = indexing(other, before_nodes.size());
      if (moved) candidate.what += " then " + indexing(other, after_nodes->size());
      if (removed) {
        candidate.note =
            "after removing " + node_token(*removed) + ", every server after it has a new index";
      }
      candidate.before.cluster = build(other, context.history);
      if (moved) candidate.after.cluster = build(other, context.after_history);
      out.push_back(std::move(candidate));
    }
  }
  return node_candidates_.emplace(command_index, std::move(out)).first->second;
}

std::optional<std::uint64_t> Diagnoser::node_moved_count(std::size_t command_index,
                                                         std::size_t candidate_index) {
  const auto slot = std::make_pair(command_index, candidate_index);
  auto found = moved_counts_.find(slot);
  if (found != moved_counts_.end()) return found->second;
  const Command& command = expected_.commands[command_index];
  const NodeCandidate& c = node_candidates_of(command_index)[candidate_index];
  std::optional<std::uint64_t> result;
  if (command.keys->size() <= kMaxDiagnosedMovedKeys) {
    std::uint64_t moved = 0;
    bool valid = true;
    command.keys->for_each_key(0, command.keys->size(), [&](std::uint64_t value, const Key* key) {
      if (!valid) return;
      const Node* old_node = c.before.locate(value, key);
      const Node* new_node = c.after.locate(value, key);
      if (!old_node || !new_node) {
        valid = false;
      } else if (old_node->name != new_node->name) {
        ++moved;
      }
    });
    if (valid) result = moved;
  }
  moved_counts_.emplace(slot, result);
  return result;
}

const std::optional<std::unordered_map<std::string, std::uint64_t>>& Diagnoser::node_loads(
    std::size_t command_index, std::size_t candidate_index) {
  const auto slot = std::make_pair(command_index, candidate_index);
  auto found = node_loads_.find(slot);
  if (found != node_loads_.end()) return found->second;
  const Command& command = expected_.commands[command_index];
  const NodeCandidate& c = node_candidates_of(command_index)[candidate_index];
  std::optional<std::unordered_map<std::string, std::uint64_t>> result;
  if (command.keys->size() <= kMaxDiagnosedMovedKeys) {
    std::unordered_map<std::string, std::uint64_t> loads;
    const NodeList& nodes = c.before.cluster ? c.before.cluster->nodes() : *c.before.indexed;
    for (const Node& node : nodes) loads.emplace(node.name, 0);
    bool valid = true;
    command.keys->for_each_key(0, command.keys->size(), [&](std::uint64_t value, const Key* key) {
      const Node* node = c.before.locate(value, key);
      if (node) {
        ++loads[node->name];
      } else {
        valid = false;
      }
    });
    if (valid) result = std::move(loads);
  }
  return node_loads_.emplace(slot, std::move(result)).first->second;
}

void Diagnoser::node_wrong_value(const ExpectedLine& e, const StudentLine& s,
                                 const std::vector<const StudentLine*>& block,
                                 std::vector<Diagnosis>& out) {
  const std::vector<NodeCandidate>& candidates = node_candidates_of(e.command);
  Key scratch;
  const Key* key = e.string_key(scratch);
  switch (e.shape) {
    case Shape::key_node: {
      if (s.key_text != e.key_text || s.node_names.size() != 1) break;
      for (const NodeCandidate& c : candidates) {
        const Node* node = c.before.locate(e.key, key);
        if (node && node->name == s.node_names[0] && node->name != e.names[0]) {
          add(out, c.id, c.what + " gives " + node->name);
        }
      }
      break;
    }
    case Shape::node_move: {
      if (s.key_text != e.key_text || s.node_names.size() != 2) break;
      for (const NodeCandidate& c : candidates) {
        const Node* old_node = c.before.locate(e.key, key);
        const Node* new_node = c.after.locate(e.key, key);
        if (old_node && new_node && old_node->name == s.node_names[0] &&
            new_node->name == s.node_names[1] && s.node_names != e.names) {
          add(out, c.id, c.what + " gives " + old_node->name + " -> " + new_node->name);
        }
      }
      break;
    }
    case Shape::moved_total: {
      if (s.key_text != "moved" || !s.numbers_ok || s.numbers.size() != 2) break;
      const std::uint64_t total = expected_.commands[e.command].keys->size();
      if (s.numbers[0] == e.values[0] || s.numbers[1] != static_cast<std::int64_t>(total)) break;
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::optional<std::uint64_t> moved = node_moved_count(e.command, i);
        if (moved && static_cast<std::int64_t>(*moved) == s.numbers[0]) {
          add(out, candidates[i].id,
              candidates[i].what + " moves " + decimal(*moved) + " of " + decimal(total) + " keys");
        }
      }
      break;
    }
    case Shape::node_load: {
      if (s.load_canonical.empty() || s.load_name != e.key_text) break;
      // A variant explains the line when it gives this count and every count
      // of the block's LOAD lines that name a node (one count could agree
      // by chance).
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        const auto& loads = node_loads(e.command, i);
        if (!loads) continue;
        auto count_of = [&](const StudentLine& line) -> std::optional<std::string> {
          auto at = loads->find(line.load_name);
          if (at == loads->end()) return std::nullopt;
          return decimal(at->second);
        };
        auto agrees = [&](const StudentLine& line) {
          if (line.load_canonical.empty()) return true;
          const std::optional<std::string> count = count_of(line);
          return !count || line.load_canonical == "L" + line.load_name + "|" + *count;
        };
        if (!count_of(s) || !agrees(s)) continue;
        if (!std::all_of(block.begin(), block.end(),
                         [&](const StudentLine* line) { return agrees(*line); })) {
          continue;
        }
        add(out, candidates[i].id,
            candidates[i].what + " counts " + *count_of(s) + " on " + e.key_text +
                " and every other count of this LOAD as printed");
      }
      break;
    }
    case Shape::key_bucket:  // bucket lines: not on node lists
    case Shape::key_move:
    case Shape::load:
    case Shape::trace:
      break;
  }
  add_notes(out, candidates);
}

void Diagnoser::node_missing_move(const ExpectedLine& e,
                                  const std::vector<const StudentLine*>& block,
                                  std::vector<Diagnosis>& out) {
  std::optional<std::int64_t> student_count;
  for (const StudentLine* s : block) {
    if (s->key_text == "moved" && s->numbers_ok && s->numbers.size() == 2) {
      student_count = s->numbers[0];
    }
  }
  if (!student_count) return;
  const std::vector<NodeCandidate>& candidates = node_candidates_of(e.command);
  Key scratch;
  const Key* key = e.string_key(scratch);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const NodeCandidate& c = candidates[i];
    const Node* old_node = c.before.locate(e.key, key);
    const Node* new_node = c.after.locate(e.key, key);
    if (!old_node || !new_node || old_node->name != new_node->name) continue;
    const std::optional<std::uint64_t> moved = node_moved_count(e.command, i);
    if (!moved || static_cast<std::int64_t>(*moved) != *student_count) continue;
    add(out, c.id,
        c.what + ", the key stays on " + old_node->name + " and " + decimal(*moved) +
            " keys move, as the output says");
  }
  add_notes(out, candidates);
}

void Diagnoser::node_extra_move(const ExpectedLine& previous, const StudentLine& s,
                                std::vector<Diagnosis>& out) {
  Result<Key> key = parse_key(s.key_token);
  if (!key) return;
  const Key* written = key->label.empty() ? nullptr : &*key;
  const std::vector<NodeCandidate>& candidates = node_candidates_of(previous.command);
  for (const NodeCandidate& c : candidates) {
    const Node* old_node = c.before.locate(key->value, written);
    const Node* new_node = c.after.locate(key->value, written);
    if (old_node && new_node && old_node->name != new_node->name &&
        old_node->name == s.node_names[0] && new_node->name == s.node_names[1]) {
      add(out, c.id, c.what + ", the key moves " + old_node->name + " -> " + new_node->name);
    }
  }
  add_notes(out, candidates);
}

}  // namespace jumphash::checker_detail
