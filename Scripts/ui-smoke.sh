#!/usr/bin/env bash
# Drives the real loopviz binary in tmux as a person would: start (on the lesson's card; --lang zh at 80x24 too),
# pause, step, step back, fire a timer,
# signal, stop, resize (too small and back), help, quit, Ctrl-Z/fg, --clock real, presenter mode, the quiz and
# --record - and checks the screen after
# each step and that the terminal settings are restored (stty -g before and after); the lesson library (picker,
# filter, summary, next lesson, reload with diagnostics); Ctrl-C, Ctrl-\ (SIGQUIT),
# SIGTERM, SIGHUP, SIGUSR1, SIGALRM and SIGXCPU end it with 128 + the signal's number and the terminal restored.
# Usage: Scripts/ui-smoke.sh [path/to/loopviz]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-$(swift build --show-bin-path)/loopviz}"
session="loopviz-smoke-$$"
work=$(mktemp -d)
# A tmux server of its own (never the user's default one): killed with everything in it at the end.
tmux() { command tmux -L "$session" "$@"; }
trap 'tmux kill-server 2>/dev/null || true; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$session"; rm -rf "$work"' EXIT

screen() { tmux capture-pane -p -t "$session"; }
expect_screen() { # PATTERN DESCRIPTION
    for _ in $(seq 1 30); do
        if screen | grep -q -- "$1"; then echo "ok: $2"; return 0; fi
        sleep 0.1
    done
    echo "FAILED: $2 (no '$1' on screen)" >&2
    screen >&2
    exit 1
}
keys() { tmux send-keys -t "$session" "$@"; sleep 0.3; }
expect_stty_restored() { # DESCRIPTION: the settings saved after the program ended equal those saved before it
    for _ in $(seq 1 20); do [ -s "$work/after" ] && break; sleep 0.1; done
    diff -q "$work/before" "$work/after" >/dev/null && echo "ok: $1" \
        || { echo "FAILED: $1 (stty settings differ)" >&2; exit 1; }
}

tmux new-session -d -x 120 -y 40 -s "$session" \
    "stty -g > '$work/before'; '$bin'; echo \"EXITED rc=\$?\"; stty -g > '$work/after'; sleep 30"
# The server outlives its sessions: each part below kills its session and starts a new one, and a server that
# exits with its last session races the next new-session ("server exited unexpectedly").
tmux set-option -s exit-empty off
expect_screen "One turn of the run loop" "the built-in lesson opens"
expect_screen "any key closes this card" "it opens on the lesson's card"
keys Escape
expect_screen "PLAYING" "it plays"
keys Space
expect_screen "PAUSED" "Space pauses"
before=$(screen | head -1)
keys n n n
after=$(screen | head -1)
[ "$before" != "$after" ] && echo "ok: n steps forward" || { echo "FAILED: n did not step" >&2; exit 1; }
keys p p p
[ "$(screen | head -1)" = "$before" ] && echo "ok: p steps back to the same screen" || { echo "FAILED: p" >&2; exit 1; }
keys 2 f
expect_screen "fire tick after step" "f fires the timer"
keys Space 3 s
expect_screen "signal work + wake up" "s signals the source and wakes the loop"
keys x
expect_screen "stop after step" "x stops the run"
keys '?'
expect_screen "Keys (/ filters, Esc or ? closes)" "? opens the help"
keys Escape i
expect_screen "Watch for" "i opens the lesson's card again"
keys Escape
tmux resize-window -t "$session" -x 60 -y 15; sleep 0.5
expect_screen "loopviz needs at least 80" "a too-small terminal says what it needs"
tmux resize-window -t "$session" -x 120 -y 40; sleep 0.5
expect_screen "What CF really does" "the full screen comes back after the resize"
# A window past 1000×1000 cells: the UI draws in its top-left 1000×1000 and nothing beyond (ncurses is told the
# capped size, so it keeps no more cells than for 1000×1000; a 10000×10000 window took 2.2 GB).
tmux resize-window -t "$session" -x 1500 -y 1200; sleep 1
expect_screen "What CF really does" "a 1500×1200 window still shows the UI"
top=$(screen | head -1)
[ -n "$(echo "${top:900:100}" | tr -d ' ')" ] && [ -z "$(echo "${top:1000}" | tr -d ' ')" ] \
    && [ -n "$(screen | sed -n 1000p | tr -d ' ')" ] && [ -z "$(screen | sed -n 1001,1200p | tr -d ' ')" ] \
    && echo "ok: it is drawn in the top-left 1000×1000 cells, nothing beyond" \
    || { echo "FAILED: the drawing is not capped at 1000×1000" >&2; exit 1; }
