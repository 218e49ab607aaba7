#!/usr/bin/env bash
# Compiles the API traps of issue 21 against the built modules and checks that each one is
# caught: the ReSwift-order reducer closure, `store.select(\.x)` with a key path, the
# `View` alias next to SwiftUI's `View` (with a stand-in `SwiftUI` module, since Linux has
# none), and TestStore's blocking `finish`/`receive` in async code. Each case is one small file type-checked on its own (`swiftc -typecheck`, a second
# or two each); a case passes when the compiler prints the expected diagnostic, or, for the
# cases that must stay clean, no diagnostic at all. Run after `swift build --build-tests`
# (it reads .build/debug/Modules). Usage: scripts/check-traps.sh
set -uo pipefail
cd "$(dirname "$0")/.."

modules=.build/debug/Modules
for module in ReactorKit ReactorKitCompatibility ReactorKitTesting; do
  [ -f "$modules/$module.swiftmodule" ] || { echo "run swift build --build-tests first"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

flags=(-swift-version 6 -typecheck -I "$modules" -I "$work")
atomics_map=.build/debug/CReactorKitAtomics.build/module.modulemap
[ -f "$atomics_map" ] && flags+=(-Xcc "-fmodule-map-file=$atomics_map")

# A stand-in for SwiftUI: a `View` protocol is all the clash needs.
cat >"$work/SwiftUI.swift" <<'SWIFT'
@MainActor @preconcurrency public protocol View {}
public struct Text: View { public init(_ text: String) {} }
SWIFT
swiftc -swift-version 6 -parse-as-library -module-name SwiftUI -emit-module \
  -emit-module-path "$work/SwiftUI.swiftmodule" "$work/SwiftUI.swift" || exit 1

failures=0
# expect NAME PATTERN: the case's source (stdin) must produce a diagnostic matching PATTERN
# (an extended regular expression); PATTERN "clean" means no error and no warning at all.
expect() {
  local name=$1 pattern=$2 file="$work/$1.swift" log="$work/$1.log"
  cat >"$file"
  timeout 120 swiftc "${flags[@]}" "$file" >"$log" 2>&1
  if [ "$pattern" = clean ]; then
    if grep -qE "(error|warning):" "$log"; then
      echo "trap $name: FAILED (expected no diagnostic)"
      grep -E "(error|warning):" "$log" | sort -u
      failures=$((failures + 1))
    else
      echo "trap $name: ok (compiles cleanly)"
    fi
  elif grep -qE "$pattern" "$log"; then
    echo "trap $name: ok ($(grep -oE "(error|warning): .*" "$log" | head -1 | cut -c1-110))"
  else
    echo "trap $name: FAILED (expected: $pattern)"
    cat "$log"
    failures=$((failures + 1))
  fi
}

# 1. Reducers take (state, action) in every form; ReSwift's (action, state) is caught.
expect reducer_reswift_order "warning: 'init\((_|pure):\)' is deprecated: .*\(state, action\)" <<'SWIFT'
import ReactorKit
let reducer = Reducer<Int> { action, count in count }
SWIFT
# `on`'s closure in ReSwift's order: Swift's own warning (the dropped value has the action's
# type); an overload like the initialiser's never wins over the generic `on`.
expect reducer_on_reswift_order "warning: expression of type 'CounterAction' is unused" <<'SWIFT'
import ReactorKit
enum CounterAction: Action { case increment }
let reducer = Reducer<Int>.on(CounterAction.self) { action, count in count }
SWIFT
expect reducer_returning_from_in_place_form "warning: 'init\(_:\)' is deprecated: a reducer's closure takes \(state, action\)" <<'SWIFT'
import ReactorKit
let reducer = Reducer<Int> { count, action in count + 1 }
SWIFT
expect reducer_pure_reswift_order "error: cannot convert value of type 'any Action' to closure result type 'Int'" <<'SWIFT'
import ReactorKit
let reducer = Reducer<Int>.pure { action, count in count }
SWIFT
expect reducer_old_pure_initializer "warning: 'init\(pure:\)' is deprecated: .*\(state, action\)" <<'SWIFT'
import ReactorKit
let reducer = Reducer<Int>(pure: { action, count in count })
SWIFT
expect reducer_state_action_order clean <<'SWIFT'
import ReactorKit
enum CounterAction: Action { case increment }
let inPlace = Reducer<Int> { count, action in
  if case CounterAction.increment = action { count += 1 }
}
let typed = Reducer<Int>.on(CounterAction.self) { count, _ in count += 1 }
let pure = Reducer<Int>.pure { count, action in count + 1 }
let none = Reducer<Int> { _, _ in }
SWIFT

# 2. `select` with a key path shares like `slice` and says so.
expect select_key_path "warning: 'select' is deprecated: renamed to 'slice\(_:\)'" <<'SWIFT'
import ReactorKit
struct AppState { var count = 0 }
func render(_ store: Store<AppState>) -> Observable<Int> { store.select(\.count) }
SWIFT
expect select_closure clean <<'SWIFT'
import ReactorKit
struct AppState { var count = 0 }
func render(_ store: Store<AppState>) -> Observable<Int> { store.select { $0.count * 2 } }
SWIFT

# 3. `View`: a SwiftUI file never meets ReactorKit's; a port gets a fix-it or imports the
#    compatibility module.
expect view_in_swiftui_file clean <<'SWIFT'
import ReactorKit
import SwiftUI
struct Greeting: View {
  let text = Text("hello")
}
final class Counter: Reactor {
  enum Action { case increment }
  struct State {}
  let initialState = State()
}
final class CounterScreen: ReactorView {
  var disposeBag = DisposeBag()
  func bind(reactor: Counter) {}
}
SWIFT
expect view_in_port_without_compatibility "error: 'View' has been renamed to 'ReactorView': import ReactorKitCompatibility" <<'SWIFT'
import ReactorKit
final class Counter: Reactor {
  enum Action { case increment }
  struct State {}
  let initialState = State()
}
final class CounterViewController: View {
  var disposeBag = DisposeBag()
  func bind(reactor: Counter) {}
}
SWIFT
expect storyboard_view_in_port_without_compatibility "error: 'StoryboardView' has been renamed to 'DeferredReactorView'" <<'SWIFT'
import ReactorKit
final class Counter: Reactor {
  enum Action { case increment }
  struct State {}
  let initialState = State()
}
final class CounterViewController: StoryboardView {
  var disposeBag = DisposeBag()
  var isViewLoaded = true
  func bind(reactor: Counter) {}
}
SWIFT
expect view_in_port_with_compatibility clean <<'SWIFT'
import ReactorKitCompatibility
final class Counter: Reactor {
  enum Action { case increment }
  struct State {}
  let initialState = State()
}
final class CounterViewController: View {
  var disposeBag = DisposeBag()
  func bind(reactor: Counter) {}
}
final class StoryboardCounterViewController: StoryboardView {
  var disposeBag = DisposeBag()
  var isViewLoaded = true
  func bind(reactor: Counter) {}
}
SWIFT

# 4. TestStore's blocking `finish`/`receive` in `async` code: a number as `timeout:` picked the
# blocking form, which keeps the caller's actor (where `Effect.run` operations run) from
# running while it waits. They are unavailable from async contexts; the async forms compile.
expect teststore_blocking_finish_in_async_code "error: .*finish.*unavailable from asynchronous contexts; in async code, use 'await store.finish\(\)'; a timeout is a Duration" <<'SWIFT'
import ReactorKit
import ReactorKitTesting
@MainActor func endTest(_ store: TestStore<Int>) async {
  store.finish(timeout: 1)
}
SWIFT
expect teststore_blocking_receive_in_async_code "error: .*receive.*unavailable from asynchronous contexts; in async code, use 'await store.receive.*a timeout is a Duration" <<'SWIFT'
import ReactorKit
import ReactorKitTesting
enum Tick: Action, Equatable { case tick }
@MainActor func expectTick(_ store: TestStore<Int>) async {
  store.receive(Tick.tick, timeout: 1)
}
SWIFT
expect teststore_async_and_blocking_forms clean <<'SWIFT'
import ReactorKit
import ReactorKitTesting
enum Tick: Action, Equatable { case tick }
@MainActor func asyncTest(_ store: TestStore<Int>) async {
  await store.receive(Tick.tick, timeout: .seconds(2))
  await store.finish(timeout: .seconds(2))
}
func blockingTest(_ store: TestStore<Int>) {
  store.receive(Tick.tick, timeout: 2)
  store.finish(timeout: 2)
}
SWIFT

if [ "$failures" -ne 0 ]; then
  echo "check-traps: $failures case(s) FAILED"
  exit 1
fi
echo "check-traps: every trap is caught"
