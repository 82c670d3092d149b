#!/usr/bin/env bash
# Instructions per iteration of `loopviz bench`'s per-iteration workload (a source0 that re-signals itself), for
# LoopEngine (real backend, and virtual clock) and the real CFRunLoop, with 0, 6 and 64 observers, counted by valgrind's callgrind: a regression
# measure that does not move with the machine's load (stable to a few parts per million).
#
# Each figure is (Ir(2N) - Ir(N)) / N, so process start, thread creation and the first run's set-up cancel out.
# Usage: Scripts/bench-callgrind.sh [N]   (default 50000; valgrind makes the runs ~50x slower)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-50000}"
command -v valgrind >/dev/null || { echo "bench-callgrind: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --scratch-path .build-bench --product loopviz 2>&1 | grep -v "prohibited flag" | tail -1
bin=.build-bench/release/loopviz
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Total instructions (Ir) of one run.
count() {
    local file="$out/cg.$RANDOM"
    valgrind --tool=callgrind --callgrind-out-file="$file" "$bin" bench --workload "$@" >/dev/null 2>&1
    grep '^summary:' "$file" | awk '{print $2}'
}

printf '%-14s %-16s %10s\n' workload loop "Ir/iter"
for observers in 0 6 64; do
    for loop in "--engine" "--engine --virtual" "--cf"; do
        # shellcheck disable=SC2086 # $loop is one or two flags
        small=$(count per-iteration $loop --observers "$observers" --iterations "$n")
        # shellcheck disable=SC2086
        large=$(count per-iteration $loop --observers "$observers" --iterations $((2 * n)))
        printf '%-14s %-16s %10d\n' "$observers observers" "${loop//--/}" $(((large - small) / n))
    done
done
small=$(count virtual --engine --iterations "$n")
large=$(count virtual --engine --iterations $((2 * n)))
printf '%-14s %-16s %10d\n' "virtual+trace" "engine virtual" $(((large - small) / n))
