#!/usr/bin/env bash
# Fuzzes the .loop parser with libFuzzer (and AddressSanitizer) for SECONDS (default 60), seeded with the
# lessons in examples/. Any crash, hang (> 5 s for one input) or sanitizer report fails the run; the input that
# caused it is left in .build-fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
swift build --sanitize=fuzzer --sanitize=address --product ParserFuzzer --scratch-path .build-fuzz \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp 2>&1 | grep -v "prohibited flag" | tail -1
corpus=.build-fuzz/corpus
rm -rf .build-fuzz/artifacts
mkdir -p "$corpus" .build-fuzz/artifacts
cp examples/*.loop "$corpus"/ 2>/dev/null || true
.build-fuzz/debug/ParserFuzzer "$corpus" -max_total_time="$seconds" -max_len=8192 -timeout=5 -rss_limit_mb=4096 \
    -artifact_prefix=.build-fuzz/artifacts/ -print_final_stats=1 2>&1 | grep -E "INITED|DONE|ERROR|SUMMARY|stat::number_of_executed_units|deadly|Test unit written" || true
# libFuzzer exits non-zero on a crash; pipefail would hide that behind grep, so check for artifacts too.
if ls .build-fuzz/artifacts/* >/dev/null 2>&1; then
    echo "fuzz-parser: the fuzzer found a failing input:" >&2
    ls .build-fuzz/artifacts/ >&2
    exit 1
fi
echo "fuzz-parser: no crash, hang or sanitizer report in ${seconds}s"
