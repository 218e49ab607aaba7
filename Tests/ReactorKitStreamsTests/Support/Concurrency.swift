import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Detects overlapping deliveries: call ``enter()`` when an observer starts handling an
/// event and ``leave()`` when it is done; ``overlaps`` counts entries that found another
/// delivery in progress.
final class DeliveryProbe: Sendable {
  private let inside = AtomicBox<Int>(0)
  private let overlapCount = AtomicBox<Int>(0)
  private let deliveries = AtomicBox<Int>(0)

  /// Entries that found another delivery in progress.
  var overlaps: Int { overlapCount.load(ordering: .acquiring) }

  /// All entries.
  var count: Int { deliveries.load(ordering: .acquiring) }

  func enter() {
    deliveries.wrappingAdd(1, ordering: .relaxed)
    if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
      overlapCount.wrappingAdd(1, ordering: .relaxed)
    }
    // Widen the window in which an unserialised producer would overlap.
    sched_yield()
  }

  func leave() {
    inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
  }
}
