"""Helpers shared by the scripts/check-*.sh source checks (Python 3, standard library only).

`code_only` blanks comments and string literals while keeping line numbers, so a check that
looks for code cannot be fooled by a comment or a string. `functions` finds each `func` with its
name and body, `scopes` splits a body into its own statements and closures.
"""
import os
import re

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



def swift_files(root="Sources"):
    """The `.swift` files under `root`, sorted."""
    return sorted(os.path.join(folder, name) for folder, _, names in os.walk(root)
                  for name in names if name.endswith(".swift"))


def read_code(path):
    with open(path, encoding="utf-8") as file:
        return code_only(file.read())


def line_of(code, index):
    return code.count("\n", 0, index) + 1


def matching_brace(code, start):
    """The index of the `}` closing the `{` at `start` (comments and strings already blanked)."""
    depth = 0
    for index in range(start, len(code)):
        if code[index] == "{":
            depth += 1
        elif code[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return len(code)


FUNC = re.compile(r"(?<![A-Za-z0-9_])func\s+([A-Za-z_][A-Za-z0-9_]*)")
MEMBER_START = re.compile(
    r"\n[ \t]*(func |var |let |init|deinit|subscript|@|static |class |public |package |internal "
    r"|private |fileprivate |mutating |nonmutating |override |final |open |nonisolated |case "
    r"|associatedtype |typealias |#|})")


def functions(code):
    """(name, line, body) for each `func` with a body; `body` is the text between its braces."""
    found = []
    for match in FUNC.finditer(code):
        index, depth = match.end(), 0
        while index < len(code):
            character = code[index]
            if character in "([":
                depth += 1
            elif character in ")]":
                depth -= 1
            elif depth == 0 and character == "{":
                end = matching_brace(code, index)
                found.append((match.group(1), line_of(code, match.start()), code[index + 1:end]))
                break
            elif depth == 0 and (character == "}" or MEMBER_START.match(code, index)):
                break  # a requirement without a body
            index += 1
    return found


CONTROL = re.compile(r"^\s*(if|guard|else|while|for|switch|repeat|do|catch|defer|case|default"
                     r"|#if|#else|#elseif)\b")
CLOSURE_HEAD = re.compile(r"\s*(\[[^\]]*\]\s*)?(\([^()]*\)|[A-Za-z_$0-9, ]*)\s+in\b")


def opens_closure(code, index):
    """Whether the `{` at `index` opens a closure (not a control-flow or declaration block)."""
    line_start = code.rfind("\n", 0, index) + 1
    line_end = code.find("\n", index)
    if CLOSURE_HEAD.match(code, index + 1, line_end if line_end >= 0 else len(code)):
        return True
    before = code[line_start:index].rstrip()
    if not before or before.lstrip().startswith("}"):
        return False  # a block continuing the statement above, or `} else {`
    if before.endswith(("(", ",", "=", ":", "[", "??", "&&", "||", "return")):
        return True
    if re.search(r"(?<![A-Za-z0-9_])(else|do|repeat|defer)$", before):
        return False
    return not CONTROL.match(before) and not re.match(r"^\s*(\S+\s+)*func\b", before)


def runs_in_place(code, index):
    """Whether the closure at `index` is the body of a `with…` call (`withLock`,
    `withUnsafeTemporaryAllocation`, `withExtendedLifetime`): it runs once, in place."""
    before = code[code.rfind("\n", 0, index) + 1:index]
    return re.search(r"(?<![A-Za-z0-9_])with[A-Z][A-Za-z0-9]*\s*(\([^()]*(\([^()]*\)[^()]*)*\))?\s*$",
                     before) is not None


def own_code(body):
    """`body` with the bodies of the closures in it blanked (newlines kept), except closures
    that run in place (`runs_in_place`)."""
    out, index = list(body), 0
    while index < len(body):
        if body[index] == "{" and opens_closure(body, index) and not runs_in_place(body, index):
            end = matching_brace(body, index)
            for position in range(index + 1, min(end, len(body))):
                if out[position] != "\n":
                    out[position] = " "
            index = end
        index += 1
    return "".join(out)
