// The text table and the JSON of `jumphash reproduce`; see jumphash/claims.hpp.
#include <charconv>
#include <cmath>
#include <string>

#include "jumphash/claims.hpp"

namespace jumphash {

namespace {

struct Counts {
  std::size_t reproduced = 0, differs = 0, measured_only = 0;
};

Counts count_verdicts(std::span<const ClaimRun> runs) {
  Counts counts;
  for (const ClaimRun& run : runs) {
    switch (run.result.verdict) {
      case ClaimVerdict::reproduced:
        ++counts.reproduced;
        break;
      case ClaimVerdict::differs:
        ++counts.differs;
        break;
      case ClaimVerdict::measured_only:
        ++counts.measured_only;
        break;
    }
  }
  return counts;
}

void pad_to(std::string& text, std::size_t width) {
  if (text.size() < width)
    text.resize(width, ' ');
  else
    text += ' ';
}

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char* const kHex = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

/// A number in its shortest round-trip form; null for NaN and infinities.
void append_json_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, error == std::errc{} ? end : buffer);
}

void append_json_numbers(std::string& out, const std::vector<double>& values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out += ", ";
    append_json_number(out, values[i]);
  }
  out += ']';
}

void append_field(std::string& out, std::string_view indent, std::string_view name,
                  std::string_view value, bool last = false) {
  out += indent;
  append_json_string(out, name);
  out += ": ";
  append_json_string(out, value);
  out += last ? "\n" : ",\n";
}

void append_chart(std::string& out, const ClaimChart& chart) {
  out += "{\n";
  append_field(out, "        ", "title", chart.title);
  append_field(out, "        ", "x_label", chart.x_label);
  append_field(out, "        ", "y_label", chart.y_label);
  out += std::string("        \"step\": ") + (chart.step ? "true" : "false") + ",\n";
  out += std::string("        \"log_x\": ") + (chart.log_x ? "true" : "false") + ",\n";
  out += "        \"series\": [";
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ClaimSeries& series = chart.series[i];
    out += i == 0 ? "\n" : ",\n";
    out += "          {\"name\": ";
    append_json_string(out, series.name);
    out += ", \"x\": ";
    append_json_numbers(out, series.x);
    out += ", \"y\": ";
    append_json_numbers(out, series.y);
    out += '}';
  }
  out += chart.series.empty() ? "]\n" : "\n        ]\n";
  out += "      }";
}

}  // namespace

std::string render_claim_block(const ClaimRun& run) {
  const Claim& claim = *run.claim;
  std::string row(claim.id);
  pad_to(row, 34);
  row += claim_kind_name(claim.kind);
  pad_to(row, 49);
  row += claim_verdict_name(run.result.verdict);
  std::string out = row + "\n";
  const auto line = [&out](std::string_view label, std::string_view text) {
    out += "  ";
    out += label;
    out += text;
    out += '\n';
  };
  line("claim:     ", claim.statement);
  line("source:    ", claim.source);
  line("published: ", claim.published);
  line("measured:  ", run.result.measured);
  line("method:    ", claim.method);
  line("tolerance: ", claim.tolerance);
  out += '\n';
  return out;
}

std::string render_claims_summary(std::span<const ClaimRun> runs) {
  const Counts counts = count_verdicts(runs);
  return std::to_string(runs.size()) + (runs.size() == 1 ? " claim: " : " claims: ") +
         std::to_string(counts.reproduced) + " reproduced, " + std::to_string(counts.differs) +
         (counts.differs == 1 ? " differs, " : " differ, ") + std::to_string(counts.measured_only) +
         " measured only\n";
}

std::string render_claims_table(std::span<const ClaimRun> runs) {
  std::string out;
  for (const ClaimRun& run : runs) out += render_claim_block(run);
  return out + render_claims_summary(runs);
}

std::string render_claims_json(std::span<const ClaimRun> runs) {
  std::string out = "{\n  \"claims\": [";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Claim& claim = *runs[i].claim;
    const ClaimResult& result = runs[i].result;
    out += i == 0 ? "\n    {\n" : ",\n    {\n";
    const std::string_view indent = "      ";
    append_field(out, indent, "id", claim.id);
    append_field(out, indent, "statement", claim.statement);
    append_field(out, indent, "source", claim.source);
    append_field(out, indent, "published", claim.published);
    append_field(out, indent, "method", claim.method);
    append_field(out, indent, "tolerance", claim.tolerance);
    append_field(out, indent, "kind", claim_kind_name(claim.kind));
    append_field(out, indent, "measured", result.measured);
    append_field(out, indent, "verdict", claim_verdict_name(result.verdict));
    out += "      \"chart\": ";
    if (result.chart) {
      append_chart(out, *result.chart);
    } else {
      out += "null";
    }
    out += "\n    }";
  }
  const Counts counts = count_verdicts(runs);
  out += runs.empty() ? "],\n" : "\n  ],\n";
  out += "  \"summary\": {\"reproduced\": " + std::to_string(counts.reproduced) +
         ", \"differs\": " + std::to_string(counts.differs) +
         ", \"measured_only\": " + std::to_string(counts.measured_only) + "}\n}\n";
  return out;
}

}  // namespace jumphash
