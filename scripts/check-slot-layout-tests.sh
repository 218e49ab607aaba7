#!/usr/bin/env bash
# Every owner of atomic or exclusive slots (a type declaring an `AtomicSlotIndex` enum) is
# checked against its real layout by its module's `AtomicSlotLayoutTests` (CONTRIBUTING,
# "Atomic words"): a wrong index there corrupts memory silently, and an owner left out of the
# test is not checked at all. This script fails when an owner's `Slots` enum is not named in
# `Tests/<Module>Tests/**/AtomicSlotLayoutTests.swift` (as `Owner.Slots.self` or
# `Owner<…>.Slots.self`), or when a module with owners has no such test.
#
# Usage: scripts/check-slot-layout-tests.sh [--self-test]   (under a second, no build)
set -uo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import os, re, sys
sys.path.insert(0, "scripts/lib")
from swift_source import code_only, line_of, swift_files

SLOT_ENUM = re.compile(r"(?<![A-Za-z0-9_])enum\s+([A-Za-z_][A-Za-z0-9_]*)\s*:[^{]*\bAtomicSlotIndex\b")
TYPE = re.compile(r"(?<![A-Za-z0-9_])(?:class|struct|actor|extension|enum)\s+([A-Za-z_][A-Za-z0-9_.]*)")


def owners(code):
    """(owner type, slot enum, line) for each `AtomicSlotIndex` enum declared inside a type."""
    found = []
    for match in SLOT_ENUM.finditer(code):
        depth, index = 0, match.start() - 1
        while index >= 0:
            if code[index] == "}":
                depth += 1
            elif code[index] == "{":
                if depth == 0:
                    head = code[code.rfind("\n", 0, index) + 1:index]
                    line_start = index
                    # A declaration head may span lines: look back to the type keyword.
                    while not TYPE.search(head) and line_start > 0:
                        line_start = code.rfind("\n", 0, line_start - 1) + 1
                        head = code[line_start:index]
                        if code[line_start:index].count("{") or code[line_start:index].count("}"):
                            break
                    owner = TYPE.search(head)
                    if owner:
                        found.append((owner.group(1).split(".")[-1], match.group(1),
                                      line_of(code, match.start())))
                    break
                depth -= 1
            index -= 1
    return found


def listed(test_code, owner, enum):
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(owner) + r"(<[^\n]*?>)?\." + re.escape(enum)
                     + r"\.self", test_code) is not None


def self_test():
    source = ("final class A {\n  @usableFromInline enum Slots: Int, AtomicSlotIndex { case gate }\n"
              "  var gateSlot = AtomicSlot(0)\n}\n"
              "final class B<T>: Base,\n  @unchecked Sendable\n{\n  enum Slots: Int, AtomicSlotIndex {\n"
              "    case a\n  }\n}\n"
              "extension C {\n  enum Words: Int, AtomicSlotIndex { case x = 1 }\n}\n"
              "protocol AtomicSlotIndex {}\n"
              "// enum Fake: Int, AtomicSlotIndex {}\n")
    got = owners(code_only(source))
    expected = [("A", "Slots", 2), ("B", "Slots", 8), ("C", "Words", 13)]
    tests = "assertLayout(A.self, A.Slots.self)\nassertLayout(B<Int>.self, B<Int>.Slots.self)\n"
    checks = [(got == expected, f"owners: expected {expected}, got {got}"),
              (listed(tests, "A", "Slots"), "A is listed"),
              (listed(tests, "B", "Slots"), "B<Int> is listed"),
              (not listed(tests, "C", "Words"), "C is not listed"),
              (not listed("assertLayout(AB.self, AB.Slots.self)", "B", "Slots"), "AB is not B")]
    failed = [message for passed, message in checks if not passed]
    for message in failed:
        print(f"self-test failed: {message}")
    print(f"check-slot-layout-tests self-test: {len(checks) - len(failed)}/{len(checks)} cases")
    return not failed


def main(arguments):
    if arguments and arguments[0] == "--self-test":
        return 0 if self_test() else 1
    failures, count = 0, 0
    for module in sorted(os.listdir("Sources")):
        found = []
        for path in swift_files(os.path.join("Sources", module)):
            found += [(path, *owner) for owner in owners(code_only(open(path, encoding="utf-8").read()))]
        if not found:
            continue
        tests = [path for path in swift_files(os.path.join("Tests", module + "Tests"))
                 if os.path.basename(path) == "AtomicSlotLayoutTests.swift"]
        if not tests:
            failures += 1
            print(f"{module}: {len(found)} slot owner(s) but no Tests/{module}Tests/**/"
                  "AtomicSlotLayoutTests.swift")
            continue
        test_code = "".join(code_only(open(path, encoding="utf-8").read()) for path in tests)
        for path, owner, enum, line in found:
            count += 1
            if not listed(test_code, owner, enum):
                failures += 1
                print(f"{path}:{line}: {owner}.{enum} is not checked by {tests[0]}")
    if failures:
        print(f"check-slot-layout-tests: {failures} problem(s)")
        return 1
    print(f"check-slot-layout-tests: all {count} slot owners are layout-tested")
    return 0


sys.exit(main(sys.argv[1:]))
PYTHON