tmux resize-window -t "$session" -x 120 -y 40; sleep 0.5
expect_screen "What CF really does" "the full screen comes back after the large window"
keys q
expect_screen "EXITED rc=0" "q quits with status 0"
expect_stty_restored "the terminal settings are restored"

# 80×24, the projector size: every panel reads, the help pages to its end, the thread picker and a poke while
# paused (it stays paused; the poke lands right after the step shown, the built-in lesson's recipe of issue 12).
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -x 80 -y 24 -s "$session" "'$bin'; echo \"EXITED rc=\$?\"; sleep 30"
expect_screen "One turn of the run loop" "the built-in lesson opens at 80x24"
expect_screen "Try" "the card shows Try at 80x24"
keys Escape Space g 4 4 Enter
expect_screen "44 .*1.340003 .*sleep" "g 44 shows the sleep at 1.340 at 80x24"
keys 3 S
expect_screen "signal work (no wake-up) after step 44" "S lands right after step 44"
expect_screen "PAUSED" "a poke keeps the pause"
keys n
expect_screen "45 .*1.340003 .*signal work" "the signal is the next event, after the sleep"
keys '?'
expect_screen "more below" "the help pages at 80x24"
keys PageDown PageDown PageDown PageDown PageDown PageDown PageDown PageDown PageDown PageDown PageDown PageDown
expect_screen "end: ↑ k or PgUp back" "the help's last page is reachable"
expect_screen "are the iteration cost" "the help ends with the status words, shown whole"
keys Escape t
expect_screen "follow the current event's thread" "t lists the threads"
keys Escape g 0 Enter
expect_screen "no event 0" "g 0 says that events start at 1"
keys q
expect_screen "EXITED rc=0" "q quits at 80x24"

# --lang zh at 80x24: the card's Chinese section, then the Chinese narration (the chrome stays English).
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -x 80 -y 24 -s "$session" "LANG=C.UTF-8 '$bin' --lang zh; echo \"EXITED rc=\$?\"; sleep 30"
expect_screen "看点" "--lang zh opens on the Chinese card"
expect_screen "试试" "the Chinese card shows its Try part"
keys Escape Space g 1 4 Enter
expect_screen "循环睡了" "the narration is in Chinese at 80x24"
expect_screen "PAUSED" "the status bar stays English"
keys q
expect_screen "EXITED rc=0" "q quits (--lang zh)"

# The lesson library at 80x24: a folder opens the picker; / filters, Enter opens, g to the end shows the summary,
# } goes to the next lesson; R reads an edited file again, showing its diagnostics while it does not parse.
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -x 80 -y 24 -s "$session" "'$bin' examples/; echo \"EXITED rc=\$?\"; sleep 30"
expect_screen "Lessons (" "a folder opens the lesson picker"
expect_screen "07  A source0 signalled without a wake-up waits" "the picker lists the lessons by number and title"
keys / 0 7
expect_screen "/ 07_" "/ types a filter"
keys Enter
expect_screen "lesson 07 (7 of " "Enter opens the lesson the filter found"
expect_screen "Watch for" "the lesson opens on its card"
keys Escape g 9 9 9 Enter
expect_screen "End of the lesson: A source0 signalled" "the last step opens the summary"
expect_screen "Every expect line held in this run" "the summary checks the lesson's expect lines"
expect_screen "Try" "the summary shows the card's Try again"
keys Escape '}'
expect_screen "lesson 08 (8 of " "} opens the next lesson"
keys Escape L
expect_screen "(open)" "L reopens the picker at the lesson shown"
keys Escape q
expect_screen "EXITED rc=0" "q quits from the library"
cp examples/07-source0-needs-a-wakeup.loop "$work/lesson.loop"
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -x 80 -y 24 -s "$session" "'$bin' '$work/lesson.loop'; echo \"EXITED rc=\$?\"; sleep 30"
expect_screen "A source0 signalled without a wake-up waits" "one lesson file opens"
keys Escape Space g 1 2 Enter
printf 'thread T\n  bogus 1\n' >> "$work/lesson.loop"
keys R
expect_screen "DOES NOT OPEN" "R on a broken file shows its diagnostics, not an exit"
expect_screen "lesson.loop:[0-9]*:[0-9]*: error" "the diagnostics have file:line:column"
cp examples/07-source0-needs-a-wakeup.loop "$work/lesson.loop"
keys R
expect_screen "read again at step 12" "R after the fix reads the lesson again at the step shown"
keys q
expect_screen "EXITED rc=0" "q quits after a reload"

