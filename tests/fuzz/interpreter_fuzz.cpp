// Fuzz target: the command interpreter. The input is a whole script, run by
// run_script under a work budget (fuzz_support.hpp) so that a script over
// 10^9 keys ends at once with the budget's error (scripts that ask for a
// placement table above 65537 slots are skipped, see fuzz_support.hpp).
// Properties: nothing crashes, the exit status is 0 or 1 and says whether
// an error line was written, every error line is printable, and the output
// stays within the budget.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "jumphash/interpreter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace jumphash;
  const std::string_view script(reinterpret_cast<const char*>(data), size);
  if (fuzz::asks_for_huge_placement(script)) return 0;
  const ScriptOutput output = run_script(script, fuzz::kFuzzBudget);
  fuzz::check_printable(output.stderr_text, /*lines=*/true);
  if (output.exit_code != (output.stderr_text.empty() ? 0 : 1)) {
    fuzz::property_failed("exit status disagrees with the error lines", output.stderr_text);
  }
  if (output.stdout_text.size() > fuzz::kFuzzBudget.max_output_bytes) {
    fuzz::property_failed("output passed the budget", script);
  }
  if (!output.stdout_text.empty() && output.stdout_text.back() != '\n') {
    fuzz::property_failed("output ends inside a line", script);
  }
  return 0;
}
