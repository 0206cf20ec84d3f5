#!/usr/bin/env bash
# Builds the page into web/dist: the engine compiled to WebAssembly with its JavaScript
# glue (wasm-bindgen, the program of the same version as the crate, installed from source
# under target/ when missing), its weights and book, the page's files and the XOT openings.
set -euo pipefail
web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
target="$root/target"

version="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"$/\1/p' "$web/Cargo.toml")"
[ -n "$version" ] || { echo "build.sh: no pinned wasm-bindgen version in web/Cargo.toml" >&2; exit 1; }
# The program is built once and kept: a wasm-bindgen of that version on PATH is used as it
# is; otherwise the one under target/ (compiled from source the first time, its build kept
# under target/ too, so that an interrupted install resumes where it stopped).
tools="$target/wasm-bindgen-cli-$version"
bindgen="$tools/bin/wasm-bindgen"
if command -v wasm-bindgen >/dev/null 2>&1 && [ "$(wasm-bindgen --version)" = "wasm-bindgen $version" ]; then
    bindgen="$(command -v wasm-bindgen)"
elif [ ! -x "$bindgen" ]; then
    echo "build.sh: installing wasm-bindgen-cli $version into $tools (once)" >&2
    # Unoptimised: it compiles in half the time, and binds the page in a second or two.
    nice -n 19 cargo install wasm-bindgen-cli --version "$version" --locked --debug \
        --root "$tools" --target-dir "$target/wasm-bindgen-cli-build"
fi
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

# WebAssembly's 128-bit SIMD (every current browser and Node has it): the searches run about
# 1.5x faster with it (docs/experiments.md, The engine in WebAssembly).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128"
nice -n 19 cargo build --release --target wasm32-unknown-unknown --target-dir "$target" \
    --manifest-path "$web/Cargo.toml" -p emilia-web
dist="$web/dist"
rm -rf "$dist"
mkdir -p "$dist"
"$bindgen" --target web --no-typescript --out-dir "$dist" \
    "$target/wasm32-unknown-unknown/release/emilia_web.wasm"
# Served compressed (the page unpacks them with the browser's DecompressionStream; no
# server setting is needed): the module, which carries no weights, and the data files the
# page fetches as each is first needed, in the form they ship in (the engine decodes them).
gzip -9 -n "$dist/emilia_web_bg.wasm"
for file in emilia.weights emilia-6.weights emilia-10.weights emilia-12.weights emilia.book; do
    gzip -9 -n -c "$root/crates/emilia-core/weights/$file" >"$dist/$file.gz"
done
cp "$web"/www/* "$dist/"
cp "$root/data/xot-openings.txt" "$dist/"
echo "build.sh: the page is in $dist ($(du -sh "$dist" | cut -f1))"
