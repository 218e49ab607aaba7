#!/usr/bin/env bash
# Every Swift file under Sources/ has at most 600 lines (issue 33, item 8): a file that grows
# past it is split by concern (`Type+Concern.swift`), and a generated one by what it generates
# (scripts/generate-arity.py writes one file an operator).
#
# Usage: scripts/check-file-sizes.sh [--self-test]   (under a second, no build)
set -uo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import os, sys

LIMIT = 600


def line_count(text):
    """Lines as `wc -l` counts them, plus a last line without a newline."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def too_long(files):
    """(path, lines) of each file over the limit, given (path, text) pairs."""
    return [(path, line_count(text)) for path, text in files if line_count(text) > LIMIT]


def self_test():
    cases = [
        ([("a.swift", "x\n" * 600)], []),
        ([("a.swift", "x\n" * 601)], [("a.swift", 601)]),
        ([("a.swift", "x\n" * 600 + "y")], [("a.swift", 601)]),
        ([("a.swift", ""), ("b.swift", "x\n" * 700)], [("b.swift", 700)]),
    ]
    failed = 0
    for files, expected in cases:
        got = too_long(files)
        if got != expected:
            failed += 1
            print(f"self-test: expected {expected}, got {got}")
    print(f"check-file-sizes self-test: {len(cases) - failed}/{len(cases)} cases")
    return failed == 0


def main(arguments):
    if arguments and arguments[0] == "--self-test":
        return 0 if self_test() else 1
    files = []
    for root, _, names in os.walk("Sources"):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as handle:
                    files.append((path, handle.read()))
    found = too_long(files)
    for path, lines in found:
        print(f"{path}: {lines} lines (at most {LIMIT}; split it by concern)")
    print(f"check-file-sizes: {len(files)} files, {len(found)} over {LIMIT} lines")
    return 1 if found else 0


sys.exit(main(sys.argv[1:]))
PYTHON
