#!/usr/bin/env python3
"""Mutation fuzzer for loopviz: nothing a scenario file says may bring the headless commands down.

Every input is a lesson from examples/ (or a pathological scenario) with a few mutations stacked on it: byte
flips and interesting bytes, invalid UTF-8, NULs, CRLF and BOMs; deleted, duplicated, swapped and borrowed lines;
tokens swapped within and between lessons; numbers and durations made huge, zero, negative or tiny (0, -1, 1e308,
99999999999999999999, 1ns, 1us); long lines, deep indentation and deep nesting; range bombs (`first 100000000
calls:`, `send P 100000000 times`, `every 1ns`, `run M forever`); thousands of items; self-signalling sources,
ports that message themselves, nested re-entry from callouts and observers; and hostile control characters (ESC
sequences, C1, U+202E) in names, titles, `say` texts and file names.

Each input is run as `loopviz run F`, `loopviz check F` and `loopviz screen F` (and, for a slice,
`loopviz run F --trace jsonl|chrome|mermaid` or with `--until`), each in its own process group under a wall-time
limit and a memory limit (the peak resident set, VmHWM, polled from /proc every 20 ms; not RLIMIT_AS, which
Swift starts under but which counts every OS thread's 8 MiB stack reserve), with its output read into bounded
buffers.

A command fails when it
  - ends by a signal (SIGSEGV; SIGILL or SIGTRAP: a Swift trap, e.g. a failed `try!`, precondition, overflow),
  - runs past --timeout, or its resident set grows past --memory,
  - exits with a status outside --allowed-status (default 0,1,2,3,4),
  - writes more than --max-output bytes,
  - writes a raw unsafe character to human-readable output (the text trace, Mermaid, `check` and `screen`
    output, anything on stderr): C0 controls other than newline and tab, ESC, DEL, C1, the bidirectional
    controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), U+2028/U+2029 or invalid UTF-8 -
    the set TerminalSafeText.isUnsafe names,
  - or, for jsonl and chrome with exit 0, writes output that is not valid JSON.

Options: --inputs N or --seconds S (default 200 inputs), --seed S (any string, default 1), --bin PATH (default
.build/debug/loopviz), --jobs N (default 2), --out DIR (default .build-fuzz/scenarios), --timeout S (per command,
default 10), --memory MiB (default 1024), --allowed-status LIST (default 0,1,2,3,4), --max-events N (passed to
every command whose --help lists --max-events, so a runaway input ends at a small budget), --max-items N (default
4000), --fast-fail, --quiet; `--help` lists them all. Needs only Python 3 (tested with 3.11) and its standard
library.

Usage (from the repository root; the binary defaults to the debug build):
  Scripts/fuzz-scenarios.py --inputs 2000 --seed 1                  # 2000 inputs from seed 1
  Scripts/fuzz-scenarios.py --seconds 600 --bin .build/release/loopviz --jobs 2
  Scripts/fuzz-scenarios.py --replay                                # re-run every kept failure (exit 1 if
                                                                    # any still fails; input.min.loop if there)
  Scripts/fuzz-scenarios.py --replay .build-fuzz/scenarios/failures/000042-run-timeout
  Scripts/fuzz-scenarios.py --minimize .build-fuzz/scenarios/failures/000042-run-timeout
  Scripts/fuzz-scenarios.py --seed 1 --show 42                      # print input 42 of seed 1
  Scripts/fuzz-scenarios.py --self-test                             # the harness on a fake, misbehaving loopviz

Input N of seed S is the same on every machine and with any --jobs (for the same examples/ and script), so
`--seed S --show N` regenerates it. A failing input is kept in OUT/failures/NNNNNN-COMMAND-REASON/ (input.loop;
meta.json with the seed, the index, the mutations, the command, the reason, the exit status, time and peak
memory; stdout.head, stderr.head), at most --keep-per-class inputs per (command, reason) class. The last line is
the summary, e.g. "fuzz: 2000 inputs, 0 failures in 183 s"; the exit status is 0 with no failure, 1 with any, 2
for bad usage or when the unmutated lessons do not pass (a binary that rejects everything would make the run vacuous).
"""

from __future__ import annotations

import argparse
import codecs
import glob
import json
import os
import random
import re
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEEP_HEAD = 64 * 1024  # bytes of stdout/stderr kept for a failure's report
KEEP_JSON = 32 * 1024 * 1024  # bytes of JSON output kept to validate it

# ---------------------------------------------------------------------------------------------------------------
# Unsafe output: what TerminalSafeText.isUnsafe names, except the newline and tab that lay out an output.
# ---------------------------------------------------------------------------------------------------------------
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
JSON_RAW_CONTROL = re.compile(b"[\x00-\x08\x0b-\x1f]")


def describe_char(ch: str) -> str:
    return {"\x1b": "ESC", "\x00": "NUL", "\r": "CR", "\x07": "BEL", "\x7f": "DEL"}.get(ch, f"U+{ord(ch):04X}")


class Stream:
    """One output stream of a child: counted, its head kept, scanned for unsafe characters as it arrives."""

    def __init__(self, name: str, human: bool, keep: int):
        self.name = name
        self.human = human
        self.keep = keep
        self.head = bytearray()
        self.total = 0
        self.problem: str | None = None
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.offset = 0  # characters decoded so far, for the report

    def feed(self, data: bytes, final: bool = False) -> None:
        self.total += len(data)
        if len(self.head) < self.keep:
            self.head += data[: self.keep - len(self.head)]
        if not self.human or self.problem is not None:
            return
        try:
            text = self.decoder.decode(data, final)
        except UnicodeDecodeError as error:
            self.problem = f"invalid UTF-8 on {self.name} (byte 0x{error.object[error.start]:02X})"
            return
        match = UNSAFE.search(text)
        if match:
            at = self.offset + match.start()
            context = text[max(0, match.start() - 30) : match.start() + 10]
            self.problem = f"raw {describe_char(match.group())} on {self.name} at char {at}: {context!r}"
        self.offset += len(text)


# ---------------------------------------------------------------------------------------------------------------
# Running one command
# ---------------------------------------------------------------------------------------------------------------
@dataclass
class Limits:
    timeout: float
    memory: int  # bytes of resident set
    max_output: int
    allowed: frozenset[int]
    address_space: int = 0  # RLIMIT_AS in bytes, 0 = none (see --address-space)


