// The articles' claims, re-measured on this core: a catalogue of checkable
// statements (a jump table, a moved fraction, a chi-square, a memory figure,
// a speed ratio), each with its source, the published value, how it is
// measured here, the tolerance, and a run that returns the measured value and
// a verdict.
//
// Run by `jumphash reproduce [ID...]`; a binding lists claims() and runs one
// by id with run_claim(). Every claim runs in about 2 s or less natively
// (smaller sizes than the article where needed, said in `method`).
// The variants that only a claim needs (the paper's 1000-point ring, the
// key-as-V shortcut, two-level routing, a salted second level) live beside
// the claims in src/claims/, not in the algorithm registry.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/result.hpp"

namespace jumphash {

/// What kind of number a claim is about, which decides how it is judged:
///  - deterministic: an exact value (a table, a count over a fixed key list);
///    it either equals the published value or it differs. `jumphash
///    reproduce` exits 1 when one differs.
///  - statistical: measured on a fixed list of keys and judged with a stated
///    tolerance (a number of standard deviations, a chi-square bound).
///  - timing: measured as ratios within one run on this machine (published
///    times come from the article's machine); never asserted in tests.
enum class ClaimKind { deterministic, statistical, timing };

/// "deterministic", "statistical" or "timing".
std::string_view claim_kind_name(ClaimKind kind);

/// The outcome of one run:
///  - reproduced: the measured value is within the claim's tolerance;
///  - differs: it is not (the measured value says by how much);
///  - measured_only: a timing table whose published values are absolute
///    times on another machine; the ratios are shown, not judged.
enum class ClaimVerdict { reproduced, differs, measured_only };

/// "reproduced", "differs" or "measured-only".
std::string_view claim_verdict_name(ClaimVerdict verdict);

/// One named series of a chart: points (x[i], y[i]).
struct ClaimSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
};

/// Data for a chart where a curve says more than a number; the page draws it.
struct ClaimChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool step = false;   ///< draw as a step function (a key's jump history)
  bool log_x = false;  ///< x spans orders of magnitude
  std::vector<ClaimSeries> series;
};

/// The result of running one claim.
struct ClaimResult {
  std::string measured;  ///< the measured value(s) in words, comparable with `published`
  ClaimVerdict verdict = ClaimVerdict::differs;
  std::optional<ClaimChart> chart;
};

/// One claim of the catalogue. All text is plain ASCII or UTF-8, one line.
struct Claim {
  std::string_view id;         ///< stable, lower-case words joined by '-'
  std::string_view statement;  ///< what the source says, in one sentence
  std::string_view source;     ///< title and authors of the paper or article
  std::string_view published;  ///< the value(s) as published, with their context
  std::string_view method;     ///< how it is measured here (keys, sizes, variants)
  std::string_view tolerance;  ///< what counts as reproduced
  ClaimKind kind;
  ClaimResult (*run)();  ///< measures it (use run_claim)
};

/// The catalogue, in a stable order (the order of the sources' statements).
std::span<const Claim> claims();

/// The claim called `id` (exact, case-sensitive), or an Error naming the id
/// and listing every known id.
Result<const Claim*> find_claim(std::string_view id);

/// Every id, comma-separated, in catalogue order.
std::string claim_ids();

/// Runs one claim and returns what it measured and the verdict. Takes up to
/// about 2 s natively; timing claims measure ratios of loops in this process.
ClaimResult run_claim(const Claim& claim);

/// One claim with its result, as the renderers take them.
struct ClaimRun {
  const Claim* claim;
  ClaimResult result;
};

/// One claim's block of the text table: a row "<id> <kind> <verdict>" in
/// aligned columns, then indented lines claim, source, published, measured,
/// method and tolerance, then an empty line.
std::string render_claim_block(const ClaimRun& run);

/// The table's last line: "<N> claims: <N> reproduced, <N> differ, <N>
/// measured only".
std::string render_claims_summary(std::span<const ClaimRun> runs);

/// The text table of `jumphash reproduce`: every block, then the summary.
std::string render_claims_table(std::span<const ClaimRun> runs);

/// The JSON of `jumphash reproduce --json`: {"claims": [{id, statement,
/// source, published, method, tolerance, kind, measured, verdict, chart}],
/// "summary": {"reproduced", "differs", "measured_only"}}; chart is null when
/// the claim has none. Ends with a newline.
std::string render_claims_json(std::span<const ClaimRun> runs);

}  // namespace jumphash
