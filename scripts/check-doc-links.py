#!/usr/bin/env python3
"""Checks the relative links of Markdown files: the target file exists and, for `#anchor`
links to Markdown files, a heading with that GitHub anchor exists.

Usage: check-doc-links.py FILE.md...   (exit status 1 and one line per broken link)
"""

import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(path):
    """The lines of a Markdown file outside fenced code blocks, with their numbers."""
    fenced = False
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found = set()
        for _, line in prose_lines(path):
            match = HEADING.match(line)
            if match:
                found.add(anchor(match.group(1)))
        cache[path] = found
    return cache[path]


def main():
    broken = 0
    for path in sys.argv[1:]:
        for number, line in prose_lines(path):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                file_part, _, fragment = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                    if file_part else path
                if not os.path.exists(resolved):
                    print(f"{path}:{number}: broken link: {target} (no file {resolved})")
                    broken += 1
                elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
                    print(f"{path}:{number}: broken link: {target} (no heading #{fragment})")
                    broken += 1
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
