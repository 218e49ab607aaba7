#!/usr/bin/env bash
# Lock ownership shows in a function's name (CONTRIBUTING, "How an operator is written"); this
# script checks the convention mechanically, on each `func` under Sources/:
#
# - `…Locked` is called with the lock held and never releases it: its body calls no
#   `unlock()` and no `…AndUnlock` function (not even to take the lock again later).
# - `…AndUnlock` is called with the lock held and always releases it: the statement before
#   each `return` of its own (closures aside), and its last statement, is an `unlock()` or a
#   call to another `…AndUnlock` function (or the body starts with `defer { …unlock() }`).
# - `lock()` and `lock…` functions (`lockIfAccepting()`) take the lock and return holding it
#   (when they return `true`).
# - Every other function neither expects nor leaves the lock held: if its own code takes a
#   lock (`lock()`, `lock…(…)`), every exit releases it as above; if it releases one, it took
#   one first; and it calls a `…Locked` function only after taking a lock (`withLock { }`
#   counts).
#
# The check reads the source (comments and strings blanked); it does not follow calls into
# other functions, so a helper that must release is named `…AndUnlock` for the check to see it.
#
# Usage: scripts/check-lock-naming.sh [--self-test]   (about a second, no build)
set -uo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import re, sys
sys.path.insert(0, "scripts/lib")
from swift_source import code_only, functions, line_of, own_code, swift_files

RELEASE = re.compile(r"(?<![A-Za-z0-9_])unlock\([^()]*\)|[A-Za-z0-9_]AndUnlock\s*\(")
ACQUIRE = re.compile(r"(?<![A-Za-z0-9_.])(?:[A-Za-z_][A-Za-z0-9_]*\.)*lock(?:[A-Z][A-Za-z0-9]*)?\s*\(")
ACQUIRE_ANY = re.compile(ACQUIRE.pattern + r"|(?<![A-Za-z0-9_])withLock\b")
LOCKED_CALL = re.compile(r"(?<![A-Za-z0-9_])([a-z][A-Za-z0-9]*(?<!Un)Locked)\s*\(")
RETURN = re.compile(r"(?<![A-Za-z0-9_.])return(?![A-Za-z0-9_])")
DEFER_RELEASE = re.compile(r"(?<![A-Za-z0-9_])defer\s*\{[^{}]*" + RELEASE.pattern)


def kind(name):
    if name.endswith("AndUnlock"):
        return "releases"
    if name.endswith("Locked") and not name.endswith("Unlocked"):
        return "holds"
    if re.match(r"lock([A-Z]|$)", name):
        return "acquires"
    if name == "unlock":
        return "unlock"
    return "neutral"


def block_start(code, close):
    """The index of the `{` matching the `}` at `close`."""
    depth = 0
    for index in range(close, -1, -1):
        if code[index] == "}":
            depth += 1
        elif code[index] == "{":
            depth -= 1
            if depth == 0:
                return index
    return 0


def header(code, opening):
    """The code of the statement a block belongs to, from its line up to its `{`."""
    return code[code.rfind("\n", 0, opening) + 1:opening].strip()


def last_event(code, events, position, low):
    """What happened last to the lock on the way to `position`: "release", "acquire", None
    (nothing since `low`) or "loop" (an endless loop ends just before). Blocks closed before
    `position` are skipped (they may not have run), except an if/else chain whose branches all
    end the same way."""
    index = position - 1
    while index >= low:
        if index in events:
            return events[index]
        if code[index] == "}":
            opening = block_start(code, index)
            head = header(code, opening)
            if re.fullmatch(r"(\}\s*)?while true", head):
                breaks = [last_event(code, events, opening + match.start(), opening + 1) for match in
                          re.finditer(r"(?<![A-Za-z0-9_])break(?![A-Za-z0-9_])",
                                      code[opening:index])
                          if not in_inner_loop(code, opening, opening + match.start())]
                if not breaks:
                    return "loop"
                if len(set(breaks)) == 1 and breaks[0] in ("release", "acquire"):
                    return breaks[0]
            if re.fullmatch(r"\}\s*else", head):
                branches, close, start = [], index, opening
                while True:
                    branches.append(last_event(code, events, close, start))
                    head = header(code, start)
                    line_start = code.rfind("\n", 0, start) + 1
                    previous = code.rfind("}", 0, start)
                    if not head.startswith("}") or previous < line_start:
                        break
                    close, start = previous, block_start(code, previous)
                if len(set(branches)) == 1 and branches[0] in ("release", "acquire"):
                    return branches[0]
                index = start - 1
                continue
            if head.startswith("switch"):
                branches = [last_event(code, events, end, start)
                            for start, end in switch_sections(code, opening, index)]
                if branches and len(set(branches)) == 1 and branches[0] in ("release", "acquire"):
                    return branches[0]
            index = opening - 1
            continue
        if code[index] == "{" and re.match(r"guard\b.*\belse$", header(code, index), re.S) \
                and ACQUIRE.search(header(code, index)):
            return "release"  # a `lock…` condition that failed: nothing is held
        index -= 1
    return None


