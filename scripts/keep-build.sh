#!/usr/bin/env bash
# Keeps the page's current build (web/dist, from `npm run build -w web`) as
# build/ab/<name>, for e2e/bench/builds.bench.ts to serve beside others and
# take in turn (docs/every-core.md). A build of that name is replaced.
set -euo pipefail
name="${1:-}"
if [[ ! "$name" =~ ^[A-Za-z0-9._-]+$ ]]; then
  echo "usage: scripts/keep-build.sh <name>   (letters, digits, '.', '_' or '-'; got '${name}')" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ ! -f "$root/web/dist/index.html" ]]; then
  echo "keep-build: no build in web/dist; run 'npm run build -w web' first" >&2
  exit 1
fi
mkdir -p "$root/build/ab"
rm -rf "$root/build/ab/$name"
cp -r "$root/web/dist" "$root/build/ab/$name"
# Builds kept before and served from web/dist/ab are not part of this one.
rm -rf "$root/build/ab/$name/ab"
echo "kept web/dist as build/ab/$name"
