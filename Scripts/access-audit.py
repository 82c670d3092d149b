#!/usr/bin/env python3
"""LoopEngine's public surface is what an embedder uses; everything else is `package`.

Reads Scripts/public-surface.txt (one top-level name a line: a type, protocol, or a type whose
extensions are public; `#` starts a comment; `Type.member` excludes one member of a listed type) and rewrites every
`public` declaration in Sources/LoopEngine whose top-level type is not listed (or whose member is excluded) to
`package`. The loopviz executable and the tests are in the same package, so they still see it.

    Scripts/access-audit.py            rewrite the sources (re-runnable: a second run changes nothing)
    Scripts/access-audit.py --check    list what would change, exit 1 if anything would

Tests/LoopEngineTests/Docs/PublicSurfaceTests.swift makes the same check in the test suite. After a rewrite,
`swift build` says if a listed type's public member now uses a package type: list that type too, or exclude the
member. Then run Scripts/docs.sh: a doc comment of a public symbol may name a package one only as `Name`.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources" / "LoopEngine"
ALLOWLIST = ROOT / "Scripts" / "public-surface.txt"

DECL = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|open|indirect|nonisolated"
    r"|static|override|mutating|nonmutating|convenience|required|lazy|weak|unowned|dynamic"
    r"|(?:private|fileprivate|internal|package|public)\(set\))\s+)*"
    r"(?P<kind>struct|enum|class|actor|protocol|extension|func|var|let|typealias|init|case|subscript)\b\s*"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)?"
)


def read_allowlist():
    types, excluded = set(), set()
    for raw in ALLOWLIST.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        (excluded if "." in line else types).add(line)
    return types, excluded


def code_spans(line, state):
    """The parts of `line` that are code (not comments or string literals), as (start, end) pairs; `state` carries
    a multi-line string or block comment over lines."""
    spans, i, start, n = [], 0, 0, len(line)
    while i < n:
        if state["in"] == "block":
            end = line.find("*/", i)
            if end < 0:
                return spans
            state["in"] = None
            i = start = end + 2
            continue
        if state["in"] == "multi":
            end = line.find('"""', i)
            if end < 0:
                return spans
            state["in"] = None
            i = start = end + 3
            continue
        if line.startswith("//", i):
            spans.append((start, i))
            return spans
        if line.startswith("/*", i):
            spans.append((start, i))
            state["in"] = "block"
            i += 2
            continue
        if line.startswith('"""', i):
            spans.append((start, i))
            state["in"] = "multi"
            i += 3
            continue
        if line[i] == '"':
            spans.append((start, i))
            i += 1
            depth = 0  # parentheses of an interpolation
            while i < n:
                if line[i] == "\\" and i + 1 < n and line[i + 1] == "(":
                    depth += 1
                    i += 2
                    continue
                if line[i] == "\\":
                    i += 2
                    continue
                if depth and line[i] == ")":
                    depth -= 1
                elif not depth and line[i] == '"':
                    break
                i += 1
            i += 1
            start = i
            continue
        i += 1
    spans.append((start, n))
    return spans


def scan(path, types, excluded):
    """Yields (line index, column of `public`, owner, member) for each `public` outside the allowed surface."""
    state = {"in": None}
    depth = 0
    owner = None  # the top-level name of the declaration the scan is in
    member = None  # the name of the member of `owner` being declared
    for index, line in enumerate(path.read_text().splitlines()):
        spans = code_spans(line, state)
        code = "".join(line[a:b] if (a, b) in spans else " " * (b - a) for a, b in _cover(spans, len(line)))
        stripped = code.strip()
        match = DECL.match(stripped)
        if match and depth == 0:
            name = match.group("name") or ""
            if match.group("kind") == "extension":
                name = re.split(r"[.<:\s]", stripped[match.start("name") :], maxsplit=1)[0]
            owner = name
            member = None
        elif match and depth == 1:
            member = match.group("name")
        for found in re.finditer(r"\bpublic\b(?!\s*\()", code):
            allowed = owner in types and f"{owner}.{member}" not in excluded
            if not allowed:
                yield index, found.start(), owner, member
        depth += code.count("{") - code.count("}")


def _cover(spans, n):
    """`spans` and the gaps between them, in order, so a line is rebuilt with its non-code parts blanked."""
    result, at = [], 0
    for a, b in spans:
        if a > at:
            result.append((at, a))
        result.append((a, b))
        at = b
    if at < n:
        result.append((at, n))
    return result


def main():
    check = "--check" in sys.argv[1:]
    types, excluded = read_allowlist()
    changed = 0
    for path in sorted(SOURCES.rglob("*.swift")):
        hits = list(scan(path, types, excluded))
        if not hits:
            continue
        lines = path.read_text().splitlines(keepends=True)
        for index, column, owner, member in reversed(hits):
            changed += 1
            if check:
                where = f"{owner}.{member}" if member else owner
                print(f"{path.relative_to(ROOT)}:{index + 1}:{column + 1}: public {where}")
            else:
                text = lines[index]
                lines[index] = text[:column] + "package" + text[column + len("public") :]
        if not check:
            path.write_text("".join(lines))
    if check:
        print(f"{changed} public declaration(s) outside {ALLOWLIST.relative_to(ROOT)}")
        return 1 if changed else 0
    print(f"rewrote {changed} public declaration(s) to package")
    return 0


if __name__ == "__main__":
    sys.exit(main())
