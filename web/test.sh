#!/usr/bin/env bash
# The page's browser test: builds web/dist, installs playwright-core (npm ci; it downloads no
# browser) and runs web/test.mjs against the system's Chromium, then the WebAssembly
# benchmark's fingerprint. EMILIA names the native program to compare with.
set -euo pipefail
web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
bash "$web/build.sh"
cd "$web"
if [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    nice -n 19 npm ci --ignore-scripts --no-audit --no-fund
fi
# The same engine: the native fingerprint of bench midgame at depth 12.
nodes="$(node bench.mjs --depth 12 | sed -n 's/^midgame total: \([0-9]*\) nodes.*/\1/p')"
[ "$nodes" = 211270 ] || { echo "test.sh: bench.mjs --depth 12 gave '$nodes' nodes, not 211270" >&2; exit 1; }
echo "bench.mjs --depth 12: $nodes nodes, the native fingerprint"
EMILIA="${EMILIA:-$root/target/release/emilia}" node test.mjs
