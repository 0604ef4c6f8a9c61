#!/usr/bin/env bash
# `npm test`: builds everything and runs every test suite, then prints one
# closing line adding them all up: "N passed, N failed".
#
#   1. native: configure (preset ci: -Werror), build, CTest (GoogleTest + CLI transcripts)
#   2. fuzz:   scripts/fuzz-short.sh: each libFuzzer target (clang, ASan and
#              UBSan) fuzzed for 25 s from a temporary copy of its corpus,
#              one test per target
#   3. wasm:   Emscripten build (preset wasm), node's test runner over the package
#   4. web:    unit tests (Vitest), type check, Vite build, size budget,
#              the type check of e2e/ (Playwright strips its types unchecked),
#              Playwright in Debian's Chromium against the built site
#   5. sanitizers: the native build and its whole CTest suite under
#              AddressSanitizer and UndefinedBehaviorSanitizer (preset debug,
#              13-16 minutes here on 2 loaded cores). In CI (CI=true) or with
#              JUMPHASH_SANITIZE=1; JUMPHASH_SANITIZE=0 skips it.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$JUMPHASH_ROOT"

sanitize=${JUMPHASH_SANITIZE:-$([[ ${CI:-} == true ]] && echo 1 || echo 0)}
if [[ $sanitize != [01] ]]; then
  echo "error: JUMPHASH_SANITIZE must be 1 (run the sanitizer build) or 0 (skip it), got '$sanitize'" >&2
  exit 2
fi
ensure_everything

logs="$JUMPHASH_ROOT/build/test-logs"
rm -rf "$logs" && mkdir -p "$logs"
passed=0 failed=0 broken=()

# count SUITE LOG: adds the suite's passed/failed counts from its summary.
count() {
  local suite=$1 p=0 f=0 line log="$2.plain"
  sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$2" > "$log"  # runners may colour even without a TTY
  case $suite in
    ctest)
      line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1 || true)
      if [[ -n $line ]]; then
        f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
        p=$(( $(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line") - f ))
      fi ;;
    node)
      p=$(grep -E '^(# |ℹ )pass [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
      f=$(grep -E '^(# |ℹ )fail [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0) ;;
    vitest)
      line=$(grep -E '^\s*Tests\s+' "$log" | tail -1 || true)
      p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
      f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0) ;;
    fuzz)  # scripts/fuzz-short.sh: one test per fuzz target
      line=$(grep -E '^fuzz targets: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 || true)
      if [[ -n $line ]]; then
        p=$(sed -E 's/^fuzz targets: ([0-9]+) passed.*/\1/' <<<"$line")
        f=$(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$line")
      fi ;;
    playwright)  # a test that passed only on its retry (CI) counts as passed, and is named below
      p=$(grep -E '^\s+[0-9]+ passed' "$log" | tail -1 | grep -oE '[0-9]+' | head -1 || echo 0)
      f=$(grep -E '^\s+[0-9]+ failed' "$log" | tail -1 | grep -oE '[0-9]+' | head -1 || echo 0)
      local flaky
      flaky=$(grep -E '^\s+[0-9]+ flaky' "$log" | tail -1 | grep -oE '[0-9]+' | head -1 || echo 0)
      p=$((${p:-0} + ${flaky:-0})) ;;
  esac
  passed=$((passed + ${p:-0})) failed=$((failed + ${f:-0}))
  echo "-- $suite: ${p:-0} passed, ${f:-0} failed"
}

# run NAME SUITE COMMAND...: runs a step, keeps its log, counts its tests.
run() {
  local name=$1 suite=$2; shift 2
  say "$name"
  local log="$logs/$name.log" status=0
  "$@" 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
  [[ $suite != - ]] && count "$suite" "$log"
  if ((status != 0)); then
    broken+=("$name (exit $status)")
  fi
  return 0
}

run native-build - bash -c 'cmake --preset ci >/dev/null && cmake --build --preset ci -j2'
run native-tests ctest ctest --preset ci -j2
run fuzz-short fuzz bash scripts/fuzz-short.sh
run wasm-build - bash -c 'cmake --preset wasm >/dev/null && cmake --build --preset wasm -j2'
run wasm-tests node npm run --silent test -w wasm
run web-unit-tests vitest npm run --silent test -w web
run web-typecheck - npm run --silent typecheck -w web
run web-build - npm run --silent build -w web
run web-budget - npm run --silent budget -w web
run e2e-typecheck - npx tsc -p e2e
run e2e playwright npx playwright test --config e2e/playwright.config.ts --reporter=list
if ((sanitize)); then
  run sanitizers-build - bash -c 'cmake --preset debug >/dev/null && cmake --build --preset debug -j2'
  run sanitizers-tests ctest ctest --preset debug -j2
else
  say "sanitizers: skipped (CI runs them; JUMPHASH_SANITIZE=1 npm test runs them here)"
fi

# what_failed LOG: the names of the tests that failed (or needed a retry) and
# their first error line, short enough to stay in the last lines CI shows.
what_failed() {
  local log="$1.plain"
  [[ -f $log ]] || return 0
  {
    # Playwright: the closing lists of failed and flaky tests, then each one's first error.
    awk '/^ +[0-9]+ (failed|flaky)$/ {on = 1} /^ +[0-9]+ (passed|skipped|did not run)/ {on = 0} on' "$log"
    awk '/^ +[0-9]+\) / {name = $0; want = 1; next} want && /^ +(Error|TimeoutError|Test timeout)/ {print name; print; want = 0}' "$log"
    # CTest, node's runner, Vitest.
    awk '/The following tests FAILED:/ {on = 1; next} on && /^$/ {on = 0} on' "$log"
    grep -E '^(✖|not ok) ' "$log" | grep -v 'failing tests' || true
    grep -E '^ *(FAIL|×) ' "$log" || true
  } | sed -E 's/ ─+$//' | cut -c1-200 | head -24
}

say "summary"
for step in "${broken[@]}"; do echo "step failed: $step"; done
for log in "$logs"/*.log; do
  if grep -qE '^ +[0-9]+ (failed|flaky)$|The following tests FAILED:|^(✖|not ok) |^ *(FAIL|×) ' "$log.plain" 2>/dev/null; then
    echo "-- in $(basename "$log" .log):"
    what_failed "$log"
  fi
done
if ((${#broken[@]} && failed == 0)); then failed=1; fi
echo "$passed passed, $failed failed"
((failed == 0))