@dataclass
class Result:
    label: str
    argv: list[str]
    status: int | None = None  # exit status, or None
    signal: int | None = None
    elapsed: float = 0.0
    peak_rss: int = 0
    stdout: bytes = b""
    stderr: bytes = b""
    stdout_total: int = 0
    stderr_total: int = 0
    reason: str | None = None  # None: the command behaved
    kind: str | None = None  # short class of the reason, for grouping and file names


# The process groups of the commands running now, so that an interrupted fuzz run ends them too.
RUNNING: set[int] = set()
RUNNING_LOCK = threading.Lock()


def end_running_commands(signum=None, frame=None) -> None:
    with RUNNING_LOCK:
        for pid in RUNNING:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    if signum is not None:
        print(f"fuzz: interrupted by {signal.Signals(signum).name}", file=sys.stderr)
        os._exit(128 + signum)


def run_command(argv: list[str], label: str, limits: Limits, stdout_human: bool, json_kind: str | None) -> Result:
    result = Result(label=label, argv=argv)
    out = Stream("stdout", stdout_human, KEEP_JSON if json_kind else KEEP_HEAD)
    err = Stream("stderr", True, KEEP_HEAD)
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=str(ROOT),
        env={**os.environ, "NO_COLOR": "1", "TERM": "dumb"},
    )
    with RUNNING_LOCK:
        RUNNING.add(proc.pid)
    if limits.address_space:
        try:
            resource.prlimit(proc.pid, resource.RLIMIT_AS, (limits.address_space, limits.address_space))
        except (ProcessLookupError, PermissionError, OSError):
            pass
    killed: str | None = None
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ, out)
    selector.register(proc.stderr, selectors.EVENT_READ, err)
    open_streams = 2
    status_file = f"/proc/{proc.pid}/status"
    while open_streams:
        for key, _ in selector.select(timeout=0.02):
            data = os.read(key.fd, 65536)
            if not data:
                selector.unregister(key.fileobj)
                key.data.feed(b"", final=True)
                open_streams -= 1
            else:
                key.data.feed(data)
        if killed:
            continue
        rss = resident(status_file)
        result.peak_rss = max(result.peak_rss, rss)
        if time.monotonic() - start > limits.timeout:
            killed = "timeout"
        elif rss > limits.memory:
            killed = "memory"
        elif out.total + err.total > limits.max_output:
            killed = "output"
        if killed:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    while True:  # the streams are closed; the process may still run (or have closed them and hung)
        pid, wait_status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if not killed and time.monotonic() - start > limits.timeout:
            killed = "timeout"
            os.killpg(proc.pid, signal.SIGKILL)
        time.sleep(0.005)
    proc.returncode = 0  # reaped here; keep Popen from waiting again
    with RUNNING_LOCK:
        RUNNING.discard(proc.pid)
    proc.stdout.close()
    proc.stderr.close()
    selector.close()
    result.elapsed = time.monotonic() - start
    if os.WIFSIGNALED(wait_status):
        result.signal = os.WTERMSIG(wait_status)
    else:
        result.status = os.WEXITSTATUS(wait_status)
    result.stdout, result.stderr = bytes(out.head), bytes(err.head)
    result.stdout_total, result.stderr_total = out.total, err.total

    mib = limits.memory // (1024 * 1024)
    if killed == "timeout":
        result.kind, result.reason = "timeout", f"no exit within {limits.timeout:g} s"
    elif killed == "memory" or result.peak_rss > limits.memory:
        result.kind = "memory"
        result.reason = f"resident set {result.peak_rss // (1024 * 1024)} MiB over the {mib} MiB limit"
    elif killed == "output":
        result.kind, result.reason = "output", f"more than {limits.max_output} bytes of output"
    elif result.signal is not None:
        name = signal.Signals(result.signal).name if result.signal in signal.valid_signals() else str(result.signal)
        result.kind, result.reason = name, f"ended by {name} (exit {128 + result.signal})"
    elif result.status not in limits.allowed:
        result.kind = f"exit{result.status}"
        result.reason = f"exit status {result.status} is not one of {sorted(limits.allowed)}"
    elif err.problem:
        result.kind, result.reason = "unsafe-stderr", err.problem
    elif out.problem:
        result.kind, result.reason = "unsafe-stdout", out.problem
    elif json_kind and result.status == 0 and out.total <= KEEP_JSON:
        problem = json_problem(result.stdout, json_kind)
        if problem:
            result.kind, result.reason = "bad-json", problem
    return result


def resident(status_file: str) -> int:
    """The peak resident set so far (VmHWM), in bytes; 0 once the process has exited.

    Not wait4's ru_maxrss: Linux carries the forking parent's peak across exec into it, so it would report
    this script's own size for every small command."""
    try:
        with open(status_file) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def json_problem(data: bytes, kind: str) -> str | None:
    raw = JSON_RAW_CONTROL.search(data)
    if raw:
        return f"raw control byte 0x{raw.group()[0]:02X} in {kind} output at byte {raw.start()}"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"{kind} output is not UTF-8 at byte {error.start}"
    try:
        if kind == "jsonl":
            for number, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    json.loads(line)
        else:
            json.loads(text)
    except json.JSONDecodeError as error:
        return f"{kind} output is not valid JSON: {error}"
    return None


# ---------------------------------------------------------------------------------------------------------------
# The commands one input gets
# ---------------------------------------------------------------------------------------------------------------
def plan_commands(rng: random.Random, binary: str, path: str, extra: dict[str, list[str]] | None = None
                  ) -> list[tuple[str, list[str], bool, str | None]]:
    """(label, argv, stdout is human-readable, json kind) for each command this input runs; EXTRA holds the
    options each subcommand gets on top (--max-events, where the binary has it)."""
    extra = extra or {}
    screen = [binary, "screen", path]
    if rng.random() < 0.3:
        screen += ["--step", rng.choice(["0", "1", "7", "100", "5000", "99999999999"])]
    if rng.random() < 0.3:
        screen += ["--size", rng.choice(["80x24", "20x5", "1x1", "200x60", "40x100", "300x100"])]
    if rng.random() < 0.2:
        screen += [rng.choice(["--ascii", "--no-color"])]
    run = [binary, "run", path]
    commands = [
        ("run", run, True, None),
        ("check", [binary, "check", path], True, None),
        ("screen", screen, True, None),
    ]
    roll = rng.random()
    if roll < 0.3:
        fmt = rng.choice(["jsonl", "chrome", "mermaid"])
        json_kind = None if fmt == "mermaid" else fmt
        commands.append((f"run-{fmt}", run + ["--trace", fmt], fmt == "mermaid", json_kind))
    elif roll < 0.4:
        until = rng.choice(["0ms", "1ns", "100000s", "3s"])
        commands.append(("run-until", run + ["--until", until], True, None))
    return [(label, argv + extra.get(argv[1], []), human, kind) for label, argv, human, kind in commands]


