#!/usr/bin/env bash
# Runs a command with a time limit, so that nothing CI runs can hang it:
#   Scripts/time-limit.sh SECONDS [--log FILE] -- COMMAND [ARG...]
# At the limit the command and every process below it (`swift test` starts its test runner in a process group of
# its own, so a process group is not enough) get SIGTERM, and SIGKILL 30 s later if any is left. With --log, the
# output (standard error too) goes to FILE line by line (`stdbuf`: a test runner writing to a file would otherwise
# keep its lines in a buffer and lose them when killed) and is shown as it comes; a command that ran out of time is
# followed by the tests it had started and not finished (Scripts/unfinished-tests.py) and the log's last lines.
# Exit status: the command's, or 124 when it ran out of time.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
    echo "usage: Scripts/time-limit.sh SECONDS [--log FILE] -- COMMAND [ARG...]" >&2
    exit 2
}
[ $# -ge 3 ] || usage
limit=$1
shift
case "$limit" in '' | *[!0-9]*) usage ;; esac
log=""
if [ "$1" = "--log" ]; then
    [ $# -ge 4 ] || usage
    log=$2
    shift 2
fi
[ "$1" = "--" ] || usage
shift
[ $# -ge 1 ] || usage

# The process and all its descendants, from one snapshot of the process table.
tree() {
    local table queue=("$1") found=() current child
    table=$(ps -eo pid=,ppid=)
    while [ ${#queue[@]} -gt 0 ]; do
        current=${queue[0]}
        queue=("${queue[@]:1}")
        found+=("$current")
        for child in $(awk -v parent="$current" '$2 == parent { print $1 }' <<<"$table"); do queue+=("$child"); done
    done
    echo "${found[@]}"
}

follower=""
if [ -n "$log" ]; then
    : >"$log"
    stdbuf -oL -eL "$@" >"$log" 2>&1 &
    pid=$!
    tail -n +1 -f --pid="$pid" "$log" &
    follower=$!
else
    "$@" &
    pid=$!
fi
# Stopped from outside (Ctrl-C, a CI cancel): take the command's processes along.
trap 'kill -TERM $(tree "$pid") 2>/dev/null; exit 130' INT TERM

deadline=$((SECONDS + limit))
timed_out=0
while kill -0 "$pid" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        timed_out=1
        break
    fi
    sleep 1
done
if [ "$timed_out" -eq 1 ]; then
    processes=$(tree "$pid")
    # shellcheck disable=SC2086 # one pid per word
    kill -TERM $processes 2>/dev/null
    for _ in $(seq 30); do
        alive=0
        for process in $processes; do kill -0 "$process" 2>/dev/null && alive=1; done
        [ "$alive" -eq 0 ] && break
        sleep 1
    done
    # shellcheck disable=SC2086
    kill -KILL $processes 2>/dev/null
fi
wait "$pid"
status=$?
[ -z "$follower" ] || wait "$follower"
if [ "$timed_out" -eq 1 ]; then
    echo "time-limit: '$*' did not finish within $limit s; it and the processes it started were killed" >&2
    if [ -n "$log" ]; then
        python3 "$here/unfinished-tests.py" "$log" >&2
        echo "time-limit: the last lines of $log:" >&2
        tail -n 15 "$log" >&2
    fi
    exit 124
fi
exit "$status"
