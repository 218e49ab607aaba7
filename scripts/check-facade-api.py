#!/usr/bin/env python3
"""Checks the migration facades' public declarations against their upstream libraries'.

Each file in scripts/facade-api/ lists the public declarations of one upstream library at its
pinned version (ReSwift 6.1.1, ReactiveReSwift 5.0, ReSwift-Thunk 2.0.1), extracted by hand from
the upstream sources (the header of each file says from where) and stored here so the check
needs no network. The script extracts the public and open declarations of the facade modules
from our sources, normalises both sides the same way, and fails when an upstream declaration
has no counterpart, unless the fixture marks it `~` (a deliberate difference, with its reason).

Normal form: one declaration per line, `Context.declaration`, where the declaration keeps its
keyword, name, generic clause, argument labels (not parameter names), types and `where`
clause, and drops attributes, access and inheritance modifiers (`public`, `open`, `final`,
`required`, `convenience`, `@discardableResult`, …), default values, `any`, parameter names
inside function types and whitespace. Our own extra declarations are allowed.

Usage: scripts/check-facade-api.py [--self-test | --print MODULE_DIR...]
  --self-test   check the normaliser on upstream-style declarations, then a removed one
  --print DIR   print the normal form of DIR's public declarations (to write a fixture)
"""

import os
import re
import sys

ROOT = os.environ.get("FACADE_API_ROOT") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "facade-api")

KEYWORDS = ("func", "init", "var", "let", "typealias", "associatedtype", "protocol", "class",
            "struct", "enum", "case", "subscript", "extension", "static func", "static var")
DROP_WORDS = {"public", "open", "final", "required", "convenience", "override", "nonisolated",
              "mutating", "dynamic", "lazy", "package", "internal", "weak", "unowned"}


