#!/usr/bin/env bash
# The Python package's tests: a fresh virtual environment, `pip install ./python` in it
# (which builds the compiled module with maturin, fetched by pip; the workspace's target/
# keeps the build between runs), pytest and numpy (for the array tests), then pytest against Emilia's
# release binary (EMILIA, or target/release/emilia, built here when missing). GRhino's tests
# run where its gtp-rhino is installed (Debian's package grhino) and are skipped, saying so,
# elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
"$python" -m venv "$venv"
# The module is built with the dev profile (optimised, with debug assertions), the one
# `cargo test` builds the core with: run from there, the core is built once. (Not
# `--profile test`, which would build the module as a test program.)
MATURIN_PEP517_ARGS="--profile dev" \
    "$venv/bin/pip" install --quiet --disable-pip-version-check ./python pytest numpy
if [ -z "${EMILIA:-}" ]; then
    cargo build --release --quiet
    export EMILIA="$PWD/target/release/emilia"
fi
# From the tests' folder, so that the installed package is tested, not the source tree.
cd python/tests
status=0
"$venv/bin/python" -m pytest -q -rs --import-mode=importlib . || status=$?
# pytest exits 5 when it collected no test: a run that tests nothing has failed.
if [ "$status" -eq 5 ]; then
    echo "python/test.sh: pytest collected no test" >&2
    exit 1
fi
exit "$status"
