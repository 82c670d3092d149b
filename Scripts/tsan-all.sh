#!/usr/bin/env bash
# ThreadSanitizer over the whole test suite, as CI runs it: `Scripts/tsan-all.sh [--filter REGEX] [--skip REGEX]`
# (REGEX as for `swift test --filter` and `--skip`). Builds into .build-tsan (the normal build is left alone; from
# scratch about 3.5 minutes on 2 idle cores, then about 2 minutes for the whole suite), then runs the tests with
# every ThreadSanitizer report, of the test process and of the `loopviz` processes the command-line tests start,
# written to .build-tsan/tsan-reports/.
# Exit status 0 only if the tests pass and no process reported anything: a race fails the run even when every test
# passes. The reports are printed at the end.
# It cannot hang: the build and the tests each have a time limit (LOOPVIZ_TSAN_BUILD_LIMIT and
# LOOPVIZ_TSAN_TEST_LIMIT, in seconds, 3600 each by default; Scripts/time-limit.sh); tests that outlive it are
# killed, the ones still running are named (the log is kept in .build-tsan/tsan-test.log), and the exit status
# is 124.
set -euo pipefail
cd "$(dirname "$0")/.."
filter=()
skip=()
while [ $# -gt 0 ]; do
    case "$1" in
        --filter)
            [ $# -ge 2 ] || { echo "tsan-all: --filter needs a regular expression" >&2; exit 2; }
            filter=(--filter "$2")
            shift 2
            ;;
        --skip)
            [ $# -ge 2 ] || { echo "tsan-all: --skip needs a regular expression" >&2; exit 2; }
            skip=(--skip "$2")
            shift 2
            ;;
        *) echo "usage: Scripts/tsan-all.sh [--filter REGEX] [--skip REGEX]" >&2; exit 2 ;;
    esac
done
label="the whole suite"
[ ${#filter[@]} -eq 0 ] || label="the tests matching ${filter[1]}"
[ ${#skip[@]} -eq 0 ] || label="$label except those matching ${skip[1]}"
scratch=.build-tsan
reports="$scratch/tsan-reports"
mkdir -p "$scratch"

# `--build-tests` builds the `loopviz` executable too: the command-line tests run it, so it must be this build's.
build_limit="${LOOPVIZ_TSAN_BUILD_LIMIT:-3600}"
test_limit="${LOOPVIZ_TSAN_TEST_LIMIT:-3600}"
build_status=0
Scripts/time-limit.sh "$build_limit" -- \
    swift build --build-tests --sanitize=thread --scratch-path "$scratch" >"$scratch/tsan-build.log" 2>&1 \
    || build_status=$?
if [ "$build_status" -ne 0 ]; then
    grep -v "prohibited flag" "$scratch/tsan-build.log" >&2
    [ "$build_status" -ne 124 ] || echo "tsan-all: the build did not finish within $build_limit s" >&2
    echo "tsan-all: the build failed" >&2
    exit 1
fi
tail -1 "$scratch/tsan-build.log"

rm -rf "$reports"
mkdir -p "$reports"
status=0
# log_path: each process that reports writes its own $reports/tsan.<pid>, so nothing is lost in a test's captured
# output. The test process still exits non-zero (66) after a report; the files are what decides.
TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}log_path=$PWD/$reports/tsan" \
    Scripts/time-limit.sh "$test_limit" --log "$scratch/tsan-test.log" -- \
    swift test --skip-build --sanitize=thread --scratch-path "$scratch" "${filter[@]}" "${skip[@]}" || status=$?
if [ "$status" -eq 124 ]; then
    echo "tsan-all: the tests did not finish within $test_limit s over $label (still running: above)" >&2
fi

if ls "$reports"/tsan.* >/dev/null 2>&1; then
    cat "$reports"/tsan.* >&2
    warnings=$(cat "$reports"/tsan.* | grep -c '^WARNING: ThreadSanitizer' || true)
    processes=$(ls "$reports"/tsan.* | wc -l)
    echo "tsan-all: ThreadSanitizer reported $warnings warning(s) in $processes process(es) over $label" \
        "(reports above, kept in $reports/)" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "tsan-all: tests failed over $label (exit status $status); ThreadSanitizer reported nothing" >&2
    exit "$status"
fi
echo "tsan-all: $label passed and ThreadSanitizer reported nothing"