def strip_comments_and_strings(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return text


def split_params(params):
    """Splits a parameter list at top-level commas."""
    parts, depth, current = [], 0, ""
    for ch in params:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return parts


def normalise_type(t):
    t = re.sub(r"@escaping\s*", "", t)
    t = re.sub(r"\bany\s+", "", t)
    t = re.sub(r"\bSwift\.", "", t)
    # Parameter names inside function types: `(_ state: State)` -> `(State)`.
    t = re.sub(r"(?<=[(,])\s*_\s+\w+\s*:\s*", "", t)
    t = re.sub(r"\s+", "", t)
    t = re.sub(r"^\((\(.*\)->.*)\)$", r"\1", t)  # drop parentheses around a whole function type
    return t


def normalise_params(params):
    out = []
    for p in split_params(params):
        p = p.strip()
        if not p:
            continue
        p = p.split("=")[0] if "=" in p and "->" not in p.split("=")[0] else p
        if "=" in p:
            # A default value after the type: cut at the top-level `=`.
            depth, cut = 0, None
            for i, ch in enumerate(p):
                if ch in "(<[":
                    depth += 1
                elif ch in ")>]":
                    depth -= 1
                elif ch == "=" and depth == 0 and p[i + 1:i + 2] != "=" and p[i - 1:i] not in "=!<>-":
                    cut = i
                    break
            if cut is not None:
                p = p[:cut]
        name_part, _, type_part = p.partition(":")
        names = name_part.split()
        label = names[0] if names else "_"
        out.append(f"{label}:{normalise_type(type_part)}")
    return "(" + ",".join(out) + ")"


def normalise(decl):
    decl = re.sub(r"@\w+(\([^()]*(\([^()]*\))*[^()]*\))?", " ", decl)
    words = decl.split()
    words = [w for w in words if w not in DROP_WORDS and not w.startswith("private(")]
    decl = " ".join(words)
    decl = re.sub(r"\bany\s+", "", decl)
    m = re.match(r"^((?:static\s+)?func\s+[^(<\s]+|init[?!]?|subscript)\s*(<[^(]*?>)?\s*\((.*)$", decl)
    if m:
        head, generics, rest = m.group(1), m.group(2) or "", m.group(3)
        depth, i = 1, 0
        while i < len(rest) and depth:
            if rest[i] == "(":
                depth += 1
            elif rest[i] == ")":
                depth -= 1
            i += 1
        params, tail = rest[:i - 1], rest[i:]
        tail = re.sub(r"\s+", " ", tail).strip()
        ret = ""
        where = ""
        if "where" in tail:
            tail, _, where = tail.partition("where")
        tail = tail.strip()
        if tail.startswith("->"):
            ret = "->" + normalise_type(tail[2:])
        elif tail.startswith(("throws", "async", "rethrows")):
            ret = tail.replace(" ", "")
        where = re.sub(r"\s+", "", where)
        generics = re.sub(r"\s+", "", generics)
        head = re.sub(r"\s+", " ", head)
        return f"{head}{generics}{normalise_params(params)}{ret}" + (f" where {where}" if where else "")
    m = re.match(r"^((?:static\s+)?(?:var|let))\s+(\w+)\s*:\s*(.*)$", decl)
    if m:
        return f"{m.group(1).replace('let', 'var')} {m.group(2)}:{normalise_type(m.group(3).split('=')[0])}"
    m = re.match(r"^(typealias|associatedtype)\s+(\w+)\s*(<[^=]*>)?\s*(:\s*[^=]+)?(=\s*(.*))?$", decl)
    if m:
        out = f"{m.group(1)} {m.group(2)}{re.sub(r's+', '', m.group(3) or '')}"
        if m.group(4):
            out += ":" + normalise_type(m.group(4)[1:])
        if m.group(6) is not None:
            out += "=" + normalise_type(m.group(6))
        return out
    m = re.match(r"^(protocol|class|struct|enum)\s+(\w+)\s*(<[^>]*>)?\s*(:\s*(.*))?$", decl)
    if m:
        out = f"{m.group(1)} {m.group(2)}{re.sub(r'[ ]', '', m.group(3) or '')}"
        return out
    m = re.match(r"^case\s+(.*)$", decl)
    if m:
        return "case " + re.sub(r"\s+", "", m.group(1))
    return re.sub(r"\s+", " ", decl)


def declarations(text):
    """Yields (context, header, is_public) for each declaration, with brace-depth contexts."""
    text = strip_comments_and_strings(text)
    stack = []  # (name, depth)
    depth = 0
    i = 0
    n = len(text)
    pending_context = None
    while i < n:
        ch = text[i]
        if ch == "{":
            depth += 1
            if pending_context is not None:
                stack.append((pending_context, depth))
                pending_context = None
            i += 1
            continue
        if ch == "}":
            if stack and stack[-1][1] == depth:
                stack.pop()
            depth -= 1
            i += 1
            continue
        # Start of a line-ish token: look for a declaration at the current depth, only
        # directly inside a type or at file scope (never inside a function body).
        at_scope = depth == (stack[-1][1] if stack else 0)
        if at_scope and (i == 0 or text[i - 1] in "\n;{}"):
            line_start = i
            m = re.match(
                r"[ \t]*((?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|open|private|fileprivate|internal|"
                r"package|final|required|convenience|override|static|class|mutating|nonisolated|"
                r"lazy|weak|unowned|indirect|dynamic|private\(set\)|public\(set\)|"
                r"@\w+(?:\([^)]*\))?)\s+)*)"
                r"(func|init|var|let|typealias|associatedtype|protocol|class|struct|enum|case|"
                r"extension|subscript)\b",
                text[i:])
            if m:
                # The header runs to the first `{` at paren depth 0, or to a newline at paren
                # depth 0 that does not continue the declaration.
                j = i + m.end()
                par = 0
                while j < n:
                    c = text[j]
                    if c in "([":
                        par += 1
                    if c in ")]":
                        par -= 1
                    if c == "{" and par <= 0:
                        break
                    if c == "\n" and par <= 0:
                        rest = text[j + 1:].lstrip(" \t")
                        if not rest.startswith(("where", "->", "throws", ")", "async", ":", "=", "&", "<", ">", ".", ",")) \
                                and not text[:j].rstrip().endswith(("->", ",", "=", ":", "(", "&", "where", "<")):
                            break
                    j += 1
                header = re.sub(r"\s+", " ", text[i:j]).strip()
                kind = m.group(2)
                modifiers = m.group(1)
                context = ".".join(s[0] for s in stack)
                is_public = bool(re.search(r"\b(public|open)\b", modifiers))
                if kind in ("protocol", "class", "struct", "enum", "extension"):
                    name = re.match(r".*?\b" + kind + r"\s+([\w.]+)", header).group(1)
                    if j < n and text[j] == "{":
                        pending_context = name
                    yield context, header, is_public, kind
                    i = j
                    continue
                yield context, header, is_public, kind
                i = j
                continue
        i += 1


def facade_declarations(module_dirs):
    found = set()
    protocols = set()
    for module_dir in module_dirs:
        for root, _, files in os.walk(module_dir):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    text = f.read()
                for context, header, is_public, kind in declarations(text):
                    if kind == "protocol" and is_public:
                        protocols.add(re.match(r".*\bprotocol\s+(\w+)", header).group(1))
                    if kind == "extension":
                        continue
                    in_protocol = context.split(".")[0] in protocols if context else False
                    if not (is_public or in_protocol):
                        continue
                    ctx = re.sub(r"<[^>]*>", "", context).split(" ")[0]
                    found.add(f"{ctx}.{normalise(header)}" if ctx else normalise(header))
    return found


SELF_TEST = [
    # (upstream-style source, its normal form)
    ("public protocol StreamType {\n  associatedtype ValueType\n"
     "  func subscribe(_ function: @escaping (ValueType) -> Void) -> DisposableType\n}",
     ["protocol StreamType", "StreamType.associatedtype ValueType",
      "StreamType.func subscribe(_:(ValueType)->Void)->DisposableType"]),
    ("open class Store<State>: StoreType {\n"
     "    public required init(\n        reducer: @escaping Reducer<State>,\n"
     "        state: State?,\n        middleware: [Middleware<State>] = [],\n"
     "        automaticallySkipsRepeats: Bool = true\n    ) {\n        let x = 1\n    }\n"
     "    public typealias AsyncActionCreator = (\n        _ state: State,\n"
     "        _ store: Store,\n"
     "        _ actionCreatorCallback: @escaping ((ActionCreator) -> Void)\n    ) -> Void\n}\n"
     "extension Store {\n    open func subscribe<SelectedState: Equatable, S: StoreSubscriber>(\n"
     "        _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?\n"
     "        ) where S.StoreSubscriberStateType == SelectedState\n    {\n    }\n}",
     ["class Store<State>",
      "Store.init(reducer:Reducer<State>,state:State?,middleware:[Middleware<State>],"
      "automaticallySkipsRepeats:Bool)",
      "Store.typealias AsyncActionCreator=(State,Store,((ActionCreator)->Void))->Void",
      "Store.func subscribe<SelectedState:Equatable,S:StoreSubscriber>(_:S,transform:"
      "((Subscription<State>)->Subscription<SelectedState>)?) where "
      "S.StoreSubscriberStateType==SelectedState"]),
]


def self_test():
    import tempfile
    ok = True
    for source, expected in SELF_TEST:
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "A.swift"), "w", encoding="utf-8") as f:
                f.write(source)
            got = facade_declarations([tmp])
            # A declaration one module lacks is reported: drop the last expected one.
            with open(os.path.join(tmp, "A.swift"), "w", encoding="utf-8") as f:
                f.write(source.replace("-> DisposableType\n", "-> DisposableType?\n")
                        .replace("SelectedState: Equatable", "SelectedState"))
            changed = facade_declarations([tmp])
        if sorted(got) != sorted(expected):
            print("self-test: expected", sorted(expected), "got", sorted(got))
            ok = False
        if expected[-1] in changed:
            print("self-test: a changed declaration still matched:", expected[-1])
            ok = False
    print("check-facade-api self-test:", "passed" if ok else "FAILED")
    return 0 if ok else 1


def main():
    args = sys.argv[1:]
    if args[:1] == ["--self-test"]:
        return self_test()
    if args[:1] == ["--print"]:
        for line in sorted(facade_declarations(args[1:])):
            print(line)
        return 0
    failures = 0
    checked = 0
    for fixture in sorted(os.listdir(FIXTURES)):
        if not fixture.endswith(".txt"):
            continue
        modules = []
        expected = []
        with open(os.path.join(FIXTURES, fixture), encoding="utf-8") as f:
            for raw in f:
                line = raw.rstrip("\n")
                if line.startswith("# modules:"):
                    modules = [os.path.join(ROOT, "Sources", m) for m in line.split(":", 1)[1].split()]
                if not line.strip() or line.startswith("#"):
                    continue
                expected.append(line)
        ours = facade_declarations(modules)
        for line in expected:
            deliberate = line.startswith("~")
            decl = line[1:].split("  #")[0].strip() if deliberate else line.strip()
            checked += 1
            if deliberate:
                continue
            if decl not in ours:
                print(f"{fixture}: no counterpart for upstream `{decl}`")
                failures += 1
    print(f"check-facade-api: {checked} upstream declarations checked, {failures} missing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
