#!/usr/bin/env bash
# Unsafe code lives in a few rooms (issue 25, item 4). Strict memory-safety checking makes the
# compiler demand `unsafe` at every use of a pointer, `Unmanaged`, `unowned(unsafe)`, an
# `@exclusivity(unchecked)` property or a C call taking pointers; this script makes sure those
# uses appear only in the files listed below, so a reviewer knows where to look. Everything
# else uses the small safe types the rooms export (`Lock`, `Gate`, `AtomicSlot…`,
# `UnretainedReference`, the engines' storage accessors, the `System` wrappers).
#
# A file outside the rooms that contains any unsafe construct fails the check with its lines.
# To add unsafe code: put it in a room (or make a new storage file an engine owns) and list it
# here with its reason. Usage: scripts/check-unsafe-rooms.sh   (about a second, no build)
set -uo pipefail
cd "$(dirname "$0")/.."

# Rooms, as extended regular expressions over paths under Sources/.
rooms=(
  # The synchronization primitives: locks, gates, atomics, once-references, thread identity.
  '^Sources/ReactorKitStreams/Internal/Synchronization/'
  # The link type every sink chain is built from (unretained parent/child links).
  '^Sources/ReactorKitStreams/Internal/Sinks/SubscriptionLink\.swift$'
  # Operating-system boundaries: clocks, environment, thread-local keys, sockets, files.
  '^Sources/[A-Za-z]+/Internal/System/'
  '^Sources/ReactorKitInspector/Server/System/'
  # Engines' storage files: the one place an engine lays out and reaches its memory.
  '^Sources/ReactorKit/Reactor/Engine/ReactorCore\+Storage\.swift$'
  '^Sources/ReactorKit/Reactor/Engine/WeakObjectTable\.swift$'
  '^Sources/ReactorKit/Reactor/Engine/ViewStorage\.swift$'
  '^Sources/ReactorKit/Store/Engine/StoreStateStorage\.swift$'
  '^Sources/ReactorKit/Store/Engine/StoreLockedState\.swift$'
  '^Sources/ReactorKit/Observation/Engine/ObservedStateStorage\.swift$'
  '^Sources/ReactorKitStreams/Subjects/SubjectStorage\.swift$'
  '^Sources/ReactorKitStreams/Schedulers/TrampolineStorage\.swift$'
  '^Sources/ReactorKitInspector/Events/EventRingStorage\.swift$'
  # The ReSwift facade's delivery: each subscription's pipeline and per-subscriber fields.
  '^Sources/ReactorKitReSwift/Internal/SubscriptionStorage\.swift$'
  # The ReactiveReSwift facade's publisher: the observable and first-state flag, read per state.
  '^Sources/ReactorKitReactiveReSwift/Internal/StatePublisherStorage\.swift$'
)

# Files not yet moved into a room. Each entry is a debt; the list only shrinks.
pending=(
)

in_list() {
  local file=$1; shift
  local pattern
  for pattern in "$@"; do
    [[ $file =~ $pattern ]] && return 0
  done
  return 1
}

is_pending() {
  local entry
  for entry in "${pending[@]}"; do [ "$1" = "$entry" ] && return 0; done
  return 1
}

# Unsafe constructs. Comments and string literals are stripped first (a `///` line that
# mentions `Unmanaged`, or a CSP header's 'unsafe-inline', is not code).
constructs='(^|[^A-Za-z_])unsafe([^A-Za-z_(-]|$)|Unmanaged|Unsafe[A-Za-z]*Pointer|withUnsafe|_withUnsafe|unowned\(unsafe\)|@exclusivity\(unchecked\)|unsafeDowncast|unsafeBitCast|nonisolated\(unsafe\)|_getUnsafePointerToStoredProperties'

failures=0
checked=0
while IFS= read -r file; do
  checked=$((checked + 1))
  in_list "$file" "${rooms[@]}" && continue
  if [ ${#pending[@]} -gt 0 ] && is_pending "$file"; then continue; fi
  hits=$(sed -E -e 's#//.*$##' -e 's/"([^"\\]|\\.)*"/""/g' "$file" | grep -nE "$constructs")
  if [ -n "$hits" ]; then
    echo "unsafe code outside its rooms: $file"
    echo "$hits" | sed 's/^/    /' | head -20
    failures=$((failures + 1))
  fi
done < <(find Sources -name '*.swift' | sort)

# A pending file that is now clean must leave the list, so it cannot silently grow back.
for file in "${pending[@]}"; do
  [ -f "$file" ] || { echo "pending entry names no file: $file"; failures=$((failures + 1)); continue; }
  if ! sed -E -e 's#//.*$##' -e 's/"([^"\\]|\\.)*"/""/g' "$file" | grep -E "$constructs" >/dev/null; then
    echo "pending entry is clean now, remove it from the list: $file"
    failures=$((failures + 1))
  fi
done

if [ "$failures" -gt 0 ]; then
  echo "check-unsafe-rooms: $failures problem(s) in $checked files"
  exit 1
fi
echo "check-unsafe-rooms: $checked files, unsafe code only in its rooms (${#pending[@]} pending)"
