# Sourced by scripts/test.sh and scripts/start.sh: installs what is missing
# on a Debian 12 machine (as root), saying what it installs.
#
#   Debian packages: cmake g++ libgtest-dev libbenchmark-dev libxxhash-dev
#                    emscripten chromium python3 (see shared/toolchain.md), and
#                    the real systems the tests compare with: libmemcached-dev
#                    (ketama), nginx-light (nginx's hash ... consistent), plus
#                    zlib1g-dev, libssl-dev and pkg-config for the hash checks,
#                    clang and libclang-rt-14-dev (libFuzzer, ASan, UBSan) for
#                    the fuzz targets (scripts/fuzz-short.sh)
#   npm packages:    npm ci (pinned by package-lock.json)
set -euo pipefail

JUMPHASH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

say() { printf '\n== %s\n' "$*"; }

ensure_debian_packages() {
  # python3: the e2e suite serves the built site with `python3 -m http.server` too.
  # libmemcached-dev, nginx-light, curl, zlib1g-dev, libssl-dev, pkg-config: live
  # comparisons with the real libraries (tests/libmemcached_live_test.cpp,
  # tests/live/).
  # clang and libclang-rt-14-dev (libFuzzer, ASan, UBSan runtimes): the fuzz
  # targets (cmake -DJUMPHASH_FUZZ=ON, tests/fuzz/, scripts/fuzz-short.sh).
  # The sanitizer build (preset debug) uses g++, whose ASan and UBSan
  # runtimes (libasan8, libubsan1) come with g++ itself.
  local wanted=(cmake g++ make libgtest-dev libbenchmark-dev libxxhash-dev emscripten chromium python3
                libmemcached-dev nginx-light curl zlib1g-dev libssl-dev pkg-config
                clang libclang-rt-14-dev)
  local missing=()
  for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  if ((${#missing[@]})); then
    say "installing Debian packages: ${missing[*]}"
    if [[ $(id -u) -ne 0 ]]; then
      echo "error: these Debian packages are missing and installing them needs root: ${missing[*]}" >&2
      exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_node() {
  if ! command -v node >/dev/null || ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'; then
    echo "error: Node.js 20 or newer is needed (found: $(node --version 2>/dev/null || echo none))." >&2
    echo "       Debian 12's nodejs is 18; install Node 20 (e.g. the nodesource build) first." >&2
    exit 1
  fi
}

ensure_npm_packages() {
  local stamp="$JUMPHASH_ROOT/node_modules/.jumphash-lock"
  if [[ ! -f "$stamp" ]] || ! cmp -s "$JUMPHASH_ROOT/package-lock.json" "$stamp"; then
    say "installing npm packages (npm ci, pinned by package-lock.json)"
    (cd "$JUMPHASH_ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$JUMPHASH_ROOT/package-lock.json" "$stamp"
  fi
}

ensure_everything() {
  ensure_debian_packages
  ensure_node
  ensure_npm_packages
}
