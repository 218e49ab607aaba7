#!/usr/bin/env python3
"""Extracts the Swift code blocks of the Markdown guides into compilable Swift files.

Used by scripts/doc-check.sh; see Documentation/README.md ("Checking the guides") for the
conventions a guide follows:

  ```swift            a snippet, compiled in its own file (its own namespace)
  ```swift continued  more of the snippet of the previous checked block (same file)
  ```swift snippet=N  every block of a guide labelled N is one snippet (for a listing that
                      continues after other, unrelated listings)
  ```swift no-check   shown only, never compiled (Apple-only or deliberately partial code)
  <!-- swift-context
  ...                 hidden code prepended to the next checked snippet (declarations the
  -->                 reader does not need to see, such as a placeholder service)

Each snippet becomes one file. Its top-level declarations get `fileprivate` access, so equal
names in different snippets don't clash; its top-level statements and `let`/`var`s become the
body of a `@MainActor` async throwing function, so a snippet may `await` and `try`. A snippet
without `import` lines imports ReactorKit. `#sourceLocation` directives point every
diagnostic at the guide's own file and line.

Usage: extract-doc-snippets.py OUTPUT_DIR GUIDE.md...
Prints the number of snippets written; the output directory is emptied first.
"""

import os
import re
import shutil
import sys

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*(.*)$")
CONTEXT_START = re.compile(r"^\s*<!--\s*swift-context\s*$")
CONTEXT_END = re.compile(r"^\s*-->\s*$")
ATTRIBUTE_LINE = re.compile(r"^\s*(@\w+(\([^)]*\))?\s*)+$")
ACCESS = r"(?:public|open|internal|package|private|fileprivate)"
MODIFIER = r"(?:@\w+(?:\([^)]*\))?|" + ACCESS + r"|final|indirect|nonisolated|dynamic)"
DECLARATION = re.compile(
    r"^(\s*(?:@\w+(?:\([^)]*\))?\s+)*)((?:" + ACCESS + r"\s+)?)(.*)$")
KEYWORD = re.compile(
    r"^\s*(?:" + MODIFIER + r"\s+)*"
    r"(struct|class|enum|protocol|actor|typealias|extension|func|let|var|import)\b")


class Snippet:
    def __init__(self, guide, index):
        self.guide = guide
        self.index = index
        self.parts = []  # (first line number in the guide, [lines])


def parse_guide(path, text):
    """Returns the checked snippets of one guide, in order."""
    snippets = []
    named = {}
    last = None
    pending_context = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if CONTEXT_START.match(line):
            start = i + 2
            i += 1
            body = []
            while i < len(lines) and not CONTEXT_END.match(lines[i]):
                body.append(lines[i])
                i += 1
            pending_context.append((start, body))
            i += 1
            continue
        fence = FENCE.match(line)
        if not fence:
            i += 1
            continue
        indent, marker, info = fence.groups()
        words = info.split()
        i += 1
        start = i + 1
        body = []
        while i < len(lines):
            closing = FENCE.match(lines[i])
            if closing and closing.group(2).startswith(marker) and not closing.group(3).strip():
                break
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        if not words or words[0] != "swift" or "no-check" in words[1:]:
            continue
        labels = [w[len("snippet="):] for w in words[1:] if w.startswith("snippet=")]
        if "continued" in words[1:]:
            if last is None:
                sys.exit(f"{path}:{start - 1}: a 'continued' block needs a snippet before it")
            snippet = last
        elif labels and labels[0] in named:
            snippet = named[labels[0]]
        else:
            snippet = Snippet(path, len(snippets) + 1)
            snippets.append(snippet)
            if labels:
                named[labels[0]] = snippet
        last = snippet
        snippet.parts.extend(pending_context)
        pending_context = []
        snippet.parts.append((start, body))
    if pending_context:
        sys.exit(f"{path}:{pending_context[0][0] - 1}: swift-context without a snippet after it")
    return snippets


