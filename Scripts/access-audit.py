#!/usr/bin/env python3
"""LoopEngine's public surface is what an embedder uses; everything else is `package`.

Reads Scripts/public-surface.txt (one declaration path a line: `Type`, `Type.member`, `Type.Nested.member`; one
line covers a member's overloads; `#` starts a comment) and rewrites every `public` declaration in
Sources/LoopEngine whose path is not listed to `package`. A listed type does not make its members public: each
is listed or not. The loopviz executable and the tests are in the same package, so they still see it.

    Scripts/access-audit.py            rewrite the sources (re-runnable: a second run changes nothing)
    Scripts/access-audit.py --check    list what would change, exit 1 if anything would

Tests/LoopEngineTests/Docs/PublicSurfaceTests.swift makes the same check in the test suite. After a rewrite,
`swift build` says if a public member now uses a package type, or a protocol's public witness is missing: list
that declaration too. Then run Scripts/docs.sh (a doc comment of a public symbol may name a package one only as
`Name`) and Scripts/embedder-check.sh (the DocC examples compile against the public surface alone).
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
    r"(?:`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<operator>[-+*/%<>=!&|^~.?]+))?"
)


def read_allowlist():
    """The listed declaration paths (`Type`, `Type.member`, `Type.Nested.member`)."""
    paths = set()
    for raw in ALLOWLIST.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            paths.add(line)
    return paths


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


TYPE_KINDS = {"struct", "enum", "class", "actor", "protocol", "extension"}


def declaration_path(stripped, match, enclosing):
    """The dotted path a declaration line declares: the enclosing types' names and its own (an extension: the
    type it extends, which may be dotted itself)."""
    if match.group("kind") == "extension":
        extended = re.split(r"[<:\s{]", stripped[match.start("name") :], maxsplit=1)[0]
        return extended.split(".")
    return enclosing + [match.group("name") or match.group("operator") or match.group("kind")]


def scan(path, allowed):
    """Yields (line index, column of `public`, declaration path) for each `public` whose path is not listed.

    A type's body is a scope: a declaration directly in it is the type's member (`Type.member`, one entry for
    all overloads); a nested type's members are `Type.Nested.member`. Declarations inside function bodies are
    local and never public."""
    state = {"in": None}
    depth = 0
    scopes = []  # (path, depth of the body) of the types the scan is in
    pending = None  # the path of a type whose `{` has not been reached yet
    for index, line in enumerate(path.read_text().splitlines()):
        spans = code_spans(line, state)
        code = "".join(line[a:b] if (a, b) in spans else " " * (b - a) for a, b in _cover(spans, len(line)))
        stripped = code.strip()
        while scopes and depth < scopes[-1][1]:
            scopes.pop()
        enclosing = scopes[-1][0] if scopes else []
        in_type_body = depth == (scopes[-1][1] if scopes else 0)
        match = DECL.match(stripped) if in_type_body else None
        current = declaration_path(stripped, match, enclosing) if match else enclosing
        if match:
            pending = current if match.group("kind") in TYPE_KINDS else None
        for found in re.finditer(r"\bpublic\b(?!\s*\()", code):
            if ".".join(current) not in allowed:
                yield index, found.start(), ".".join(current)
        opened = code.count("{") - code.count("}")
        if pending is not None and "{" in code:
            scopes.append((pending, depth + 1))
            pending = None
        depth += opened


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
    allowed = read_allowlist()
    changed = 0
    for path in sorted(SOURCES.rglob("*.swift")):
        hits = list(scan(path, allowed))
        if not hits:
            continue
        lines = path.read_text().splitlines(keepends=True)
        for index, column, where in reversed(hits):
            changed += 1
            if check:
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
