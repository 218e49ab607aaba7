#!/usr/bin/env python3
"""Generates the offline GitHub search dataset used by the GitHubSearch example.

The repositories are invented (names, owners, descriptions, star counts) but shaped like the
items of GitHub's `GET /search/repositories` response, so the offline and online services
decode the same JSON. The output is fully deterministic: a fixed-seed SplitMix64 generator
(not Python's `random`, whose algorithms may change between versions) drives every choice.

Usage: python3 scripts/generate-github-dataset.py [--count N] [--output PATH]
"""

import argparse
import json
import pathlib

DEFAULT_OUTPUT = (
    pathlib.Path(__file__).resolve().parent.parent
    / "Examples/GitHubSearch/GitHubSearchKit/Resources/repositories.json"
)


class SplitMix64:
    """A small, portable, deterministic pseudo-random generator."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def unit(self):
        """A float in (0, 1]."""
        return ((self.next() >> 11) + 1) / float(1 << 53)

    def below(self, n):
        return self.next() % n

    def choice(self, items):
        return items[self.below(len(items))]

    def weighted(self, pairs):
        total = sum(weight for _, weight in pairs)
        pick = self.below(total)
        for item, weight in pairs:
            if pick < weight:
                return item
            pick -= weight
        raise AssertionError("unreachable")


SYLLABLES = [
    "ka", "lo", "mi", "ra", "to", "ne", "su", "vi", "da", "ze", "po", "li", "an", "el", "or",
    "us", "ba", "co", "fi", "gu", "ha", "jo", "ke", "mo", "ny", "qu", "ri", "sa", "ti", "wo",
]
ORG_WORDS = [
    "labs", "works", "dev", "hq", "io", "soft", "studio", "team", "tech", "code", "apps",
    "systems", "forge", "collective", "oss",
]
LANGUAGES = [
    ("Swift", 34), ("Kotlin", 7), ("Rust", 9), ("Go", 9), ("Python", 9), ("TypeScript", 8),
    ("JavaScript", 6), ("C", 4), ("C++", 4), ("Objective-C", 4), ("Ruby", 2), ("Java", 3),
    ("Zig", 1), ("Haskell", 1), ("Elixir", 1), (None, 2),
]
PREFIXES = [
    "rx", "reactive", "async", "tiny", "fast", "simple", "micro", "nano", "hyper", "lazy",
    "pure", "open", "smart", "easy", "super", "safe", "quick", "mini",
]
NOUNS = {
    "cache": ["in-memory cache", "disk and memory cache", "LRU cache"],
    "router": ["URL router", "deep-link router", "navigation router"],
    "parser": ["JSON parser", "command-line argument parser", "streaming parser"],
    "logger": ["structured logger", "logging library", "log viewer"],
    "store": ["state container", "Redux-style store", "key-value store"],
    "reactor": ["reactive architecture framework", "unidirectional data flow framework"],
    "network": ["networking layer", "HTTP client", "network reachability monitor"],
    "http": ["HTTP server", "HTTP/2 client", "HTTP mocking library"],
    "json": ["JSON encoder and decoder", "JSON schema validator", "JSON pretty printer"],
    "image": ["image loader", "image cache", "image processing toolkit"],
    "layout": ["Auto Layout DSL", "flexbox layout engine", "grid layout library"],
    "animation": ["animation library", "spring animation engine", "Lottie-style player"],
    "charts": ["charting library", "sparkline renderer", "interactive charts"],
    "keychain": ["keychain wrapper", "secure storage helper"],
    "database": ["embedded database", "SQL query builder", "database migration tool"],
    "sqlite": ["SQLite wrapper", "SQLite ORM"],
    "redux": ["Redux implementation", "Redux middleware collection"],
    "state": ["state machine library", "observable state container"],
    "stream": ["reactive streams library", "stream processing toolkit"],
    "promise": ["promise library", "futures and promises"],
    "scheduler": ["task scheduler", "cron-like job scheduler"],
    "queue": ["job queue", "lock-free queue", "priority queue"],
    "websocket": ["WebSocket client", "WebSocket server"],
    "graphql": ["GraphQL client", "GraphQL server toolkit"],
    "markdown": ["Markdown renderer", "Markdown parser"],
    "diff": ["diffing algorithm", "collection diffing library"],
    "crypto": ["cryptography toolkit", "hashing library"],
    "auth": ["authentication library", "OAuth 2 client", "JWT helper"],
    "config": ["configuration loader", "feature flag library"],
    "cli": ["command-line toolkit", "terminal UI framework"],
    "terminal": ["terminal emulator", "ANSI terminal library"],
    "test": ["testing framework", "assertion library", "snapshot testing tool"],
    "mock": ["mocking framework", "HTTP stub server"],
    "benchmark": ["benchmarking harness", "micro-benchmark runner"],
    "metrics": ["metrics collector", "performance monitor"],
    "tracing": ["distributed tracing library", "signpost tracing helper"],
    "form": ["form validation library", "form builder"],
    "calendar": ["calendar view", "date utilities"],
    "search": ["full-text search engine", "fuzzy search library", "search UI component"],
    "todo": ["to-do list app", "task manager", "GTD app"],
    "counter": ["counter demo app", "rate counter"],
    "github": ["GitHub API client", "GitHub Actions toolkit", "GitHub stats dashboard"],
}
SUFFIXES = ["kit", "core", "ui", "x", "lib", "", "", "", ""]
ADJECTIVES = [
    "A lightweight", "A blazing fast", "A type-safe", "A minimal", "A composable",
    "A declarative", "A thread-safe", "A zero-dependency", "A reactive", "A modern",
    "A tiny", "A battle-tested", "An experimental", "A well-documented", "A pragmatic",
]
PLATFORMS = [
    "iOS", "macOS", "Linux", "server-side Swift", "the command line", "Android", "the web",
    "embedded devices", "all Apple platforms", "iOS and Android",
]
FEATURES = [
    "async/await support", "no dependencies", "RxSwift bindings", "property-based tests",
    "a tiny API", "SwiftUI previews", "full test coverage", "Linux support",
    "first-class Combine support", "extensive documentation", "pluggable backends",
    "offline-first sync",
]


def owner_name(rng):
    name = "".join(rng.choice(SYLLABLES) for _ in range(2 + rng.below(2)))
    style = rng.below(4)
    if style == 0:
        return name + "-" + rng.choice(ORG_WORDS)
    if style == 1:
        return name + str(rng.below(100))
    return name


def repository_name(rng, noun, language):
    prefix = rng.choice(PREFIXES) if rng.below(3) else ""
    suffix = rng.choice(SUFFIXES)
    words = [word for word in (prefix, noun, suffix) if word]
    if language in ("Swift", "Objective-C"):
        name = "".join(word.upper() if len(word) <= 2 else word.capitalize() for word in words)
        return ("Swift" + name) if rng.below(5) == 0 else name
    if language == "Rust" and rng.below(2):
        return "-".join(words) + "-rs"
    if language == "Go" and rng.below(2):
        return "go-" + "-".join(words)
    if language == "Python" and rng.below(2):
        return "py" + "_".join(words)
    if language in ("JavaScript", "TypeScript") and rng.below(3) == 0:
        return "-".join(words) + ".js"
    return "-".join(words)


def description(rng, noun, language):
    if rng.below(20) == 0:
        return None
    phrase = rng.choice(NOUNS[noun])
    template = rng.below(4)
    if template == 0:
        return f"{rng.choice(ADJECTIVES)} {phrase} for {rng.choice(PLATFORMS)}."
    if template == 1:
        written = f" written in {language}" if language else ""
        return f"{rng.choice(ADJECTIVES)} {phrase}{written}, with {rng.choice(FEATURES)}."
    if template == 2:
        return f"{phrase[0].upper()}{phrase[1:]} for {rng.choice(PLATFORMS)}: {rng.choice(FEATURES)}."
    return f"{rng.choice(ADJECTIVES)} {phrase}. Supports {rng.choice(PLATFORMS)}."


def stars(rng):
    return min(150_000, int(6 / rng.unit() ** 1.3) - 6)


def generate(count, seed=20_240_601):
    rng = SplitMix64(seed)
    owners = [owner_name(rng) for _ in range(max(40, count // 12))]
    nouns = sorted(NOUNS)
    seen = set()
    repositories = []
    while len(repositories) < count:
        language = rng.weighted(LANGUAGES)
        noun = rng.choice(nouns)
        owner = rng.choice(owners)
        full_name = f"{owner}/{repository_name(rng, noun, language)}"
        if full_name.lower() in seen:
            continue
        seen.add(full_name.lower())
        repositories.append(
            {
                "id": 100_000 + len(repositories) * 7 + rng.below(7),
                "full_name": full_name,
                "html_url": f"https://github.com/{full_name}",
                "description": description(rng, noun, language),
                "language": language,
                "stargazers_count": stars(rng),
            }
        )
    return repositories


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--output", type=pathlib.Path, default=DEFAULT_OUTPUT)
    arguments = parser.parse_args()
    repositories = generate(arguments.count)
    lines = [json.dumps(item, sort_keys=True, ensure_ascii=True) for item in repositories]
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")
    print(f"wrote {len(repositories)} repositories to {arguments.output}")


if __name__ == "__main__":
    main()