def scan(line, state):
    """Advances the lexical state (bracket depth, comment and string nesting) over a line."""
    j = 0
    n = len(line)
    while j < n:
        if state["comment"]:
            if line.startswith("*/", j):
                state["comment"] -= 1
                j += 2
            elif line.startswith("/*", j):
                state["comment"] += 1
                j += 2
            else:
                j += 1
            continue
        if state["multiline"]:
            if line.startswith('"""', j):
                state["multiline"] = False
                j += 3
            else:
                j += 1
            continue
        c = line[j]
        if line.startswith("//", j):
            return
        if line.startswith("/*", j):
            state["comment"] += 1
            j += 2
        elif line.startswith('"""', j):
            state["multiline"] = True
            j += 3
        elif c == '"':
            j += 1
            interpolation = 0
            while j < n:
                if line.startswith("\\(", j):
                    interpolation += 1
                    j += 2
                    continue
                if interpolation and line[j] == "(":
                    interpolation += 1
                elif interpolation and line[j] == ")":
                    interpolation -= 1
                elif line[j] == "\\":
                    j += 1
                elif line[j] == '"' and not interpolation:
                    break
                j += 1
            j += 1
        else:
            if c in "{([":
                state["depth"] += 1
            elif c in "})]":
                state["depth"] -= 1
            j += 1


def is_comment(line):
    stripped = line.strip()
    return stripped.startswith("//") or (stripped.startswith("/*") and stripped.endswith("*/"))


def split_items(lines, first_line):
    """Splits code into top-level items: (line number, [lines]), each a declaration or a
    statement together with its preceding comments and attributes."""
    items = []
    state = {"depth": 0, "comment": 0, "multiline": False}
    current = None
    substantive = False
    for offset, line in enumerate(lines):
        at_top = state["depth"] == 0 and not state["comment"] and not state["multiline"]
        starts_item = (
            at_top and line[:1] not in ("", " ", "\t", ".", "}", ")", "]")
        )
        if current is None or (starts_item and substantive):
            current = (first_line + offset, [])
            items.append(current)
            substantive = False
        current[1].append(line)
        if line.strip() and not is_comment(line) and not ATTRIBUTE_LINE.match(line):
            substantive = True
        scan(line, state)
    return [item for item in items if any(l.strip() for l in item[1])]


def classify(item_lines):
    """Returns (kind, index of the declaration line) for an item."""
    for index, line in enumerate(item_lines):
        if not line.strip() or is_comment(line) or ATTRIBUTE_LINE.match(line):
            continue
        match = KEYWORD.match(line)
        if not match:
            return "statement", index
        keyword = match.group(1)
        if keyword == "import":
            return "import", index
        if keyword in ("let", "var"):
            return "statement", index
        if keyword == "extension":
            return "extension", index
        return "declaration", index
    return "statement", 0


def make_fileprivate(line):
    prefix, _, rest = DECLARATION.match(line).groups()
    return prefix + "fileprivate " + rest


def declares_conformance(item_lines, index):
    header = " ".join(item_lines[index:index + 3]).split("{")[0].split(" where ")[0]
    return ":" in header


def render(snippet, root):
    guide = os.path.relpath(snippet.guide, root)
    imports = []
    top = []
    body = []
    for first_line, lines in snippet.parts:
        for line_number, item in split_items(lines, first_line):
            kind, index = classify(item)
            if kind == "import":
                imports.extend(l.strip() for l in item if l.strip().startswith("import "))
                continue
            item = list(item)
            if kind == "declaration":
                item[index] = make_fileprivate(item[index])
            elif kind == "extension" and not declares_conformance(item, index):
                item[index] = make_fileprivate(item[index])
            target = body if kind == "statement" else top
            target.append(f'#sourceLocation(file: "{guide}", line: {line_number})')
            target.extend(item)
    if not imports:
        imports = ["import ReactorKit"]
    out = [f"// Generated from {guide} by scripts/extract-doc-snippets.py; do not edit."]
    out.extend(dict.fromkeys(imports))
    out.append("")
    if top:
        out.extend(top)
        out.append("#sourceLocation()")
    if body:
        out.append("")
        out.append("@MainActor")
        out.append(f"fileprivate func snippet{snippet.index}() async throws {{")
        out.extend(body)
        out.append("#sourceLocation()")
        out.append("}")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    output = sys.argv[1]
    root = os.getcwd()
    shutil.rmtree(output, ignore_errors=True)
    os.makedirs(output)
    count = 0
    for guide in sys.argv[2:]:
        with open(guide, encoding="utf-8") as handle:
            snippets = parse_guide(guide, handle.read())
        stem = re.sub(r"[^A-Za-z0-9]", "_", os.path.relpath(guide, root)[:-3])
        for snippet in snippets:
            name = f"{stem}_{snippet.index:02d}.swift"
            with open(os.path.join(output, name), "w", encoding="utf-8") as handle:
                handle.write(render(snippet, root))
            count += 1
    print(count)


if __name__ == "__main__":
    main()