def budget_options(binary: str, max_events: int | None) -> dict[str, list[str]]:
    """`--max-events N` for each subcommand whose help lists it (older binaries have no event budget)."""
    if not max_events:
        return {}
    options = {}
    for command in ("run", "check", "screen"):
        try:
            help_text = subprocess.run([binary, command, "--help"], capture_output=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        if b"--max-events" in help_text:
            options[command] = ["--max-events", str(max_events)]
    return options


# ---------------------------------------------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------------------------------------------
INTERESTING_BYTES = [0x00, 0x07, 0x08, 0x09, 0x0A, 0x0D, 0x1B, 0x20, 0x22, 0x23, 0x2C, 0x2E, 0x3A, 0x5C, 0x7F,
                     0x80, 0x9B, 0xC0, 0xC2, 0xE2, 0xED, 0xF4, 0xFF]
INVALID_UTF8 = [b"\xff", b"\xfe\xff", b"\xc0\x80", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                b"\xf8\x88\x80\x80\x80", b"\x80\x80\x80", b"\xc2\x9b", b"\xef\xbb\xbf"]
NUMBERS = ["0", "-1", "1", "2", "1e308", "1e-308", "99999999999999999999", "18446744073709551616",
           "9223372036854775807", "-9223372036854775808", "4294967296", "0.0000001", "1.5", "00000000001",
           "1.2.3", "1..", "-0", "100000000", "65536", "1000000"]
UNITS = ["", "ns", "us", "µs", "ms", "s", "m", "h", "x", "sms"]
DURATIONS = ["0ms", "0s", "-1ms", "1ns", "1us", "1e308s", "99999999999999999999s", "99999999999999999999ns",
             "0.000001ms", "1e-9s", "9223372036854775807ns", "18446744073709551616ms", "100000s", "1ms"]
HOSTILE = ["\x1b]0;PWNED\x07\x1b[2J", "\x1b]52;c;cHduZWQ=\x07", "\x1b[31mred\x1b[0m", "\u202eevil\u202c",
           "\u2066iso\u2069", "\x9b2J", "\x85", "a\rb", "\x00", "\x7f", "\u200f", "\u2028", "\x08\x08\x08",
           "\u061c", "\x1bc", "e\u0301" * 3]
RANGE_BOMBS = [
    "first 100000000 calls: signal {src}",
    "first 99999999999999999999 calls: wakeup",
    "call 99999999999999999999: stop",
    "call 0: stop",
    "send {port} 100000000 times",
    "send {port} 99999999999999999999 times",
    "work 99999999999999999999s",
    "work 1e308s",
    "run default forever",
    "run default for 99999999999s",
    "CFRunLoopRun",
    "RunLoop.run",
    "reschedule {timer} in 0ms",
    "operation bomb1..100000000 on {queue} work 1ms",
    "operation bomb1..1000 on {queue} work 1ns",
    "operation bomb99999999999999999999..1 on {queue} work 1ms",
]
ITEM_LINES = [
    "port p{n} in default",
    "source0 s{n} in default",
    "timer t{n} at {ms}ms in default",
    "timer r{n} at 1ms every 100ms in default",
    "observer o{n} on all in default",
    "operation op{n} on {queue} work 1ms",
]


def tokens_of(text: str) -> list[str]:
    return re.findall(r'"[^"\n]*"|[^\s"]+', text)


@dataclass
class Corpus:
    files: list[tuple[str, bytes]]
    paths: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    lines: list[bytes] = field(default_factory=list)

    @staticmethod
    def load(pattern: str) -> Corpus:
        paths = sorted(glob.glob(str(ROOT / pattern)))
        corpus = Corpus([(Path(p).name, Path(p).read_bytes()) for p in paths], paths)
        for _, data in corpus.files:
            text = data.decode("utf-8", "replace")
            corpus.tokens += tokens_of(text)
            corpus.lines += [l for l in data.split(b"\n") if l.strip()]
        return corpus


def names_in(text: str) -> dict[str, list[str]]:
    """Item, thread and queue names declared in a scenario, to aim range bombs and re-entry at real targets."""
    found: dict[str, list[str]] = {"source0": [], "port": [], "timer": [], "thread": [], "queue": []}
    for kind in found:
        found[kind] = re.findall(rf"^\s*{kind}\s+([A-Za-z_][\w.]*)", text, re.M)
    return found


def pick_index(rng: random.Random, n: int) -> int:
    return rng.randrange(n) if n else 0


def m_byte_flip(rng, data, corpus):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if b:
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def m_byte_set(rng, data, corpus):
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = pick_index(rng, len(b))
        if rng.random() < 0.5 and b:
            b[i] = rng.choice(INTERESTING_BYTES)
        else:
            b[i:i] = bytes([rng.choice(INTERESTING_BYTES)])
    return bytes(b)


def m_chunk(rng, data, corpus):
    if len(data) < 2:
        return data
    i = rng.randrange(len(data))
    j = min(len(data), i + rng.randint(1, 64))
    choice = rng.random()
    if choice < 0.4:
        return data[:i] + data[j:]
    if choice < 0.7:
        return data[:j] + data[i:j] * rng.randint(1, 20) + data[j:]
    _, other = rng.choice(corpus.files)
    k = rng.randrange(len(other))
    return data[:i] + other[k : k + rng.randint(1, 200)] + data[i:]


def m_invalid_utf8(rng, data, corpus):
    i = pick_index(rng, len(data))
    return data[:i] + rng.choice(INVALID_UTF8) * rng.randint(1, 3) + data[i:]


def m_nul(rng, data, corpus):
    i = pick_index(rng, len(data))
    return data[:i] + b"\x00" * rng.choice([1, 1, 2, 1000]) + data[i:]


def m_line_edit(rng, data, corpus):
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 3)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        op = rng.random()
        if op < 0.3:
            del lines[i]
        elif op < 0.55:
            lines[i:i] = [lines[i]] * rng.choice([1, 1, 2, 10, 100])
        elif op < 0.75:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op < 0.9:
            lines.insert(i, rng.choice(corpus.lines))
        else:
            line = lines.pop(i)
            lines.insert(rng.randrange(len(lines) + 1), line)
    return b"\n".join(lines)


