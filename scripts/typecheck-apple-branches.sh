#!/usr/bin/env bash
# Type-checks the `#if canImport(Darwin)` and `#if canImport(ObjectiveC)` branches of every
# module on Linux, where they are otherwise compiled nowhere. Stand-in `Darwin` and
# `ObjectiveC` modules re-export Glibc and declare, in Darwin's shapes, what the branches use
# that Glibc spells differently (a module's own declarations shadow those it imports, as the
# SDK overlays' do). Each module is then type-checked with the stand-ins visible, so
# `canImport(Darwin)` holds. Warnings count as failures. Run after `swift build` (it reads
# .build/debug/Modules). Usage: scripts/typecheck-apple-branches.sh
#
# When a branch starts using another Darwin-only API, declare it in the stand-in below with
# the signature from the SDK (a wrong shape here only hides, never invents, a Darwin error).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
package_name=$(basename "$PWD" | tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9_]/_/g')
modules=.build/debug/Modules
[ -f "$modules/ReactorKitStreams.swiftmodule" ] || { echo "run swift build first"; exit 1; }

cat > "$work/Darwin.swift" <<'SWIFT'
@_exported import Glibc

// Darwin's shapes of what the package's Darwin branches use.
public typealias pthread_t = OpaquePointer
public func pthread_self() -> pthread_t { fatalError() }
public func pthread_equal(_ first: pthread_t?, _ second: pthread_t?) -> Int32 { fatalError() }
public func pthread_key_create(
  _ key: UnsafeMutablePointer<pthread_key_t>,
  _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)?
) -> Int32 { fatalError() }
public var SOCK_STREAM: Int32 { 1 }
public var SO_NOSIGPIPE: Int32 { 0x1022 }
public var RENAME_EXCL: Int32 { 0x0000_0004 }
public func renamex_np(
  _ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>, _ flags: UInt32
) -> Int32 { fatalError() }
public func accept(
  _ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?,
  _ length: UnsafeMutablePointer<socklen_t>?
) -> Int32 { fatalError() }
@discardableResult public func close(_ descriptor: Int32) -> Int32 { fatalError() }
extension sockaddr_in {
  public var sin_len: UInt8 {
    get { fatalError() }
    set { fatalError() }
  }
}
SWIFT

cat > "$work/ObjectiveC.swift" <<'SWIFT'
public struct objc_AssociationPolicy: Sendable {
  public static let OBJC_ASSOCIATION_RETAIN = objc_AssociationPolicy()
}
public func objc_setAssociatedObject(
  _ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy
) { fatalError() }
public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? {
  fatalError()
}
SWIFT

failures=0
{
  swiftc -swift-version 6 -parse-as-library -module-name Darwin -emit-module \
    -emit-module-path "$work/Darwin.swiftmodule" "$work/Darwin.swift"
  swiftc -swift-version 6 -parse-as-library -module-name ObjectiveC -emit-module \
    -emit-module-path "$work/ObjectiveC.swiftmodule" "$work/ObjectiveC.swift"
} || { echo "the stand-in modules do not compile"; exit 1; }

# Each module is type-checked by one `swiftc` (single-threaded): two at a time, one per core.
jobs_max=${TYPECHECK_JOBS:-2}
typecheck() {
  local module=$1 dir=$2
  swiftc -swift-version 6 -strict-memory-safety -typecheck -parse-as-library -module-name "$module" \
    -package-name "$package_name" -I "$work" -I "$modules" \
    -Xcc -fmodule-map-file=.build/debug/CReactorKitAtomics.build/module.modulemap \
    -Xcc -I -Xcc Sources/CReactorKitAtomics/include \
    $(find "$dir" -name '*.swift' | LC_ALL=C sort) >"$work/$module.log" 2>&1 || true
}
checks=(
  "ReactorKitStreams Sources/ReactorKitStreams"
  "ReactorKit Sources/ReactorKit"
  "ReactorKitInspector Sources/ReactorKitInspector"
  "ReactorKitTesting Sources/ReactorKitTesting"
  "ExampleSupport Examples/ExampleSupport"
)
for entry in "${checks[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  typecheck $entry &
done
wait

for entry in "${checks[@]}"; do
  module=${entry%% *}
  log="$work/$module.log"
  if grep -qE "error|warning" "$log"; then
    echo "$module: FAILED"
    grep -E "error|warning" "$log" | sort -u
    failures=$((failures + 1))
  else
    echo "$module: ok"
  fi
done
exit "$failures"
