#!/usr/bin/env bash
# Compiles every ```swift block of the guides (Documentation/**/*.md and the DocC articles in
# Sources/ReactorKit/ReactorKit.docc and Sources/ReactorKitTesting/ReactorKitTesting.docc)
# against the package's modules, in one compiler invocation, and checks the guides' relative
# links. See Documentation/README.md, "Checking the guides".
#
#   scripts/doc-check.sh                 check every guide
#   scripts/doc-check.sh FILE.md...      check these files only
#
# The generated sources live in .build/doc-check/ (ignored by git, rebuilt on every run).
# Exits non-zero when a snippet fails to compile or warns (warnings about values that are
# never used are allowed: a snippet often names a value only to show it).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -gt 0 ]; then
  guides=("$@")
else
  mapfile -t guides < <(find Documentation Sources/ReactorKit/ReactorKit.docc \
    Sources/ReactorKitTesting/ReactorKitTesting.docc \
    Sources/ReactorKitInspector/ReactorKitInspector.docc -name '*.md' | LC_ALL=C sort)
fi

links_ok=1
python3 scripts/check-doc-links.py "${guides[@]}" || links_ok=0

out=.build/doc-check
snippets="$out/Snippets"
count=$(python3 scripts/extract-doc-snippets.py "$snippets" "${guides[@]}")
echo "doc-check: $count snippets from ${#guides[@]} guides"
[ "$count" -gt 0 ] || exit $((1 - links_ok))

# The modules the snippets import; a no-op when `swift build` already ran.
swift build --target ReactorKitTesting 2>&1 | grep -E "error:|warning:" && exit 1
swift build --target ReactorKitInspector 2>&1 | grep -E "error:|warning:" && exit 1
swift build --target ReactorKitReSwift 2>&1 | grep -E "error:|warning:" && exit 1
swift build --target ReactorKitReactiveReSwift 2>&1 | grep -E "error:|warning:" && exit 1
swift build --target ReactorKitReSwiftTesting 2>&1 | grep -E "error:|warning:" && exit 1
bin=$(swift build --show-bin-path)
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"

flags=(-swift-version 6 -parse-as-library -module-name DocSnippets -I "$modules" -wmo -Onone)
# The package's C module (atomics), imported by the streams module's interface.
atomics_map="$bin/CReactorKitAtomics.build/module.modulemap"
[ -f "$atomics_map" ] && flags+=(-Xcc "-fmodule-map-file=$atomics_map")
if [ "$(uname)" = Darwin ]; then
  platform=$(xcrun --show-sdk-platform-path)
  flags+=(-sdk "$(xcrun --show-sdk-path)" -target "$(uname -m)-apple-macosx14.0"
    -F "$platform/Developer/Library/Frameworks" -I "$platform/Developer/usr/lib")
fi

log="$out/compile.log"
status=0
swiftc "${flags[@]}" -c -o "$out/DocSnippets.o" "$snippets"/*.swift >"$log" 2>&1 || status=$?
# Warnings that a documentation snippet may have: values named only to be shown.
# Also allowed: two guides with the same file name (a guide and a DocC article) give equal
# `#fileID`s through the `#sourceLocation` directives, which nothing here uses.
grep -vE "warning: (initialization of (immutable value|variable) '.*' was never used|immutable value '.*' was never used|variable '.*' was written to, but never read|'#sourceLocation' directive produces '#fileID' string)" \
  "$log" | grep -E "(error|warning):" >"$out/problems.log" || true
if [ "$status" -ne 0 ] || [ -s "$out/problems.log" ]; then
  cat "$log"
  echo "doc-check FAILED: $(grep -c ": error:" "$log" || true) errors, $(grep -c "warning:" "$out/problems.log" || true) warnings (generated sources: $snippets)"
  exit 1
fi
if [ "$links_ok" -eq 0 ]; then
  echo "doc-check FAILED: broken links"
  exit 1
fi
echo "doc-check passed"
