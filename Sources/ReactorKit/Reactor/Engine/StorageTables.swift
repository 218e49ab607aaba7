/// The tables that keep per-object storage for reactors and reactor views.
@usableFromInline
enum StorageTables {
  /// Storage of every reactor that has been touched, keyed by the reactor.
  @usableFromInline static let reactors = WeakObjectTable()
}
