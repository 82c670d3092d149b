#!/usr/bin/env bash
# Builds LoopEngine's DocC documentation (Sources/LoopEngine/LoopEngine.docc plus the doc comments of its public
# symbols) and fails on any warning: a broken ``link``, a parameter left undocumented. No package plugin: the
# compiler emits the symbol graphs, the toolchain's docc converts them. Then it compiles the articles' Swift
# examples as an embedder's code, against the public surface alone (Scripts/embedder-check.sh).
#
#   Scripts/docs.sh [OUTPUT]              (default: .build/docs/LoopEngine.doccarchive)
#   Scripts/docs.sh --bin BIN [OUTPUT]    (BIN: a build's bin folder, `swift build --show-bin-path`)
#
# Without --bin it builds LoopEngine in a scratch directory of its own (.build/docs), so the symbol-graph flags do
# not invalidate the main build's cache. With --bin it compiles nothing: swift-symbolgraph-extract reads the
# LoopEngine module of that build (what .ci/run does, so that CI compiles the package only twice).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=""
if [ "${1:-}" = "--bin" ]; then
    [ $# -ge 2 ] || { echo "docs: --bin needs a build's bin folder" >&2; exit 2; }
    bin=$(cd "$2" && pwd)
    shift 2
fi
scratch=.build/docs
graphs="$scratch/symbol-graphs"
output="${1:-$scratch/LoopEngine.doccarchive}"
build() {
    swift build --scratch-path "$scratch" --target LoopEngine \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
}
# The compiler writes the graphs only when it compiles LoopEngine; an up-to-date build leaves the last ones, which
# are then current. Without them (a first run, or a removed directory) build from scratch.
if [ -n "$bin" ]; then
    [ -f "$bin/Modules/LoopEngine.swiftmodule" ] || { echo "docs: no LoopEngine module in $bin/Modules" >&2; exit 2; }
    graphs="$scratch/extracted-symbol-graphs"
    rm -rf "$graphs"
    mkdir -p "$graphs"
    triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
    swift-symbolgraph-extract -module-name LoopEngine -target "$triple" -I "$bin/Modules" \
        -Xcc -fmodule-map-file="$bin/CLoopKernel.build/module.modulemap" \
        -Xcc -I -Xcc "$PWD/Sources/CLoopKernel/include" -minimum-access-level public -output-dir "$graphs"
else
    mkdir -p "$graphs"
    build
    if [ ! -s "$graphs/LoopEngine.symbols.json" ]; then
        rm -rf "$scratch"
        mkdir -p "$graphs"
        build
    fi
fi

docc convert Sources/LoopEngine/LoopEngine.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name LoopEngine \
    --fallback-bundle-identifier loopviz.LoopEngine \
    --output-dir "$output" \
    --warnings-as-errors

echo "documentation: $output"

# The articles' examples, compiled as an embedder's code against the module just built (public symbols only).
Scripts/embedder-check.sh "${bin:-$scratch/debug}"
