#!/usr/bin/env bash
# Every `@unchecked Sendable` under Sources/ says what protects it (CONTRIBUTING, "Threading
# rules"): a `// Safety:` comment in the comments right above the declaration, on its line, or
# first thing in its body. The compiler has stopped checking there; the comment is what a
# reviewer checks instead, and this script makes sure it exists.
#
# Usage: scripts/check-safety-comments.sh [--self-test]   (under a second, no build)
set -uo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import re, sys
sys.path.insert(0, "scripts/lib")
from swift_source import code_only, swift_files

UNCHECKED = re.compile(r"@unchecked\s+Sendable")
SAFETY = re.compile(r"(?<!/)//\s*Safety:")


def unexplained(source):
    """Line numbers of `@unchecked Sendable` conformances without a Safety comment."""
    code = code_only(source)
    raw, lines = source.split("\n"), code.split("\n")
    found = []
    for number, line in enumerate(lines, 1):
        if not UNCHECKED.search(line):
            continue
        index = number - 1
        if SAFETY.search(raw[index]):
            continue
        # The comments and attributes right above the declaration.
        above, explained = index - 1, False
        while above >= 0 and raw[above].strip().startswith(("//", "@", "#if", "#endif")):
            if SAFETY.search(raw[above]):
                explained = True
            above -= 1
        # The declaration's continuation up to its `{`, then the comments opening its body.
        below = index
        while below < len(lines) and "{" not in lines[below]:
            below += 1
        if below < len(lines) and "}" not in lines[below][lines[below].index("{"):]:
            below += 1
            while below < len(raw) and (not raw[below].strip()
                                        or raw[below].strip().startswith("//")):
                if SAFETY.search(raw[below]):
                    explained = True
                below += 1
        if not explained:
            found.append(number)
    return found


def self_test():
    cases = {
        "final class A: @unchecked Sendable {\n  // Safety: `x` is guarded by `lock`.\n  var x = 0\n}\n": [],
        "// Safety: immutable.\nfinal class A: @unchecked Sendable {}\n": [],
        "/// A box.\n// Safety: immutable after init.\n@usableFromInline\nfinal class A: @unchecked Sendable {}\n": [],
        "final class A: @unchecked Sendable {\n  var x = 0\n}\n": [1],
        "/// Safety: in a doc comment.\nfinal class A: @unchecked Sendable {}\n": [2],
        "final class A: @unchecked Sendable {\n  var x = 0\n  // Safety: too late.\n}\n": [1],
        "final class A<T>: P,\n  @unchecked Sendable\nwhere T: Q {\n  // Safety: lock.\n}\n": [],
        "extension A: @unchecked Sendable {}  // Safety: immutable.\n": [],
        "extension A: @unchecked Sendable {}\n": [1],
        "let s = \"@unchecked Sendable\"\n": [],
        "// Safety: for the one above only.\nstruct A: @unchecked Sendable {}\n\nstruct B: @unchecked Sendable {}\n": [4],
    }
    failed = 0
    for source, expected in cases.items():
        got = unexplained(source)
        if got != expected:
            failed += 1
            print(f"self-test: expected lines {expected}, got {got} for {source!r}")
    print(f"check-safety-comments self-test: {len(cases) - failed}/{len(cases)} cases")
    return failed == 0


def main(arguments):
    if arguments and arguments[0] == "--self-test":
        return 0 if self_test() else 1
    files, failures, total = swift_files(), 0, 0
    for path in files:
        with open(path, encoding="utf-8") as file:
            source = file.read()
        total += len(UNCHECKED.findall(code_only(source)))
        for line in unexplained(source):
            failures += 1
            print(f"{path}:{line}: @unchecked Sendable without a `// Safety:` comment")
    if failures:
        print(f"check-safety-comments: {failures} of {total} @unchecked Sendable unexplained")
        return 1
    print(f"check-safety-comments: all {total} @unchecked Sendable in {len(files)} files explained")
    return 0


sys.exit(main(sys.argv[1:]))
PYTHON
