#!/usr/bin/env bash
# Builds the DocC documentation of the ReactorKit module (which re-exports the streams) from
# Sources/ReactorKit/ReactorKit.docc, with the toolchain's `docc` and without the DocC plugin.
#
#   scripts/build-docs.sh                    archive in .build-docc/ReactorKit.doccarchive
#   scripts/build-docs.sh OUTPUT_DIR         archive in OUTPUT_DIR
#   STATIC_HOSTING_BASE_PATH=ReactorKit scripts/build-docs.sh site
#                                            a static website served under /ReactorKit
#
# Fails on any DocC warning. The symbol-graph build uses its own scratch path, so it does
# not disturb the regular `.build`; the first run compiles the module once (about two
# minutes on two cores), later runs only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docc
output=${1:-$scratch/ReactorKit.doccarchive}
graphs="$PWD/$scratch/symbol-graphs"
module_graphs="$PWD/$scratch/module-symbol-graphs"

rm -rf "$graphs" "$module_graphs"
mkdir -p "$graphs" "$module_graphs"
swift build --scratch-path "$scratch" --target ReactorKit \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" 2>&1 \
  | grep -E "error:|warning:|Compiling|Build" || true
[ -f "$graphs/ReactorKit.symbols.json" ] || { echo "build-docs: no symbol graph"; exit 1; }

# Only ReactorKit's graphs: they already contain the re-exported ReactorKitStreams symbols,
# and a second module's graphs would make DocC document the streams twice.
cp "$graphs"/ReactorKit.symbols.json "$graphs"/ReactorKit@*.symbols.json "$module_graphs"/

hosting=()
if [ -n "${STATIC_HOSTING_BASE_PATH:-}" ]; then
  hosting=(--transform-for-static-hosting --hosting-base-path "$STATIC_HOSTING_BASE_PATH")
fi

rm -rf "$output"
docc convert Sources/ReactorKit/ReactorKit.docc \
  --additional-symbol-graph-dir "$module_graphs" \
  --fallback-display-name ReactorKit --fallback-bundle-identifier reactorkit \
  --output-path "$output" --warnings-as-errors ${hosting[@]+"${hosting[@]}"}
echo "build-docs: $output"
