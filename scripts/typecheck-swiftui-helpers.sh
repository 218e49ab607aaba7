#!/usr/bin/env bash
# Type-checks the `#if canImport(SwiftUI)` code of module ReactorKit on a machine without
# SwiftUI, against stand-in `SwiftUI` modules that declare `Binding.init(get:set:)` the ways
# the Apple SDKs have declared it (plain closures; `@isolated(any)`; `@isolated(any)
# @Sendable`, with and without `@preconcurrency`), then type-checks a client view that uses the
# helpers. Warnings count as failures. Run after `swift build` (it reads
# .build/debug/Modules). Usage: scripts/typecheck-swiftui-helpers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
package_name=$(basename "$PWD" | tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9_]/_/g')
modules=.build/debug/Modules
[ -f "$modules/ReactorKitStreams.swiftmodule" ] || { echo "run swift build first"; exit 1; }

plain='public init(get: @escaping () -> Value, set: @escaping (Value) -> Void)'
isolated='@preconcurrency public init(get: @escaping @isolated(any) () -> Value, set: @escaping @isolated(any) (Value) -> Void)'
sendable='@preconcurrency public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void)'
strict='public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void)'

cat > "$work/client.swift" <<'SWIFT'
import ReactorKit
import SwiftUI

final class NameReactor: Reactor {
  enum Action { case setName(String) }
  struct State { var name = "" }
  let initialState = State()
  func reduce(state: State, mutation: Action) -> State {
    var state = state
    if case .setName(let name) = mutation { state.name = name }
    return state
  }
}

enum TodoAction: StoreAction { case setShowsDone(Bool) }
struct TodoState: Equatable { var showsDone = false }

struct NameView: SwiftUI.View {
  @State var model = ObservedReactor(NameReactor())
  let todos: ObservedStore<TodoState>
  let stream: ReactorKit.Observable<Int> = .just(1)

  func bindings() -> (Binding<String>, Binding<Bool>, Binding<String>) {
    (
      model.binding(\.name, send: NameReactor.Action.setName),
      todos.binding(\.showsDone, dispatch: TodoAction.setShowsDone),
      model.binding(\.name, send: { .setName($0.uppercased()) })
    )
  }
}
SWIFT

failures=0
variants=(plain isolated sendable strict)
# One variant: the stand-in SwiftUI, ReactorKit's module against it, and the client file.
typecheck_variant() {
  local variant=$1 dir="$work/$1"
  mkdir -p "$dir"
  cat > "$dir/SwiftUI.swift" <<SWIFT
@_exported import Observation
@MainActor @preconcurrency public protocol View {}
@propertyWrapper public struct State<Value> {
  public var wrappedValue: Value
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}
public struct Binding<Value> {
  ${!variant} {}
}
SWIFT
  {
    swiftc -swift-version 6 -parse-as-library -module-name SwiftUI -emit-module \
      -emit-module-path "$dir/SwiftUI.swiftmodule" "$dir/SwiftUI.swift"
    swiftc -swift-version 6 -parse-as-library -module-name ReactorKit \
      -package-name "$package_name" -I "$modules" -I "$dir" -emit-module \
      -Xcc -fmodule-map-file=.build/debug/CReactorKitAtomics.build/module.modulemap \
      -Xcc -I -Xcc Sources/CReactorKitAtomics/include \
      -emit-module-path "$dir/ReactorKit.swiftmodule" $(find Sources/ReactorKit -name '*.swift')
    swiftc -swift-version 6 -typecheck -I "$dir" -I "$modules" \
      -Xcc -fmodule-map-file=.build/debug/CReactorKitAtomics.build/module.modulemap \
      -Xcc -I -Xcc Sources/CReactorKitAtomics/include "$work/client.swift"
  } >"$dir/log" 2>&1 || true
}
# Two variants at a time, one per core (each `swiftc` is single-threaded).
jobs_max=${TYPECHECK_JOBS:-2}
for variant in "${variants[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  typecheck_variant "$variant" &
done
wait

for variant in "${variants[@]}"; do
  log="$work/$variant/log"
  if grep -qE "error|warning" "$log"; then
    echo "Binding.init $variant: FAILED"
    grep -E "error|warning" "$log" | sort -u
    failures=$((failures + 1))
  else
    echo "Binding.init $variant: ok"
  fi
done
exit "$failures"