def m_indent(rng, data, corpus):
    lines = data.split(b"\n")
    if not lines:
        return data
    i = rng.randrange(len(lines))
    op = rng.random()
    stripped = lines[i].lstrip(b" \t")
    indent = len(lines[i]) - len(stripped)
    if op < 0.3:
        lines[i] = b" " * max(0, indent + rng.choice([-4, -2, -1, 1, 2, 3, 4])) + stripped
    elif op < 0.5:
        lines[i] = b"\t" * rng.randint(1, 3) + stripped
    elif op < 0.8:
        lines[i] = b" " * rng.choice([100, 1000, 10000, 100000]) + stripped
    else:
        # a staircase: every following line one step deeper
        for k in range(i, len(lines)):
            lines[k] = b" " * (2 * (k - i + 1)) + lines[k]
    return b"\n".join(lines)


def m_token_swap(rng, data, corpus):
    text = data.decode("utf-8", "surrogateescape")
    spans = [m.span() for m in re.finditer(r'"[^"\n]*"|[^\s"]+', text)]
    if not spans:
        return data
    for _ in range(rng.randint(1, 3)):
        spans = [m.span() for m in re.finditer(r'"[^"\n]*"|[^\s"]+', text)]
        if not spans:
            break
        a, b = spans[rng.randrange(len(spans))]
        if rng.random() < 0.6:
            replacement = rng.choice(corpus.tokens)  # from any lesson
        else:
            c, d = spans[rng.randrange(len(spans))]
            replacement = text[c:d]
        text = text[:a] + replacement + text[b:]
    return text.encode("utf-8", "surrogateescape")


def m_number(rng, data, corpus):
    text = data.decode("utf-8", "surrogateescape")
    spans = [m.span() for m in re.finditer(r"-?\d+(?:\.\d+)?(?:[a-zµ]+)?", text)]
    if not spans:
        return data
    for _ in range(rng.randint(1, 3)):
        spans = [m.span() for m in re.finditer(r"-?\d+(?:\.\d+)?(?:[a-zµ]+)?", text)]
        a, b = rng.choice(spans)
        word = text[a:b]
        unit = re.sub(r"^-?[\d.]+", "", word)
        if rng.random() < 0.5 and unit:
            new = rng.choice(DURATIONS)
        else:
            new = rng.choice(NUMBERS) + (unit if rng.random() < 0.8 else rng.choice(UNITS))
        text = text[:a] + new + text[b:]
    return text.encode("utf-8", "surrogateescape")


