#!/usr/bin/env bash
# Builds LoopEngine's DocC documentation (Sources/LoopEngine/LoopEngine.docc plus the doc comments of its public
# symbols) and fails on any warning: a broken ``link``, a parameter left undocumented. No package plugin: the
# compiler emits the symbol graphs, the toolchain's docc converts them. Then it compiles the articles' Swift
# examples as an embedder's code, against the public surface alone (Scripts/embedder-check.sh).
#
#   Scripts/docs.sh [OUTPUT]    (default: .build/docs/LoopEngine.doccarchive)
#
# It builds in a scratch directory of its own (.build/docs), so the symbol-graph flags do not invalidate the
# main build's cache.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/docs
graphs="$scratch/symbol-graphs"
output="${1:-$scratch/LoopEngine.doccarchive}"
build() {
    swift build --scratch-path "$scratch" --target LoopEngine \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
}
# The compiler writes the graphs only when it compiles LoopEngine; an up-to-date build leaves the last ones, which
# are then current. Without them (a first run, or a removed directory) build from scratch.
mkdir -p "$graphs"
build
if [ ! -s "$graphs/LoopEngine.symbols.json" ]; then
    rm -rf "$scratch"
    mkdir -p "$graphs"
    build
fi

docc convert Sources/LoopEngine/LoopEngine.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name LoopEngine \
    --fallback-bundle-identifier loopviz.LoopEngine \
    --output-dir "$output" \
    --warnings-as-errors

echo "documentation: $output"

# The articles' examples, compiled as an embedder's code against the module just built (public symbols only).
Scripts/embedder-check.sh "$scratch/debug"
