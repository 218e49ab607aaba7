#!/usr/bin/env bash
# A public operator on `ObservableType` (an extension method in
# Sources/ReactorKitStreams/Observables/) is `@inlinable`, so its closures are specialised in
# the caller's module (CONTRIBUTING, "How an operator is written"); one that deliberately is
# not says why on a `// Not inlinable: <reason>` line among its attributes (a timed operator
# whose per-element cost is a scheduler hop and whose machine stays private, the debugging
# operator). Trait wrappers (Single, Driver, Infallible: Sources/ReactorKitStreams/Traits/)
# are not covered: they forward to these operators.
#
# Usage: scripts/check-inlinable-operators.sh [--self-test]   (under a second, no build)
set -uo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import re, sys
sys.path.insert(0, "scripts/lib")
from swift_source import code_only, line_of, matching_brace, swift_files

EXTENSION = re.compile(r"(?m)^extension\s+(ObservableType|ObservableConvertibleType|Observable)\b[^{]*\{")
ENTRY = re.compile(r"(?m)^  (?:@[^\n]*\s+)*(?:public|open)\s+(?:static\s+)?func\s+([A-Za-z_][A-Za-z0-9_]*)")
INLINED = re.compile(r"@inlinable|@_alwaysEmitIntoClient|@_transparent")
REASON = re.compile(r"//\s*Not inlinable:\s*\S")


def not_inlinable(source):
    """(line, name) of public operators neither inlinable nor explained."""
    code, raw = code_only(source), source.split("\n")
    found = []
    for extension in EXTENSION.finditer(code):
        end = matching_brace(code, extension.end() - 1)
        for entry in ENTRY.finditer(code, extension.end(), end):
            line = line_of(code, entry.start(1))
            attributes, above = raw[line - 1], line - 2
            while above >= 0 and raw[above].strip().startswith(("@", "//")):
                attributes += "\n" + raw[above]
                above -= 1
            code_attributes = "\n".join(code.split("\n")[above + 1:line])
            if not INLINED.search(code_attributes) and not REASON.search(attributes):
                found.append((line, entry.group(1)))
    return found


def self_test():
    cases = {
        "extension ObservableType {\n  /// Maps.\n  @inlinable\n  public func map() {}\n}\n": [],
        "extension ObservableType {\n  /// Maps.\n  public func map() {}\n}\n": [3],
        "extension ObservableType {\n  // Not inlinable: timed.\n  public func delay() {}\n}\n": [],
        "extension ObservableType {\n  // Not inlinable:\n  public func delay() {}\n}\n": [3],
        "extension ObservableType {\n  /// Uses @inlinable code.\n  public func f() {}\n}\n": [3],
        "extension ObservableType {\n  @inlinable public static func just() {}\n}\n": [],
        "extension ObservableType where Element: Equatable {\n  public static func g() {}\n}\n": [2],
        "extension ObservableType {\n  func helper() {}\n  @usableFromInline func h() {}\n}\n": [],
        "extension Other {\n  public func f() {}\n}\n": [],
    }
    failed = 0
    for source, expected in cases.items():
        got = [line for line, _ in not_inlinable(source)]
        if got != expected:
            failed += 1
            print(f"self-test: expected lines {expected}, got {got} for {source!r}")
    print(f"check-inlinable-operators self-test: {len(cases) - failed}/{len(cases)} cases")
    return failed == 0


def main(arguments):
    if arguments and arguments[0] == "--self-test":
        return 0 if self_test() else 1
    failures, files = 0, swift_files("Sources/ReactorKitStreams/Observables")
    for path in files:
        with open(path, encoding="utf-8") as file:
            for line, name in not_inlinable(file.read()):
                failures += 1
                print(f"{path}:{line}: public operator {name} is neither @inlinable nor marked "
                      "`// Not inlinable: <reason>`")
    if failures:
        print(f"check-inlinable-operators: {failures} problem(s)")
        return 1
    print(f"check-inlinable-operators: the public operators of {len(files)} files are inlinable "
          "or say why not")
    return 0


sys.exit(main(sys.argv[1:]))
PYTHON