def in_inner_loop(code, opening, position):
    """Whether `position` is inside a loop or switch nested in the block opened at `opening`
    (a `break` there leaves that one)."""
    depth, index = 0, position - 1
    while index > opening:
        if code[index] == "}":
            depth += 1
        elif code[index] == "{":
            if depth == 0:
                if re.match(r"(\}\s*)?(while|for|repeat|switch)\b", header(code, index)):
                    return True
            else:
                depth -= 1
        index -= 1
    return False


def switch_sections(code, opening, close):
    """(start, end) of each `case`/`default` section of the switch block between the braces."""
    starts, depth = [], 0
    for index in range(opening + 1, close):
        if code[index] == "{":
            depth += 1
        elif code[index] == "}":
            depth -= 1
        elif depth == 0 and re.match(r"(?<![A-Za-z0-9_.])(case|default)\b", code[index:index + 8]) \
                and (index == 0 or not (code[index - 1].isalnum() or code[index - 1] in "_.")):
            colon = index
            while colon < close and code[colon] != ":":
                colon += 1
            starts.append((index, colon + 1))
    return [(colon, starts[number + 1][0] if number + 1 < len(starts) else close)
            for number, (_, colon) in enumerate(starts)]


def exits(body):
    """(line, what happened last to the lock) for each exit of `body`'s own code; none when a
    `defer` releases."""
    code = own_code(body)
    if DEFER_RELEASE.search(code):
        return []
    events = {}
    for pattern, name in ((ACQUIRE, "acquire"), (RELEASE, "release")):
        for match in pattern.finditer(code):
            events[match.end() - 1] = name
    found = []
    for match in RETURN.finditer(code):
        rest = code[match.end():code.find("\n", match.end())]
        event = "release" if RELEASE.search(rest) else last_event(code, events, match.start(), 0)
        found.append((line_of(code, match.start()), event))
    end = len(code.rstrip(" \t\n;"))
    last = re.split(r"[\n;{]", code[:end])[-1]
    if not RETURN.search(last) and not re.search(r"(?<![A-Za-z0-9_])(fatalError|"
                                                 r"preconditionFailure|throw)\b", last):
        event = last_event(code, events, end, 0)
        if event != "loop":
            found.append((line_of(code, end), event))
    return found


def problems(code):
    found = []
    for name, line, body in functions(code):
        role = kind(name)
        own = own_code(body)
        if role == "holds":
            match = RELEASE.search(body)
            if match:
                found.append((line + line_of(body, match.start()) - 1,
                              f"{name} releases the lock (a …Locked function never does)"))
        elif role == "releases":
            for offset, event in exits(body):
                if event != "release":
                    found.append((line + offset - 1, f"{name} can return holding the lock "
                                  "(…AndUnlock always releases)"))
        elif role == "neutral":
            acquire = ACQUIRE.search(own)
            release = RELEASE.search(own)
            if acquire:
                for offset, event in exits(body):
                    if event == "acquire":
                        found.append((line + offset - 1, f"{name} can return holding the lock "
                                      "it took (name it lock… or release it)"))
            if release and (not acquire or release.start() < acquire.start()):
                found.append((line + line_of(body, release.start()) - 1, f"{name} releases a "
                              "lock it did not take (name it …AndUnlock)"))
            first = ACQUIRE_ANY.search(body)
            for call in LOCKED_CALL.finditer(body):
                if not first or call.start() < first.start():
                    found.append((line + line_of(body, call.start()) - 1, f"{name} calls "
                                  f"{call.group(1)} without taking the lock (name it …Locked)"))
                    break
    return found


