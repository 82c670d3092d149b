#!/usr/bin/env bash
# Compiles the Swift examples of LoopEngine's DocC articles (Sources/LoopEngine/LoopEngine.docc/*.md) as an
# embedder's code: a module outside the package importing LoopEngine, so only its public surface is visible and a
# `package` symbol is an error. It proves the public surface is enough for what the articles show, and keeps their
# examples compiling. Each ```swift block is one file (top-level code); one without `import LoopEngine` gets it.
#
#   Scripts/embedder-check.sh [BIN]    BIN: a debug build directory holding LoopEngine's module (default: builds
#                                      LoopEngine in .build; Scripts/docs.sh passes its own, .build/docs/debug)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ge 1 ]; then
    bin=$1
else
    swift build --target LoopEngine >/dev/null
    bin=$(swift build --show-bin-path)
fi
[ -d "$bin/Modules" ] || { echo "embedder-check: no $bin/Modules (build LoopEngine first)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" Sources/LoopEngine/LoopEngine.docc/*.md <<'PY'
import re, sys
from pathlib import Path
out = Path(sys.argv[1])
count = 0
for article in sys.argv[2:]:
    text = Path(article).read_text()
    for number, block in enumerate(re.findall(r"^```swift\n(.*?)^```", text, re.S | re.M), 1):
        if not re.search(r"^import LoopEngine$", block, re.M):
            block = "import LoopEngine\n\n" + block
        (out / f"{Path(article).stem}-{number}.swift").write_text(block)
        count += 1
if not count:
    sys.exit("embedder-check: the articles hold no ```swift example")
PY

status=0
for example in "$work"/*.swift; do
    # No -package-name: the compiler treats this file as another package's code.
    if ! swiftc -typecheck -swift-version 6 -warnings-as-errors \
        -I "$bin/Modules" \
        -Xcc -fmodule-map-file="$bin/CLoopKernel.build/module.modulemap" -Xcc -ISources/CLoopKernel/include \
        "$example"; then
        echo "embedder-check: $(basename "$example" .swift) (a block of that article) does not compile against LoopEngine's public surface" >&2
        status=1
    fi
done
[ $status -eq 0 ] && echo "embedder-check: $(ls "$work" | wc -l) DocC example(s) compile against the public surface alone"
exit $status