def m_long_line(rng, data, corpus):
    lines = data.split(b"\n")
    i = pick_index(rng, len(lines))
    n = rng.choice([1000, 10000, 100000, 1000000])
    shape = rng.random()
    if shape < 0.25:
        line = b"x" * n
    elif shape < 0.45:
        line = b'  say "' + b"A" * n + b'"'
    elif shape < 0.6:
        line = b"  " + b"signal s " * (n // 9)
    elif shape < 0.75:
        line = bytes(rng.getrandbits(8) for _ in range(min(n, 20000)))
    elif shape < 0.85:
        line = b"  port " + b"p" * n + b" in default"
    else:
        line = "  say \"e" .encode() + "\u0301".encode() * (n // 2) + b'"'  # one grapheme, n/2 marks
    lines.insert(i, line)
    return b"\n".join(lines)


def m_hostile(rng, data, corpus):
    text = data.decode("utf-8", "surrogateescape")
    evil = rng.choice(HOSTILE)
    op = rng.random()
    if op < 0.35:
        # inside a name: the declared one and every use, so the file may still parse
        names = [n for kind in names_in(text).values() for n in kind]
        if names:
            name = rng.choice(names)
            text = re.sub(rf"\b{re.escape(name)}\b", name + evil, text)
            return text.encode("utf-8", "surrogateescape")
    if op < 0.6:
        text = re.sub(r'"([^"\n]*)"', lambda m: '"' + m.group(1) + evil + '"', text, count=rng.randint(1, 5))
    elif op < 0.8:
        text = f'say "{evil}" at 1ms\n' + text if rng.random() < 0.5 else text + f'\nsay "{evil}" at 0ms\n'
    else:
        lines = text.split("\n")
        i = pick_index(rng, len(lines))
        lines[i] = lines[i] + evil
        text = "\n".join(lines)
    return text.encode("utf-8", "surrogateescape")


def m_range_bomb(rng, data, corpus):
    text = data.decode("utf-8", "surrogateescape")
    names = names_in(text)
    bomb = rng.choice(RANGE_BOMBS).format(
        src=rng.choice(names["source0"] or ["s"]),
        port=rng.choice(names["port"] or ["p"]),
        timer=rng.choice(names["timer"] or ["t"]),
        queue=rng.choice(names["queue"] or ["q"]),
    )
    lines = text.split("\n")
    # under an item or a program: after a line that is indented, at the same indentation
    candidates = [i for i, l in enumerate(lines) if l.startswith("  ") and not l.lstrip().startswith("#")]
    if candidates:
        i = rng.choice(candidates)
        indent = len(lines[i]) - len(lines[i].lstrip(" "))
        lines.insert(i + 1, " " * indent + bomb)
    else:
        lines.append("  " + bomb)
    text = "\n".join(lines)
    if rng.random() < 0.5:
        text = re.sub(r"every \S+", "every " + rng.choice(["1ns", "1us", "0ms", "1ms"]), text)
    return text.encode("utf-8", "surrogateescape")


def m_many_items(rng, data, corpus, max_items=4000):
    text = data.decode("utf-8", "surrogateescape")
    names = names_in(text)
    lines = text.split("\n")
    n = rng.choice([100, 1000, max_items])
    template = rng.choice(ITEM_LINES)
    queue = rng.choice(names["queue"] or ["q"])
    block = ["  " + template.format(n=k, ms=rng.randint(1, 1000), queue=queue) for k in range(n)]
    thread_lines = [i for i, l in enumerate(lines) if re.match(r"thread\s", l)]
    at = thread_lines[0] + 1 if thread_lines else len(lines)
    if not thread_lines:
        block = ["thread T"] + block + ["  run default for 50ms"]
    lines[at:at] = block
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def m_line_endings(rng, data, corpus):
    op = rng.random()
    if op < 0.4:
        return data.replace(b"\n", b"\r\n")
    if op < 0.6:
        return b"\xef\xbb\xbf" + data
    if op < 0.8:
        return data.rstrip(b"\n")
    return data.replace(b"\n", b"\r")


def m_splice(rng, data, corpus):
    _, other = rng.choice(corpus.files)
    a = data.split(b"\n")
    b = other.split(b"\n")
    return b"\n".join(a[: pick_index(rng, len(a) + 1)] + b[pick_index(rng, len(b) + 1) :])


MUTATORS = [
    (m_byte_flip, 8), (m_byte_set, 8), (m_chunk, 6), (m_invalid_utf8, 4), (m_nul, 3), (m_line_edit, 12),
    (m_indent, 5), (m_token_swap, 12), (m_number, 12), (m_long_line, 2), (m_hostile, 6), (m_range_bomb, 6),
    (m_many_items, 2), (m_line_endings, 2), (m_splice, 4),
]


# ---------------------------------------------------------------------------------------------------------------
# Pathological scenarios of the issue, each with a few knobs
# ---------------------------------------------------------------------------------------------------------------
def p_self_signal(rng):
    run = rng.choice(["run default for 20ms", "run default for 1s", "run default forever", "CFRunLoopRun"])
    wake = rng.choice(["\n    wakeup", ""])
    return f"""thread T
  port keepAlive in default
  source0 s in default
    signal s{wake}
  {run}
at 1ms on T
  signal s
  wakeup
"""


def p_mutual_signal(rng):
    return f"""thread T
  port keepAlive in default
  source0 a in default
    signal b
  source0 b in default
    signal a
    wakeup
  run default for {rng.choice(["20ms", "1s", "60s"])}
at 1ms on T
  signal a
  wakeup
"""


def p_port_self_send(rng):
    return f"""thread T
  port p in default
    send p {rng.choice(["", "2 times", "100 times"])}
  run default for {rng.choice(["20ms", "1s"])}
at 1ms on T
  send p
"""


def p_tiny_timer(rng):
    every = rng.choice(["1ns", "1us", "1ms", "0ms", "10us"])
    run = rng.choice(["run default for 20ms", "run default forever", "run default for 100000s", "CFRunLoopRun"])
    work = rng.choice(["", "\n    work 0ms", "\n    wakeup"])
    until = rng.choice(["", "until 100000s\n", "until 1s\n"])
    return f"""{until}thread T
  timer t at 1ms every {every} in default{work}
  {run}
"""


def p_nested_reentry(rng):
    via = rng.random()
    inner = rng.choice(["run default for 1s", "run default forever", "CFRunLoopRun", "RunLoop.run"])
    if via < 0.4:
        return f"""thread T
  source0 s
    signal s
    {inner}
  run default for 1s
at 1ms on T
  signal s
  wakeup
"""
    if via < 0.6:
        return f"""thread T
  port keepAlive in default
  timer t at 1ms every 1ms in default
    {inner}
  run default for 1s
"""
    if via < 0.8:
        return f"""thread T
  port keepAlive in default
  observer o on entry in default
    {inner}
  run default for 1s
"""
    return f"""thread T
  port keepAlive in default
  port p in default
    send p
    {inner}
  run default for 1s
at 1ms on T
  send p
"""


def p_forever(rng):
    return rng.choice([
        "thread T\n  port keepAlive in default\n  run default forever\n",
        "thread T\n  timer t at 1ms every 1ms in default\n  CFRunLoopRun\n",
        "thread T main\n  RunLoop.run\n",
        "thread T\n  port keepAlive in default\n  while not done RunLoop.run\nat 1ms on T\n  set done\n",
        "thread T\n  while not never RunLoop.run\n",
    ])


def p_deep_nesting(rng):
    depth = rng.choice([50, 500, 5000])
    kind = rng.random()
    lines = ["thread T", "  port keepAlive in default", "  source0 s in default"]
    if kind < 0.5:
        for d in range(depth):
            lines.append("  " * (d + 2) + f"block b{d}")
    else:
        for d in range(depth):
            lines.append("  " * (d + 2) + "first 1 calls:")
    lines += ["  run default for 10ms", "at 1ms on T", "  signal s", "  wakeup"]
    return "\n".join(lines) + "\n"


def p_perform_cycle(rng):
    wait = rng.choice(["wait", ""])
    return f"""thread A
  port keepAlive in default
  perform ping on B {wait}
  run default for 100ms
thread B
  port keepAlive in default
  perform pong on A {wait}
  perform self on B {wait}
  run default for 100ms
"""


def p_pool(rng):
    n = rng.choice([10, 1000])
    limit = rng.choice(["1", "default", "1000", "0", "99999999999999999999"])
    idle = rng.choice(["0ms", "1ns", "5s"])
    return f"""queue q limit {limit} idle {idle}
thread main
  operation u1..{n} on q {rng.choice(["work 1ns", "async reply after 1ns", "work 1ms check every 1ns", "async"])}
  {rng.choice(["wait for q", "cancel all on q", "suspend q", "wait for q"])}
  detach d
    wait for q
    operation late on q after u1 work 1ms
"""


def p_hostile_names(rng):
    e = rng.choice(HOSTILE)
    return f"""scenario "title{e}"

thread T{e}
  port keep{e}Alive in default
  source0 s{e} in default
    say "{e}"
      claims earlier source0 s{e} once
  run default for 10ms

at 1ms on T{e}
  signal s{e}
  wakeup

say "{e}" at 2ms
  claims earlier 0.001 T{e}: source0 s{e}
  claims next result stopped

expect in order
  0.001 source0 s{e}
"""


PATHOLOGICAL = [p_self_signal, p_mutual_signal, p_port_self_send, p_tiny_timer, p_nested_reentry, p_forever,
                p_deep_nesting, p_perform_cycle, p_pool, p_hostile_names]
HOSTILE_FILE_NAMES = ["in\x1b[31m.loop", "in\u202egol.loop", "in\x07\x9b.loop", "in\r.loop", "in\n.loop"]
MAX_INPUT = 4 * 1024 * 1024


def make_input(seed: str, index: int, corpus: Corpus, max_items: int) -> tuple[bytes, list[str], str]:
    """Input INDEX of SEED: its bytes, what was done to it, and the file name it runs under."""
    rng = random.Random(f"{seed}/{index}")
    log: list[str] = []
    if rng.random() < 0.2:
        maker = rng.choice(PATHOLOGICAL)
        data = maker(rng).encode("utf-8", "surrogateescape")
        log.append(maker.__name__)
    else:
        name, data = rng.choice(corpus.files)
        log.append(name)
    count = rng.choice([0, 1, 1, 1, 2, 2, 3, 4, 6]) if not log[0].startswith("p_") else rng.choice([0, 0, 1, 2])
    funcs, weights = zip(*MUTATORS)
    for _ in range(count):
        mutator = rng.choices(funcs, weights)[0]
        if mutator is m_many_items:
            data = m_many_items(rng, data, corpus, max_items)
        else:
            data = mutator(rng, data, corpus)
        log.append(mutator.__name__)
        if len(data) > MAX_INPUT:
            data = data[:MAX_INPUT]
    file_name = "input.loop"
    if rng.random() < 0.03:
        file_name = rng.choice(HOSTILE_FILE_NAMES)
        log.append("hostile file name")
    return data, log, file_name


# ---------------------------------------------------------------------------------------------------------------
# The campaign
# ---------------------------------------------------------------------------------------------------------------
class Campaign:
    def __init__(self, args, corpus: Corpus, limits: Limits):
        self.args = args
        self.corpus = corpus
        self.limits = limits
        self.out = Path(args.out)
        self.failures_dir = self.out / "failures"
        self.lock = threading.Lock()
        self.next_index = args.start
        self.done = 0
        self.failed_inputs = 0
        self.classes: dict[str, list[int]] = {}
        self.kept = 0
        self.commands = 0
        self.slowest: tuple[float, str] = (0.0, "")
        self.peak: tuple[int, str] = (0, "")
        self.start = time.monotonic()
        self.last_progress = self.start
        self.extra = budget_options(args.bin, args.max_events)

    def take(self) -> int | None:
        with self.lock:
            if self.args.inputs is not None and self.next_index >= self.args.start + self.args.inputs:
                return None
            if self.args.seconds is not None and time.monotonic() - self.start >= self.args.seconds:
                return None
            index = self.next_index
            self.next_index += 1
            return index

    def worker(self, number: int) -> None:
        work = self.out / "work" / f"w{number}"
        while (index := self.take()) is not None:
            if work.exists():
                shutil.rmtree(work)
            work.mkdir(parents=True)
            data, log, file_name = make_input(self.args.seed, index, self.corpus, self.args.max_items)
            path = work / file_name
            path.write_bytes(data)
            rng = random.Random(f"{self.args.seed}/{index}/commands")
            results = []
            for label, argv, human, json_kind in plan_commands(rng, self.args.bin, str(path), self.extra):
                result = run_command(argv, label, self.limits, human, json_kind)
                results.append(result)
                if result.reason and self.args.fast_fail:
                    break
            self.record(index, data, log, file_name, results)
        if work.exists():
            shutil.rmtree(work)

    def record(self, index, data, log, file_name, results) -> None:
        failures = [r for r in results if r.reason]
        with self.lock:
            self.done += 1
            self.commands += len(results)
            for r in results:
                if r.elapsed > self.slowest[0]:
                    self.slowest = (r.elapsed, f"input {index} {r.label}")
                if r.peak_rss > self.peak[0]:
                    self.peak = (r.peak_rss, f"input {index} {r.label}")
            if failures:
                self.failed_inputs += 1
            for r in failures:
                key = f"{r.label}: {r.kind}"
                self.classes.setdefault(key, []).append(index)
                if len(self.classes[key]) <= self.args.keep_per_class:
                    self.keep(index, data, log, file_name, r)
                    if not self.args.quiet:
                        print(f"FAIL input {index} [{' + '.join(log)}] {r.label}: {r.reason}", file=sys.stderr)
            now = time.monotonic()
            if not self.args.quiet and now - self.last_progress >= 30:
                self.last_progress = now
                print(f"... {self.done} inputs, {self.failed_inputs} failures, {now - self.start:.0f} s",
                      file=sys.stderr)

    def keep(self, index, data, log, file_name, r: Result) -> None:
        directory = self.failures_dir / f"{index:06d}-{r.label}-{r.kind}"
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "input.loop").write_bytes(data)
        path_arg = next(a for a in r.argv if a.endswith(file_name))
        meta = {
            "seed": self.args.seed, "index": index, "mutations": log, "file_name": file_name,
            "command": ["{bin}" if a == self.args.bin else "{input}" if a == path_arg else a for a in r.argv],
            "label": r.label, "kind": r.kind, "reason": r.reason, "status": r.status, "signal": r.signal,
            "elapsed_s": round(r.elapsed, 3), "peak_rss_mib": round(r.peak_rss / 1048576, 1),
            "stdout_bytes": r.stdout_total, "stderr_bytes": r.stderr_total,
            "limits": {"timeout_s": self.limits.timeout, "memory_mib": self.limits.memory // 1048576},
        }
        (directory / "meta.json").write_text(json.dumps(meta, indent=2, ensure_ascii=True) + "\n")
        (directory / "stdout.head").write_bytes(r.stdout[:KEEP_HEAD])
        (directory / "stderr.head").write_bytes(r.stderr[:KEEP_HEAD])
        self.kept += 1


def baseline(args, corpus: Corpus, limits: Limits) -> bool:
    """The unmutated lessons must run, check and render cleanly, or the fuzz run would say nothing."""
    ok = True
    extra = budget_options(args.bin, args.max_events)
    for path in corpus.paths:
        name = Path(path).name
        for label in ("run", "check", "screen"):
            argv = [args.bin, label, path] + extra.get(label, [])
            r = run_command(argv, label, limits, True, None)
            if r.reason or r.status != 0:
                print(f"fuzz: baseline: {label} {name}: {r.reason or f'exit {r.status}'}: "
                      f"{r.stderr[:300].decode('utf-8', 'replace')}", file=sys.stderr)
                ok = False
    return ok


def fuzz(args, corpus: Corpus, limits: Limits) -> int:
    if not args.no_baseline and not baseline(args, corpus, limits):
        print("fuzz: the unmutated lessons do not pass; not fuzzing", file=sys.stderr)
        return 2
    campaign = Campaign(args, corpus, limits)
    if campaign.failures_dir.exists() and not args.keep_old:
        shutil.rmtree(campaign.failures_dir)
    threads = [threading.Thread(target=campaign.worker, args=(n,)) for n in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shutil.rmtree(campaign.out / "work", ignore_errors=True)
    elapsed = time.monotonic() - campaign.start
    for key, indexes in sorted(campaign.classes.items()):
        shown = ", ".join(map(str, indexes[:8])) + (" ..." if len(indexes) > 8 else "")
        print(f"  {key}: {len(indexes)} inputs ({shown})")
    if campaign.kept:
        print(f"  kept {campaign.kept} failing inputs in {campaign.failures_dir}")
    print(f"  {campaign.commands} commands; slowest {campaign.slowest[0]:.2f} s ({campaign.slowest[1]}); "
          f"peak memory {campaign.peak[0] / 1048576:.0f} MiB ({campaign.peak[1]}); seed {args.seed}")
    if args.max_events:
        passed = ", ".join(sorted(campaign.extra)) or "no command (this binary has no --max-events)"
        print(f"  --max-events {args.max_events} passed to {passed}")
    print(f"fuzz: {campaign.done} inputs, {campaign.failed_inputs} failures in {elapsed:.0f} s")
    return 1 if campaign.failed_inputs else 0


# ---------------------------------------------------------------------------------------------------------------
# Replay and minimize kept failures
# ---------------------------------------------------------------------------------------------------------------
def failure_dirs(paths: list[str], out: str) -> list[Path]:
    if not paths:
        paths = [str(Path(out) / "failures")]
    found = []
    for p in map(Path, paths):
        if (p / "meta.json").exists():
            found.append(p)
        else:
            found += sorted(d for d in p.glob("*") if (d / "meta.json").exists())
    return found


def rerun(directory: Path, data: bytes, args, limits: Limits, work: Path) -> Result:
    meta = json.loads((directory / "meta.json").read_text())
    work.mkdir(parents=True, exist_ok=True)
    path = work / meta["file_name"]
    path.write_bytes(data)
    argv = [args.bin if a == "{bin}" else str(path) if a == "{input}" else a for a in meta["command"]]
    label = meta["label"]
    fmt = argv[argv.index("--trace") + 1] if "--trace" in argv else "text"
    return run_command(argv, label, limits, fmt in ("text", "mermaid"), fmt if fmt in ("jsonl", "chrome") else None)


def replay(args, limits: Limits) -> int:
    dirs = failure_dirs(args.replay, args.out)
    work = Path(args.out) / "replay"
    still = 0
    for d in dirs:
        meta = json.loads((d / "meta.json").read_text())
        input_file = d / "input.min.loop" if (d / "input.min.loop").exists() and not args.original else d / "input.loop"
        r = rerun(d, input_file.read_bytes(), args, limits, work)
        shutil.rmtree(work, ignore_errors=True)
        if r.reason:
            still += 1
            print(f"FAIL {d.name}: {r.reason} ({r.elapsed:.1f} s)")
        else:
            print(f"ok   {d.name}: exit {r.status} in {r.elapsed:.2f} s (was: {meta['reason']})")
    print(f"fuzz: replayed {len(dirs)} failures, {still} still fail")
    return 1 if still else 0


def minimize(args, limits: Limits) -> int:
    """Delta-debugging over lines, then over the characters of each line, keeping the same (command, reason)."""
    for d in failure_dirs(args.minimize, args.out):
        meta = json.loads((d / "meta.json").read_text())
        data = (d / "input.loop").read_bytes()
        work = Path(args.out) / "minimize"
        tests = 0

        def fails(candidate: bytes) -> bool:
            nonlocal tests
            tests += 1
            r = rerun(d, candidate, args, limits, work)
            return r.kind == meta["kind"]

        if not fails(data):
            print(f"{d.name}: does not fail any more; not minimized")
            continue
        lines = data.split(b"\n")
        chunk = len(lines) // 2
        while chunk >= 1 and tests < args.max_tests:
            i = 0
            changed = False
            while i < len(lines) and tests < args.max_tests:
                candidate = lines[:i] + lines[i + chunk :]
                if candidate and fails(b"\n".join(candidate)):
                    lines = candidate
                    changed = True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
        # then shorten long lines and tokens
        for n in range(len(lines)):
            while tests < args.max_tests and len(lines[n]) > 1:
                half = len(lines[n]) // 2
                shorter = lines[n][:half] if len(lines[n]) > 200 else None
                if shorter is not None and fails(b"\n".join(lines[:n] + [shorter] + lines[n + 1 :])):
                    lines[n] = shorter
                    continue
                break
        result = b"\n".join(lines)
        if not result.endswith(b"\n"):
            result += b"\n"
        if not fails(result):
            result = b"\n".join(lines)
        (d / "input.min.loop").write_bytes(result)
        shutil.rmtree(work, ignore_errors=True)
        print(f"{d.name}: {len(data)} -> {len(result)} bytes in {tests} runs: {d / 'input.min.loop'}")
    return 0


# ---------------------------------------------------------------------------------------------------------------
# Self-test: the harness itself must see every kind of failure (a fuzzer that misses them would say nothing)
# ---------------------------------------------------------------------------------------------------------------
FAKE_LOOPVIZ = r"""#!/usr/bin/env bash
# A stand-in for loopviz that misbehaves as its input file asks.
file="$2"
case "$(cat "$file")" in
  SEGV) kill -SEGV $$ ;;
  HANG) exec sleep 1000 ;;
  CLOSED) exec 1>&- 2>&-; exec sleep 1000 ;;
  MEM) exec python3 -c "x = bytearray(400 << 20); x[::4096] = b'x' * len(x[::4096]); import time; time.sleep(30)" ;;
  EXIT) exit 7 ;;
  ESC) printf 'time \033]0;PWNED\007\n' ;;
  RLO) printf 'name \342\200\256\n' ;;
  C1) printf 'x \302\233\n' ;;
  BADUTF8) printf 'x \377\n' ;;
  STDERR) printf 'error: \033[2J\n' >&2; exit 2 ;;
  FLOOD) exec yes ;;
  JSON) printf '{"a":\n' ;;
  *) printf 'time\tthread\n0.000 T \342\224\200 fine\n'; printf 'note: fine\n' >&2 ;;
esac
"""
SELF_TEST_CASES = [  # input, json kind, expected kind
    ("SEGV", None, "SIGSEGV"), ("HANG", None, "timeout"), ("CLOSED", None, "timeout"), ("MEM", None, "memory"),
    ("EXIT", None, "exit7"), ("ESC", None, "unsafe-stdout"), ("RLO", None, "unsafe-stdout"),
    ("C1", None, "unsafe-stdout"), ("BADUTF8", None, "unsafe-stdout"), ("STDERR", None, "unsafe-stderr"),
    ("FLOOD", None, "output"), ("JSON", "jsonl", "bad-json"), ("ESC", "jsonl", "bad-json"), ("fine", None, None),
    ("RLO", "chrome", "bad-json"),
]


def self_test(args) -> int:
    work = Path(args.out) / "self-test"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    fake = work / "loopviz"
    fake.write_text(FAKE_LOOPVIZ)
    fake.chmod(0o755)
    limits = Limits(timeout=2.0, memory=200 << 20, max_output=8 << 20, allowed=frozenset({0, 1, 2}))
    wrong = 0
    for number, (content, json_kind, expected) in enumerate(SELF_TEST_CASES):
        path = work / f"case{number}.loop"
        path.write_text(content)
        r = run_command([str(fake), "run", str(path)], "run", limits, json_kind is None, json_kind)
        ok = r.kind == expected
        wrong += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {content:8} {json_kind or 'text':6} -> {r.kind} ({r.reason})")
    with RUNNING_LOCK:
        left = set(RUNNING)
    if left:
        print(f"FAIL processes left running: {sorted(left)}")
        wrong += 1
    shutil.rmtree(work, ignore_errors=True)
    print(f"fuzz: self-test: {len(SELF_TEST_CASES) - wrong} of {len(SELF_TEST_CASES)} cases classified right")
    return 1 if wrong else 0


# ---------------------------------------------------------------------------------------------------------------
def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Mutation fuzzer for loopviz's headless commands (see the header of this file).")
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument("--inputs", type=int, help="number of inputs (default 200 unless --seconds)")
    amount.add_argument("--seconds", type=float, help="fuzz for this long, then finish the inputs under way")
    parser.add_argument("--seed", default="1", help="the run's seed (any string; default 1)")
    parser.add_argument("--start", type=int, default=0, help="index of the first input (default 0)")
    parser.add_argument("--bin", default=None, help="the loopviz binary (default: .build/debug/loopviz)")
    parser.add_argument("--jobs", type=int, default=2, help="inputs run at once (default 2)")
    parser.add_argument("--out", default=str(ROOT / ".build-fuzz" / "scenarios"),
                        help="output directory; failures go to OUT/failures (default .build-fuzz/scenarios)")
    parser.add_argument("--timeout", type=float, default=10.0, help="wall-time limit per command, s (default 10)")
    parser.add_argument("--memory", type=int, default=1024, help="resident-set limit per command, MiB (default 1024)")
    parser.add_argument("--address-space", type=int, default=0, metavar="MiB",
                        help="also set RLIMIT_AS (default: none; every virtual thread is an OS thread whose stack"
                        " reserve counts, so an address-space limit fails pthread_create long before memory runs"
                        " out)")
    parser.add_argument("--max-output", type=int, default=512 * 1024 * 1024,
                        help="bytes of stdout+stderr per command before it is a failure (default 512 MiB)")
    parser.add_argument("--allowed-status", default="0,1,2,3,4",
                        help="exit statuses that are not failures (default 0,1,2,3,4)")
    parser.add_argument("--max-events", type=int, default=None, metavar="N",
                        help="pass --max-events N to each command whose --help lists it (default: not passed)")
    parser.add_argument("--max-items", type=int, default=4000, help="largest 'thousands of items' (default 4000)")
    parser.add_argument("--keep-per-class", type=int, default=25,
                        help="failing inputs kept per (command, reason) class (default 25)")
    parser.add_argument("--keep-old", action="store_true", help="do not clear OUT/failures first")
    parser.add_argument("--fast-fail", action="store_true", help="skip an input's other commands after a failure")
    parser.add_argument("--no-baseline", action="store_true", help="skip the check that the lessons pass unmutated")
    parser.add_argument("--corpus", default="examples/*.loop", help="the seed files (default examples/*.loop)")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    parser.add_argument("--self-test", action="store_true",
                        help="check that the harness sees each kind of failure, on a fake loopviz, and exit")
    parser.add_argument("--show", type=int, metavar="N", help="write input N of --seed to stdout and exit")
    parser.add_argument("--replay", nargs="*", metavar="DIR", help="re-run kept failures (default: all in OUT)")
    parser.add_argument("--original", action="store_true", help="(replay) the original input, not input.min.loop")
    parser.add_argument("--minimize", nargs="*", metavar="DIR", help="shrink kept failures to input.min.loop")
    parser.add_argument("--max-tests", type=int, default=300, help="(minimize) runs per failure (default 300)")
    args = parser.parse_args(argv)
    if args.inputs is None and args.seconds is None:
        args.inputs = 200
    if args.bin is None:
        args.bin = str(ROOT / ".build" / "debug" / "loopviz")
    args.bin = str(Path(args.bin).resolve())
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, end_running_commands)
    corpus = Corpus.load(args.corpus)
    if not corpus.files:
        print(f"fuzz: no files match {args.corpus}", file=sys.stderr)
        return 2
    if args.self_test:
        return self_test(args)
    if args.show is not None:
        data, log, file_name = make_input(args.seed, args.show, corpus, args.max_items)
        print(f"# input {args.show} of seed {args.seed}: {' + '.join(log)} as {file_name!r}", file=sys.stderr)
        sys.stdout.buffer.write(data)
        return 0
    if not os.access(args.bin, os.X_OK):
        print(f"fuzz: {args.bin} is not an executable; build it (swift build) or pass --bin", file=sys.stderr)
        return 2
    try:
        allowed = frozenset(int(s) for s in args.allowed_status.split(",") if s.strip())
    except ValueError:
        print(f"fuzz: --allowed-status takes numbers, e.g. 0,1,2", file=sys.stderr)
        return 2
    limits = Limits(args.timeout, args.memory * 1024 * 1024, args.max_output, allowed, args.address_space * 1048576)
    if args.replay is not None:
        return replay(args, limits)
    if args.minimize is not None:
        return minimize(args, limits)
    return fuzz(args, corpus, limits)


if __name__ == "__main__":
    sys.exit(main())
