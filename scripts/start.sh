#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the core, the CLI, the wasm
# modules and the site, then serves the playground at http://localhost:5173
# (PORT=... to change it) with its default scenario. Ctrl+C stops it.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$JUMPHASH_ROOT"
ensure_everything

say "building the core and the CLI (build/native)"
cmake --preset native >/dev/null
cmake --build --preset native -j2 --target jumphash
say "the exercise's cases through the CLI (examples/exercise.txt), first lines"
build/native/jumphash examples/exercise.txt | head -12

say "building the WebAssembly modules (build/wasm -> wasm/dist)"
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j2

say "building the site (web/dist)"
npm run --silent build -w web

port=${PORT:-5173}
say "serving the playground at http://localhost:$port/ (Ctrl+C to stop)"
exec npm run --silent preview -w web -- --port "$port" --strictPort
