#!/usr/bin/env bash
# ThreadSanitizer over the threaded tests: the real backend, LoopThread, the thread-safety test, the rules and the
# lessons on real threads and the stress tests (RealTimeJudgeTests' `Real` and `Rules` suites, `RealLessonTests` and
# `PoolRealLessonTests`).
# `Scripts/tsan-real.sh [MESSAGES_PER_SENDER [LOOPTHREAD_CYCLES]]` (defaults 10000 and 10000; the issue's full size
# is 100000 messages, about 5 minutes on 2 cores). It is `Scripts/tsan-all.sh --filter PATTERN` with the stress
# sizes set: the exit status is 0 only if the tests pass and ThreadSanitizer reported nothing (the whole suite:
# Scripts/tsan-all.sh). `Scripts/tsan-real.sh --pattern` prints PATTERN (.ci/run skips those tests in its final
# `swift test`, which runs everything else once).
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='RealTimeJudgeTests\.(Real/|Rules/|RealLessonTests/|PoolRealLessonTests/)'
if [ "${1:-}" = "--pattern" ]; then
    echo "$pattern"
    exit 0
fi
export LOOPVIZ_STRESS_COUNT="${1:-${LOOPVIZ_STRESS_COUNT:-10000}}"
export LOOPVIZ_THREAD_CYCLES="${2:-${LOOPVIZ_THREAD_CYCLES:-10000}}"
exec Scripts/tsan-all.sh --filter "$pattern"
