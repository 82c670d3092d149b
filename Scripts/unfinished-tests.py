#!/usr/bin/env python3
"""The tests a `swift test` log shows started but not finished: what was running when the run was killed.

    Scripts/unfinished-tests.py LOG

Reads Swift Testing's lines (`◇ Test NAME started.`, then `✔ Test NAME passed after …`, `✘ Test NAME failed after …`
or `➜ Test NAME skipped`) and XCTest's (`Test Case 'NAME' started.`, then `… passed (…)` or `… failed (…)`), and
prints each test started and never finished, in the order they started. Two tests may share a display name, so a
name is matched by count. Exit status 0 whatever it finds (2 if the log cannot be read).
"""

import re
import sys

SWIFT_STARTED = re.compile(r"^◇ Test (.+) started\.$")
# A parameterized test announces each case (`◇ Test case passing ARGUMENTS to NAME started.`) and ends once, as a
# whole: the latest case of a test still running is the one that was running.
SWIFT_CASE_STARTED = re.compile(r"^◇ Test case passing (.+) to (.+) started\.$")
# A parameterized test ends as `Test NAME with N test cases passed after …`; an issue line (`recorded an issue`)
# is not an end.
SWIFT_ENDED = re.compile(r"^[✔✘➜] Test (.+?)(?: with \d+ test cases?)? (?:passed after|failed after|skipped)")
XCTEST_STARTED = re.compile(r"^Test Case '(.+)' started\.")
XCTEST_ENDED = re.compile(r"^Test Case '(.+)' (?:passed|failed|skipped) \(")


def unfinished(lines):
    started = []  # (name, still running, latest case)
    for line in lines:
        line = line.rstrip("\n")
        if line == "◇ Test run started.":  # the run's own line, not a test
            continue
        match = SWIFT_CASE_STARTED.match(line)
        if match:
            for entry in reversed(started):
                if entry[1] and entry[0] == match.group(2):
                    entry[2] = match.group(1)
                    break
            continue
        match = SWIFT_STARTED.match(line) or XCTEST_STARTED.match(line)
        if match:
            started.append([match.group(1), True, None])
            continue
        match = SWIFT_ENDED.match(line) or XCTEST_ENDED.match(line)
        if match:
            # The latest start of that name that is still running ends here.
            for entry in reversed(started):
                if entry[1] and entry[0] == match.group(1):
                    entry[1] = False
                    break
    return [name + (f" (its case passing {case})" if case else "") for name, running, case in started if running]


def main():
    if len(sys.argv) != 2:
        print("usage: Scripts/unfinished-tests.py LOG", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
            names = unfinished(log)
    except OSError as error:
        print(f"unfinished-tests: cannot read {sys.argv[1]}: {error.strerror}", file=sys.stderr)
        return 2
    if not names:
        print("unfinished-tests: every test that started finished (the run stopped between tests or outside them)")
    for name in names:
        print(f"still running: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