# Ctrl-Z suspends with the terminal given back to the shell; fg brings the UI back, fully redrawn.
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -x 100 -y 30 -s "$session" "bash --norc --noprofile -i"
sleep 0.5
keys "'$bin'" Enter
expect_screen "One turn of the run loop" "the UI starts from an interactive shell"
keys Escape
# Several rounds, while it plays: a Ctrl-Z typed in the middle of a screen refresh must not be lost (ncurses
# ignores SIGTSTP during a refresh unless the program's own handler was there before ncurses started).
expect_screen "PLAYING" "it plays before the suspension"
for round in 1 2 3 4 5; do
    keys C-z
    expect_screen "Stopped" "Ctrl-Z suspends and the shell gets the terminal back (round $round)"
    keys clear Enter
    keys fg Enter
    expect_screen "What CF really does" "fg resumes with a full redraw (round $round)"
done
keys q
keys 'echo "rc=$?"' Enter
expect_screen "rc=0" "q still quits with status 0 after a suspension"

# --clock real: the built-in lesson runs on real threads once its card is closed; a key acts on them at once; R
# starts them again; q stops and joins them.
tmux kill-session -t "$session" 2>/dev/null || true
rm -f "$work/before" "$work/after"
tmux new-session -d -x 120 -y 40 -s "$session" \
    "stty -g > '$work/before'; '$bin' --clock real; echo \"EXITED rc=\$?\"; stty -g > '$work/after'; sleep 30"
expect_screen "real clock" "--clock real opens on real threads"
expect_screen "step 0/0" "nothing runs behind the lesson's card"
keys Escape
expect_screen "LIVE" "the real threads start when the card closes"
expect_screen "sleep" "the real loop goes to sleep in the kernel"
keys w
expect_screen "wake up" "w wakes the real loop up"
expect_screen "wakeUp" "the wake-up reaches the real loop's trace"
keys R
expect_screen "started again on real threads" "R runs the scenario again from its start"
expect_screen "sleep" "the new real loop goes to sleep"
keys q
expect_screen "EXITED rc=0" "q stops the real threads and quits with status 0"
expect_stty_restored "the terminal settings are restored (real clock)"

# The classroom at 80x24: presenter mode locks the pokes and echoes the keys, d plays to the next narration, the
# quiz stops at lesson 07's first `ask` and scores the answer, and --record leaves a valid asciicast v2 file
# (renamed into place when the UI ends, also when a signal ends it).
tmux kill-session -t "$session" 2>/dev/null || true
rm -f "$work/before" "$work/after"
tmux new-session -d -x 80 -y 24 -s "$session" \
    "stty -g > '$work/before'; '$bin' examples/07-source0-needs-a-wakeup.loop --record '$work/class.cast'; echo \"EXITED rc=\$?\"; stty -g > '$work/after'; sleep 30"
expect_screen "A source0 signalled without a wake-up" "lesson 07 opens at 80x24, recorded"
expect_screen "REC" "the status bar says the session is recorded"
keys Space D
expect_screen "PRESENTER \[D\] locked (U)" "D: presenter mode, pokes locked, the key echoed"
keys 2 s
expect_screen "pokes locked: U unlocks them" "a poke is refused while locked"
keys + + G d
expect_screen "Predict the next step of thread T" "G then d: the quiz asks at the lesson's first ask line"
expect_screen "1  source0 render" "the lesson's choices are offered"
keys 2
expect_screen "Right: step 12 is wake" "the reveal shows the real next step"
expect_screen "score 1/1 in this lesson" "the answer is scored"
keys Enter Space
expect_screen "quiz 1/1" "the score stays in the status bar"
keys q
expect_screen "EXITED rc=0" "q quits the recorded session with status 0"
expect_stty_restored "the terminal settings are restored (recorded session)"
[ -s "$work/class.cast" ] && ! ls "$work"/.class.cast.loopviz-* >/dev/null 2>&1 \
    && echo "ok: the cast is in place and its temporary file is gone" \
    || { echo "FAILED: no cast at $work/class.cast" >&2; ls -la "$work" >&2; exit 1; }
