/// The bits of ``Store/gate``.
@usableFromInline
enum StoreGate {
  @inlinable static var busy: UInt { 1 }
  @inlinable static var announced: UInt { 2 }
}