def self_test():
    cases = {
        # …Locked
        "func fooLocked() { count += 1 }": [],
        "func fooLocked() {\n  lock.unlock()\n  work()\n  lock.lock()\n}": [2],
        "func fooLocked() {\n  barAndUnlock()\n}": [2],
        "func fooLocked() { // lock.unlock() in a comment\n  barLocked()\n}": [],
        # …AndUnlock
        "func sendAndUnlock() {\n  let x = take()\n  lock.unlock()\n  deliver(x)\n}": [],
        "func sendAndUnlock() {\n  let x = take()\n  lock.unlock()\n}": [],
        # a lock taken and released with an argument (a striped table's `lock(stripe)`)
        "func touch() {\n  stripes.lock(i)\n  if x { return }\n  stripes.unlock(i)\n}": [3],
        "func touch() {\n  stripes.lock(i)\n  work()\n  stripes.unlock(i)\n}": [],
        "func sendAndUnlock() {\n  guard ready else {\n    lock.unlock()\n    return\n  }\n"
        "  drainAndUnlock(then: nil)\n}": [],
        "func sendAndUnlock() {\n  guard ready else { return }\n  lock.unlock()\n}": [2],
        "func sendAndUnlock() {\n  if ready {\n    lock.unlock()\n  }\n}": [4],
        "func sendAndUnlock() {\n  if ready {\n    lock.unlock()\n  } else {\n    lock.unlock()\n  }\n}": [],
        "func sendAndUnlock() {\n  defer { lock.unlock() }\n  if x { return }\n  y()\n}": [],
        "func sendAndUnlock() {\n  schedule { return 1 }\n  lock.unlock()\n}": [],
        "func sendAndUnlock() -> Int {\n  return finishAndUnlock()\n}": [],
        # acquirers and plain functions
        "func lockIfOpen() -> Bool {\n  lock.lock()\n  if closed {\n    lock.unlock()\n"
        "    return false\n  }\n  return true\n}": [],
        "func subscribe() -> Bool {\n  lock.lock()\n  if closed {\n    lock.unlock()\n"
        "    return false\n  }\n  return true\n}": [7],
        "func on() {\n  lock.lock()\n  queue.append(1)\n  scheduleAndUnlock()\n}": [],
        "func on() {\n  lock.lock()\n  queue.append(1)\n}": [3],
        "func on() {\n  lock.lock()\n  defer { lock.unlock() }\n  addLocked(1)\n}": [],
        "func finish() {\n  state = 1\n  lock.unlock()\n}": [3],
        "func add() {\n  addLocked(1)\n}": [2],
        "func add() {\n  lock.withLock { addLocked(1) }\n}": [],
        "func run() {\n  lock.lock()\n  while true {\n    guard let x = next() else {\n"
        "      lock.unlock()\n      return\n    }\n    lock.unlock()\n    x()\n    lock.lock()\n"
        "  }\n}": [],
        "func isUnlocked() -> Bool { !held }": [],
        "func sweep() {\n  lock.lock()\n  while true {\n    step()\n    lock.unlock()\n"
        "    if done { break }\n    lock.lock()\n  }\n  after()\n}": [],
        "func sweep() {\n  lock.lock()\n  while true {\n    if done { break }\n    lock.unlock()\n"
        "    lock.lock()\n  }\n  after()\n}": [8],
        "func sweep() {\n  lock.lock()\n  while true {\n    for x in y { if x { break } }\n"
        "    lock.unlock()\n    if done { return }\n    lock.lock()\n  }\n}": [],
        "func scanAndUnlock() {\n  withUnsafeTemporaryAllocation(of: Int.self, capacity: 4) { b in\n"
        "    scanAndUnlock(b)\n  }\n}": [],
        "func subscribe() {\n  guard lockIfOpen() else { return }\n  addLocked(1)\n  lock.unlock()\n}": [],
        "func on() {\n  lock.lock()\n  switch claim() {\n  case .a:\n    lock.unlock()\n    return\n"
        "  case .b:\n    lock.unlock()\n  }\n  work()\n}": [],
        "func on() {\n  lock.lock()\n  switch claim() {\n  case .a:\n    lock.unlock()\n  default:\n"
        "    break\n  }\n  work()\n}": [9],
        "protocol P {\n  func fooLocked()\n  var x: Int { get }\n}": [],
    }
    failed = 0
    for source, expected in cases.items():
        got = sorted({line for line, _ in problems(code_only(source))})
        if got != expected:
            failed += 1
            print(f"self-test: expected lines {expected}, got {got} for {source!r}")
    print(f"check-lock-naming self-test: {len(cases) - failed}/{len(cases)} cases")
    return failed == 0


def main(arguments):
    if arguments and arguments[0] == "--self-test":
        return 0 if self_test() else 1
    files, failures = swift_files(), 0
    for path in files:
        with open(path, encoding="utf-8") as file:
            for line, message in problems(code_only(file.read())):
                failures += 1
                print(f"{path}:{line}: {message}")
    if failures:
        print(f"check-lock-naming: {failures} problem(s) in {len(files)} files")
        return 1
    print(f"check-lock-naming: {len(files)} files follow the lock-naming convention")
    return 0


sys.exit(main(sys.argv[1:]))
PYTHON