python3 - "$work/class.cast" <<'PY' && echo "ok: the cast is asciicast v2 (header, then [time, \"o\", data] events)" \
    || { echo "FAILED: the cast is not asciicast v2" >&2; head -c 400 "$work/class.cast" >&2; exit 1; }
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
header = json.loads(lines[0])
assert header["version"] == 2 and header["width"] == 80 and header["height"] == 24, header
assert isinstance(header["timestamp"], int) and "TERM" in header["env"], header
events = [json.loads(line) for line in lines[1:]]
assert len(events) >= 5 and all(e[1] in ("o", "r") and isinstance(e[2], str) for e in events), events[:3]
assert all(a[0] <= b[0] for a, b in zip(events, events[1:])), "times go backwards"
assert any("Predict the next step" in e[2] for e in events), "the quiz is not in the cast"
PY
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -x 80 -y 24 -s "$session" \
    "( echo \$BASHPID > '$work/pid'; exec '$bin' --record '$work/killed.cast' ); echo \"EXITED rc=\$?\"; sleep 30"
expect_screen "REC" "a second recorded session opens"
kill -s TERM "$(cat "$work/pid")"
expect_screen "EXITED rc=143" "SIGTERM ends the recorded session with 143"
head -1 "$work/killed.cast" | grep -q '"version": 2' && echo "ok: a session ended by SIGTERM still leaves its cast" \
    || { echo "FAILED: no cast after SIGTERM" >&2; exit 1; }

# Signals: each ends the UI with 128 + its number and the terminal restored. Ctrl-\ (SIGQUIT) used to let the
# Swift runtime's backtracer take the screen (a backtrace and a 30 s "press space" prompt).
signal_case() { # HOW EXPECTED_STATUS DESCRIPTION, where HOW is key:KEY (typed) or kill:SIGNAL (sent to its pid)
    tmux kill-session -t "$session" 2>/dev/null || true
    rm -f "$work/before" "$work/after" "$work/pid"
    {
        echo "stty -g > '$work/before'"
        echo "( echo \$BASHPID > '$work/pid'; exec '$bin' )"
        echo "echo \"EXITED rc=\$?\""
        echo "stty -g > '$work/after'"
        echo "sleep 30"
    } > "$work/ui.sh"
    tmux new-session -d -x 120 -y 40 -s "$session" "bash --norc --noprofile '$work/ui.sh'"
    expect_screen "One turn of the run loop" "the UI opens (before $3)"
    expect_screen "PLAYING" "it plays (before $3)"
    case "$1" in
        key:*) keys "${1#key:}" ;;
        kill:*) kill -s "${1#kill:}" "$(cat "$work/pid")" ;;
    esac
    expect_screen "EXITED rc=$2" "$3 ends the UI with status $2"
    expect_stty_restored "the terminal settings are restored after $3"
    if screen | grep -qiE "backtrace|crashed|press space"; then
        echo "FAILED: $3 brought up a crash report" >&2
        screen >&2
        exit 1
    fi
}
signal_case key:C-c 130 "Ctrl-C (SIGINT)"
signal_case 'key:C-\' 131 "Ctrl-\\ (SIGQUIT)"
signal_case kill:TERM 143 "SIGTERM"
signal_case kill:HUP 129 "SIGHUP"
# And every other signal that ends a process (TerminationSignals: one list), e.g. the audit's D6 ones.
signal_case kill:USR1 138 "SIGUSR1"
signal_case kill:ALRM 142 "SIGALRM"
signal_case kill:XCPU 152 "SIGXCPU"

# Without a terminal, loopviz says so and exits 2 instead of letting ncurses kill it.
set +e
TERM=dumb "$bin" </dev/null >/dev/null 2>"$work/err"; status=$?
set -e
[ "$status" = 2 ] && grep -q "loopviz run FILE" "$work/err" && echo "ok: no terminal -> a one-line hint and exit 2" \
    || { echo "FAILED: no-terminal start (status $status)" >&2; cat "$work/err" >&2; exit 1; }
echo "ui-smoke: all checks passed"
