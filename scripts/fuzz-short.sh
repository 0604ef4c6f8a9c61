#!/usr/bin/env bash
# Short fuzzing, one of `npm test`'s steps (README, "Fuzzing"): builds the
# libFuzzer targets of tests/fuzz with clang (-DJUMPHASH_FUZZ=ON:
# -fsanitize=fuzzer,address,undefined) and fuzzes each one for a bounded
# time, starting from a temporary copy of its corpus in tests/fuzz/corpus/,
# so that nothing new is ever written into the repository.
#
#   bash scripts/fuzz-short.sh [TARGET...]     TARGET: keys, interpreter, checker (default: all)
#
#   JUMPHASH_FUZZ_SECONDS    seconds of fuzzing per target, 1-3600 (default 25)
#   JUMPHASH_FUZZ_BUILD_DIR  build directory (default build/fuzz-short)
#
# Each target is one test. It passes when libFuzzer ends its time with no
# crash, sanitizer report, leak, timeout (-timeout=10: one input running
# 10 s) or memory overrun (-rss_limit_mb=2048). libFuzzer's random generator
# starts at the same value every run, so a run repeats the same inputs as far
# as it gets. A failure prints the end of libFuzzer's report (the stack), the
# input that caused it (kept in <build>/fuzz-findings/<target>/) and the
# command that replays it. The last line is
# "fuzz targets: N passed, N failed"; exit status 1 when one failed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=${JUMPHASH_FUZZ_SECONDS:-25}
build=${JUMPHASH_FUZZ_BUILD_DIR:-$root/build/fuzz-short}
[[ $build = /* ]] || build="$root/$build"
all_targets=(keys interpreter checker)
if (($#)); then targets=("$@"); else targets=("${all_targets[@]}"); fi
random_start=1          # libFuzzer's -seed: fixed, so that runs are repeatable
total_limit=$((seconds + 300))  # outer bound: loading the corpus, leak check at exit

if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1 || seconds > 3600)); then
  echo "error: JUMPHASH_FUZZ_SECONDS must be a whole number of seconds from 1 to 3600, got '$seconds'" >&2
  exit 2
fi
for target in "${targets[@]}"; do
  if [[ ! -d $root/tests/fuzz/corpus/$target ]]; then
    echo "error: unknown fuzz target '$target'; the targets are: ${all_targets[*]}" >&2
    exit 2
  fi
done

passed=0 failed=0
summary() { echo "fuzz targets: $passed passed, $failed failed"; ((failed == 0)); }

# Build. If it fails, every target counts as failed (none could run).
if ! command -v clang++ >/dev/null; then
  echo "error: clang++ is missing; the fuzz targets need clang and libFuzzer" >&2
  echo "       (Debian 12: apt-get install clang libclang-rt-14-dev, as scripts/setup.sh does)" >&2
  failed=${#targets[@]}
  summary || exit 1
fi
echo "building ${targets[*]/%/_fuzz} in ${build#$root/} (clang, -fsanitize=fuzzer,address,undefined)"
binaries=("${targets[@]/%/_fuzz}")
build_start=$SECONDS
if ! { cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DJUMPHASH_FUZZ=ON -DJUMPHASH_WERROR=ON -DJUMPHASH_BUILD_BENCHMARKS=OFF >/dev/null &&
       cmake --build "$build" -j2 --target "${binaries[@]}"; }; then
  echo "error: building the fuzz targets failed (see above)" >&2
  failed=${#targets[@]}
  summary || exit 1
fi
echo "built in $((SECONDS - build_start)) s"

# report LOG: the sanitizer's or libFuzzer's report in LOG, from its first
# error line on, without ASan's shadow-memory map; the log's last 40 lines
# when it has no such line. At most 120 lines.
report() {
  if grep -qE '==[0-9]+==(ERROR|WARNING)|ERROR: libFuzzer|runtime error:' "$1"; then
    awk '/==[0-9]+==(ERROR|WARNING)|ERROR: libFuzzer|runtime error:/ { on = 1 }
         /^Shadow bytes around the buggy address/ { skip = 1 }
         /==[0-9]+==ABORTING/ { skip = 0 }
         on && !skip' "$1" | head -n 120
  else
    tail -n 40 "$1"
  fi
}

findings="$build/fuzz-findings"
logs="$build/fuzz-logs"
mkdir -p "$logs"
work=$(mktemp -d "${TMPDIR:-/tmp}/jumphash-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

for target in "${targets[@]}"; do
  binary="$build/tests/fuzz/${target}_fuzz"
  log="$logs/$target.log"
  mkdir -p "$work/$target/artifacts"
  cp -R "$root/tests/fuzz/corpus/$target" "$work/$target/corpus"
  echo "fuzzing ${target}_fuzz for $seconds s from $(ls "$work/$target/corpus" | wc -l) corpus inputs (log: ${log#$root/})"
  status=0
  # Run inside the temporary directory: libFuzzer writes new inputs to the
  # corpus copy and reproducers to artifacts/, never into the repository.
  (cd "$work/$target" &&
   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
   timeout --kill-after=10 "$total_limit" "$binary" -seed="$random_start" \
     -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
     -print_final_stats=1 -artifact_prefix="$work/$target/artifacts/" corpus) >"$log" 2>&1 ||
    status=$?

  reproducers=()
  for artifact in "$work/$target/artifacts"/{crash,leak,timeout,oom}-*; do
    [[ -e $artifact ]] || continue
    mkdir -p "$findings/$target"
    cp "$artifact" "$findings/$target/"
    reproducers+=("$findings/$target/$(basename "$artifact")")
  done

  if ((status == 0 && ${#reproducers[@]} == 0)); then
    runs=$(grep -oE "^stat::number_of_executed_units: +[0-9]+" "$log" | grep -oE '[0-9]+$' || echo "?")
    rss=$(grep -oE "^stat::peak_rss_mb: +[0-9]+" "$log" | grep -oE '[0-9]+$' || echo "?")
    corpus_after=$(ls "$work/$target/corpus" | wc -l)
    echo "PASS ${target}_fuzz: $runs inputs in $seconds s, corpus grew to $corpus_after inputs, peak memory $rss MB"
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL ${target}_fuzz (exit status $status)"
    if ((status == 124 || status == 137)); then
      echo "  libFuzzer did not stop within $total_limit s and was killed"
    fi
    echo "  ---- libFuzzer's report (whole log: ${log#$root/})"
    report "$log" | sed 's/^/  | /'
    if ((${#reproducers[@]})); then
      for reproducer in "${reproducers[@]}"; do
        echo "  reproducer: ${reproducer#$root/}"
        echo "  replay it:  (cd $root && UBSAN_OPTIONS=print_stacktrace=1 ${binary#$root/} -timeout=10 -rss_limit_mb=2048 ${reproducer#$root/})"
      done
      echo "  Once fixed, add it to tests/fuzz/corpus/$target/ as regression_<what>, so that every build replays it."
    else
      echo "  no reproducer was written; rerun: (cd $root && JUMPHASH_FUZZ_SECONDS=$seconds bash scripts/fuzz-short.sh $target)"
    fi
  fi
done

summary
