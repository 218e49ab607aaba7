#!/usr/bin/env bash
# Builds the DocC documentation of the ReactorKit module (which re-exports the streams) from
# Sources/ReactorKit/ReactorKit.docc, of the ReactorKitTesting module from
# Sources/ReactorKitTesting/ReactorKitTesting.docc, and of the ReactorKitInspector module from
# Sources/ReactorKitInspector/ReactorKitInspector.docc (into
# .build-docc/ReactorKitInspector.doccarchive, or a third OUTPUT_DIR argument), with the
# toolchain's `docc` and without the DocC plugin.
#
#   scripts/build-docs.sh                    archives in .build-docc/ReactorKit.doccarchive
#                                            and .build-docc/ReactorKitTesting.doccarchive
#   scripts/build-docs.sh OUTPUT_DIR [TESTING_OUTPUT_DIR]
#                                            ReactorKit's archive in OUTPUT_DIR,
#                                            ReactorKitTesting's in TESTING_OUTPUT_DIR
#                                            (default .build-docc/ReactorKitTesting.doccarchive)
#   STATIC_HOSTING_BASE_PATH=ReactorKit scripts/build-docs.sh site testing-site
#                                            static websites served under /ReactorKit and
#                                            /ReactorKitTesting (TESTING_STATIC_HOSTING_BASE_PATH
#                                            overrides the second)
#
# Fails on any DocC warning in either module (both are converted; the exit status reports
# the first failure). The symbol-graph build uses its own scratch path, so it does not disturb
# the regular `.build`; the first run compiles the three library modules once (about a
# minute and a half on two cores), later runs only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docc
output=${1:-$scratch/ReactorKit.doccarchive}
testing_output=${2:-$scratch/ReactorKitTesting.doccarchive}
graphs="$PWD/$scratch/symbol-graphs"
module_graphs="$PWD/$scratch/module-symbol-graphs"
testing_graphs="$PWD/$scratch/testing-symbol-graphs"

# The compiler writes a module's graphs only when it compiles the module, so "$graphs" is kept
# between runs: after an edit elsewhere, ReactorKit's graphs from the last run are still its
# current ones. (Delete .build-docc to start afresh.)
rm -rf "$module_graphs" "$testing_graphs"
mkdir -p "$graphs" "$module_graphs" "$testing_graphs"
# Building ReactorKitTesting builds ReactorKit and ReactorKitStreams too, with the same flags.
swift build --scratch-path "$scratch" --target ReactorKitTesting \
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

status=0
rm -rf "$output"
docc convert Sources/ReactorKit/ReactorKit.docc \
  --additional-symbol-graph-dir "$module_graphs" \
  --fallback-display-name ReactorKit --fallback-bundle-identifier reactorkit \
  --output-path "$output" --warnings-as-errors ${hosting[@]+"${hosting[@]}"} || status=$?
[ "$status" -ne 0 ] || echo "build-docs: $output"

# ReactorKitTesting: the compiler's graph of it also holds every symbol it re-exports
# (`@_exported import ReactorKit`), so extract its own symbols from the built module instead:
# its types, plus `toBlocking` as an extension of ReactorKitStreams' ObservableConvertibleType
# (an "Extended Modules" page). Members inherited from protocol extensions (the operators of
# `TestableObservable`) are left out; they are documented in ReactorKit.
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
if [ "$(uname)" = Darwin ]; then
  platform=$(xcrun --show-sdk-platform-path)
  target=(-target "$(uname -m)-apple-macosx15.0" -sdk "$(xcrun --show-sdk-path)"
    -F "$platform/Developer/Library/Frameworks" -I "$platform/Developer/usr/lib")
else
  triple=$(swiftc -print-target-info \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
  target=(-target "$triple")
fi
# The package's C module (atomics), imported by the streams module's interface.
atomics_map="$bin/CReactorKitAtomics.build/module.modulemap"
[ -f "$atomics_map" ] && target+=(-Xcc "-fmodule-map-file=$atomics_map")
swift symbolgraph-extract -module-name ReactorKitTesting -I "$modules" "${target[@]}" \
  -minimum-access-level public -emit-extension-block-symbols -skip-synthesized-members \
  -output-dir "$testing_graphs"

testing_hosting=()
if [ -n "${STATIC_HOSTING_BASE_PATH:-}${TESTING_STATIC_HOSTING_BASE_PATH:-}" ]; then
  testing_hosting=(--transform-for-static-hosting --hosting-base-path
    "${TESTING_STATIC_HOSTING_BASE_PATH:-${STATIC_HOSTING_BASE_PATH}Testing}")
fi

testing_status=0
rm -rf "$testing_output"
docc convert Sources/ReactorKitTesting/ReactorKitTesting.docc \
  --additional-symbol-graph-dir "$testing_graphs" \
  --fallback-display-name ReactorKitTesting --fallback-bundle-identifier reactorkittesting \
  --output-path "$testing_output" --warnings-as-errors \
  ${testing_hosting[@]+"${testing_hosting[@]}"} || testing_status=$?
[ "$testing_status" -ne 0 ] || echo "build-docs: $testing_output"

# ReactorKitInspector: its own graph (it re-exports nothing), with its own catalog.
inspector_output=${3:-$scratch/ReactorKitInspector.doccarchive}
inspector_graphs="$PWD/$scratch/inspector-symbol-graphs"
rm -rf "$inspector_graphs"
mkdir -p "$inspector_graphs"
swift build --scratch-path "$scratch" --target ReactorKitInspector \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" 2>&1 \
  | grep -E "error:|warning:" || true
cp "$graphs"/ReactorKitInspector.symbols.json "$inspector_graphs"/
inspector_hosting=()
if [ -n "${STATIC_HOSTING_BASE_PATH:-}" ]; then
  inspector_hosting=(--transform-for-static-hosting --hosting-base-path
    "${STATIC_HOSTING_BASE_PATH}Inspector")
fi
inspector_status=0
rm -rf "$inspector_output"
docc convert Sources/ReactorKitInspector/ReactorKitInspector.docc \
  --additional-symbol-graph-dir "$inspector_graphs" \
  --fallback-display-name ReactorKitInspector --fallback-bundle-identifier reactorkitinspector \
  --output-path "$inspector_output" --warnings-as-errors \
  ${inspector_hosting[@]+"${inspector_hosting[@]}"} || inspector_status=$?
[ "$inspector_status" -ne 0 ] || echo "build-docs: $inspector_output"

[ "$status" -eq 0 ] || exit "$status"
[ "$testing_status" -eq 0 ] || exit "$testing_status"
exit "$inspector_status"
