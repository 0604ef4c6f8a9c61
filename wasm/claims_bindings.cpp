// Embind registrations of the articles' claims (jumphash/claims.hpp), a
// module of its own so that only the page's Claims view downloads it: the
// catalogue, its variants (the 1000-point ring, the key-as-V shortcut,
// two-level routing) and its measurements are not needed anywhere else.
// Loaded by loadClaims() in src/index.js.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <string>
#include <utility>
#include <vector>

#include "jumphash/claims.hpp"
#include "jumphash/version.hpp"

namespace jumphash::wasm {
namespace {

/// One claim of the catalogue, as plain strings for JavaScript.
struct ClaimRow {
  std::string id, statement, source, published, method, tolerance;
  std::string kind;  ///< claim_kind_name: "deterministic", "statistical", "timing"
};

/// One series of a chart: x and y as arrays of doubles of equal length.
struct SeriesRow {
  std::string name;
  std::vector<double> x, y;
};

/// A claim's chart; `present` is false when the claim has none.
struct ChartRow {
  bool present = false;
  std::string title, x_label, y_label;
  bool step = false, log_x = false;
  std::vector<SeriesRow> series;
};

/// run_claim's result, or `error` (an unknown id) with the rest empty.
struct RunRow {
  std::string error;
  std::string id, measured;
  std::string verdict;  ///< claim_verdict_name: "reproduced", "differs", "measured-only"
  double milliseconds = 0;
  ChartRow chart;
};

ClaimRow row_of(const Claim& claim) {
  return {std::string(claim.id),        std::string(claim.statement),
          std::string(claim.source),    std::string(claim.published),
          std::string(claim.method),    std::string(claim.tolerance),
          std::string(claim_kind_name(claim.kind))};
}

std::vector<ClaimRow> list() {
  std::vector<ClaimRow> rows;
  for (const Claim& claim : claims()) rows.push_back(row_of(claim));
  return rows;
}

/// Runs the claim called `id`; an unknown id comes back as `error` (which
/// names the id and lists every known one).
RunRow run(const std::string& id) {
  RunRow row;
  Result<const Claim*> claim = find_claim(id);
  if (!claim) {
    row.error = claim.error();
    return row;
  }
  const double start = emscripten_get_now();
  ClaimResult result = run_claim(**claim);
  row.milliseconds = emscripten_get_now() - start;
  row.id = id;
  row.measured = std::move(result.measured);
  row.verdict = std::string(claim_verdict_name(result.verdict));
  if (result.chart) {
    ChartRow& chart = row.chart;
    chart.present = true;
    chart.title = std::move(result.chart->title);
    chart.x_label = std::move(result.chart->x_label);
    chart.y_label = std::move(result.chart->y_label);
    chart.step = result.chart->step;
    chart.log_x = result.chart->log_x;
    for (ClaimSeries& s : result.chart->series) {
      chart.series.push_back({std::move(s.name), std::move(s.x), std::move(s.y)});
    }
  }
  return row;
}

std::string version() { return kVersion; }

}  // namespace
}  // namespace jumphash::wasm

EMSCRIPTEN_BINDINGS(jumphash_claims) {
  using namespace emscripten;
  using namespace jumphash::wasm;

  value_object<ClaimRow>("ClaimRow")
      .field("id", &ClaimRow::id)
      .field("statement", &ClaimRow::statement)
      .field("source", &ClaimRow::source)
      .field("published", &ClaimRow::published)
      .field("method", &ClaimRow::method)
      .field("tolerance", &ClaimRow::tolerance)
      .field("kind", &ClaimRow::kind);
  register_vector<ClaimRow>("ClaimRows");
  register_vector<double>("Doubles");
  value_object<SeriesRow>("SeriesRow")
      .field("name", &SeriesRow::name)
      .field("x", &SeriesRow::x)
      .field("y", &SeriesRow::y);
  register_vector<SeriesRow>("SeriesRows");
  value_object<ChartRow>("ChartRow")
      .field("present", &ChartRow::present)
      .field("title", &ChartRow::title)
      .field("xLabel", &ChartRow::x_label)
      .field("yLabel", &ChartRow::y_label)
      .field("step", &ChartRow::step)
      .field("logX", &ChartRow::log_x)
      .field("series", &ChartRow::series);
  value_object<RunRow>("RunRow")
      .field("error", &RunRow::error)
      .field("id", &RunRow::id)
      .field("measured", &RunRow::measured)
      .field("verdict", &RunRow::verdict)
      .field("milliseconds", &RunRow::milliseconds)
      .field("chart", &RunRow::chart);
  function("list", &list);
  function("run", &run);
  function("version", &version);
}
