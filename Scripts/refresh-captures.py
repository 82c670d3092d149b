#!/usr/bin/env python3
"""Re-runs every `<!-- output of: loopviz ARGS -->` capture in README.md and docs/*.md and writes what the built
loopviz prints into the fenced block after it (DocCaptureTests checks they agree; a marker ending `; exit N` expects that status). Run from the package root
after `swift build`:  Scripts/refresh-captures.py [.build/debug/loopviz]"""
import glob, re, shlex, subprocess, sys

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/loopviz"
pattern = re.compile(r"(<!-- output of: loopviz (.*?)(?:; exit \d+)? -->\n```[^\n]*\n)(.*?)(```)", re.S)
for path in ["README.md"] + sorted(glob.glob("docs/*.md")):
    text = open(path, encoding="utf-8").read()
    def run(match):
        printed = subprocess.run([binary] + shlex.split(match.group(2)), capture_output=True, text=True).stdout
        return match.group(1) + printed + ("" if printed.endswith("\n") else "\n") + match.group(4)
    updated = pattern.sub(run, text)
    if updated != text:
        open(path, "w", encoding="utf-8").write(updated)
        print(f"refreshed {path}")
