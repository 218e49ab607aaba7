#!/usr/bin/env bash
# Unsafe code lives in a few rooms (issue 25, item 4). Strict memory-safety checking makes the
# compiler demand `unsafe` at every use of a pointer, `Unmanaged`, `unowned(unsafe)`, an
# `@exclusivity(unchecked)` property or a C call taking pointers; this script makes sure those
# uses appear only in the files listed below, so a reviewer knows where to look. Everything
# else uses the small safe types the rooms export (`Lock`, `Gate`, `AtomicSlot…`,
# `UnretainedReference`, the engines' storage accessors, the `System` wrappers).
#
# A file outside the rooms that contains any unsafe construct fails the check with its lines,
# and so does a room that no longer names a file. To add unsafe code: put it in a room (or make
# a new storage file an engine owns) and list it here with its reason. The check covers the
# library's modules (Sources/); Examples/, Benchmarks/ and Fuzz/ are not the library.
#
# Usage: scripts/check-unsafe-rooms.sh [--self-test]   (about a second, no build)
set -uo pipefail
cd "$(dirname "$0")/.."

# Rooms, as extended regular expressions over paths under Sources/.
rooms=(
  # The synchronization primitives: locks, gates, atomics, once-references, thread identity.
  '^Sources/ReactorKitStreams/Internal/Synchronization/'
  # The link type every sink chain is built from (unretained parent/child links).
  '^Sources/ReactorKitStreams/Internal/Sinks/SubscriptionLink\.swift$'
  # Operating-system boundaries: clocks, environment, thread-local keys, sockets, files.
  '^Sources/[A-Za-z]+/Internal/System/'
  '^Sources/ReactorKitInspector/Server/System/'
  # Engines' storage files: the one place an engine lays out and reaches its memory.
  '^Sources/ReactorKit/Reactor/Engine/ReactorCore\+Storage\.swift$'
  '^Sources/ReactorKit/Reactor/Engine/WeakObjectTableStorage\.swift$'
  '^Sources/ReactorKit/Reactor/Engine/OwnedStorage\.swift$'
  '^Sources/ReactorKit/Reactor/Engine/ViewStorage\.swift$'
  '^Sources/ReactorKit/Store/Engine/StoreStateStorage\.swift$'
  '^Sources/ReactorKit/Store/Engine/StoreLockedState\.swift$'
  '^Sources/ReactorKit/Store/Engine/ActionCast\+Storage\.swift$'
  '^Sources/ReactorKit/Observation/Engine/ObservedStateStorage\.swift$'
  '^Sources/ReactorKitStreams/Subjects/SubjectStorage\.swift$'
  '^Sources/ReactorKitStreams/Schedulers/TrampolineStorage\.swift$'
  '^Sources/ReactorKitInspector/Events/EventRingStorage\.swift$'
  # The ReSwift facade's delivery: each subscription's pipeline and per-subscriber fields.
  '^Sources/ReactorKitReSwift/Internal/SubscriptionStorage\.swift$'
  # The ReactiveReSwift facade's publisher: the observable and first-state flag, read per state.
  '^Sources/ReactorKitReactiveReSwift/Internal/StatePublisherStorage\.swift$'
)

# The scan, in Python: comments (line, nested block) and string literals (plain, multi-line,
# raw `#"…"#`) are blanked first, keeping line numbers, so a `///` line that mentions
# `Unmanaged`, a CSP header's 'unsafe-inline' or a URL's `//` cannot hide or fake a hit.
# Interpolations inside strings are blanked with the string (keep unsafe code out of them).
# `--self-test` checks the scanner on snippets whose answers are known.
exec python3 - "$@" "${rooms[@]}" <<'PYTHON'
import os, re, sys

CONSTRUCTS = re.compile(
    r"(?<![A-Za-z_])unsafe(?![A-Za-z_(-])|@unsafe\b|Unmanaged|Unsafe[A-Za-z]*Pointer"
    r"|withUnsafe|_withUnsafe|unowned\(unsafe\)|@exclusivity\(unchecked\)|unsafeDowncast"
    r"|unsafeBitCast|nonisolated\(unsafe\)|_getUnsafePointerToStoredProperties"
    r"|unsafeAddress|unsafeMutableAddress")
STRING_START = re.compile(r'(#*)("""|")')


def code_only(source):
    """`source` with comments and string literals blanked, newlines kept."""
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if source[i] == "\n" else "")
                    i += 1
            continue
        match = STRING_START.match(source, i) if source[i] in '#"' else None
        if match:
            hashes, quote = match.group(1), match.group(2)
            close = quote + hashes
            i = match.end()
            out.append('""')
            while i < n:
                if not hashes and source[i] == "\\":
                    i += 2
                    continue
                if source.startswith(close, i):
                    i += len(close)
                    break
                if source[i] == "\n":
                    out.append("\n")
                i += 1
            continue
        out.append(source[i])
        i += 1
    return "".join(out)


def hits(source):
    return [(number, line.strip()) for number, line in
            enumerate(code_only(source).split("\n"), 1) if CONSTRUCTS.search(line)]


def self_test():
    cases = {
        "let p = unsafe q.pointee\n": [1],
        "/// Uses `Unmanaged` inside.\nlet x = 1\n": [],
        'let csp = "script-src \'unsafe-inline\'"\n': [],
        'let u = "http://x"; let p = unsafe q.pointee\n': [1],
        "/* unsafe /* nested */ still comment */ let a = 1\n": [],
        'let t = """\n  unsafe text\n  """\nlet r = Unmanaged.passUnretained(o)\n': [4],
        'let raw = #"a "quoted" \\ unsafe"#\nunowned(unsafe) var o: O\n': [2],
        "@exclusivity(unchecked) var count = 0\n": [1],
        "var v: Int { unsafeAddress { p } }\n": [1],
        "let unsafeFlag = isUnsafeMode\n": [],
        "let e = \"a\\\"b\" + unsafeDowncast(x, to: Y.self)\n": [1],
        "#if canImport(Darwin)\nimport Darwin\n#endif\n": [],
    }
    failed = 0
    for source, expected in cases.items():
        got = [number for number, _ in hits(source)]
        if got != expected:
            failed += 1
            print(f"self-test: expected lines {expected}, got {got} for {source!r}")
    print(f"check-unsafe-rooms self-test: {len(cases) - failed}/{len(cases)} cases")
    return failed == 0


def main(arguments):
    if arguments and arguments[0] == "--self-test":
        return 0 if self_test() else 1
    rooms = [re.compile(pattern) for pattern in arguments]
    files = sorted(os.path.join(folder, name) for folder, _, names in os.walk("Sources")
                   for name in names if name.endswith(".swift"))
    failures, used = 0, set()
    for path in files:
        room = next((room for room in rooms if room.search(path)), None)
        if room is not None:
            used.add(room.pattern)
            continue
        with open(path, encoding="utf-8") as file:
            found = hits(file.read())
        if found:
            failures += 1
            print(f"unsafe code outside its rooms: {path}")
            for number, line in found[:20]:
                print(f"    {number}: {line}")
    for room in rooms:
        if room.pattern not in used:
            failures += 1
            print(f"room names no file any more, remove it: {room.pattern}")
    if failures:
        print(f"check-unsafe-rooms: {failures} problem(s) in {len(files)} files")
        return 1
    print(f"check-unsafe-rooms: {len(files)} files, unsafe code only in its {len(rooms)} rooms")
    return 0


sys.exit(main(sys.argv[1:]))
PYTHON
