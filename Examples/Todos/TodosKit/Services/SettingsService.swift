import ReactorKit

/// Changes the user's settings.
public protocol SettingsServiceType: AnyObject {
  /// Sets the list filter; emits it.
  func setFilter(_ filter: TodoFilter) -> Observable<TodoFilter>
}

/// The ``SettingsServiceType`` that keeps the settings in the app's store.
public final class SettingsService: Service, SettingsServiceType {
  public func setFilter(_ filter: TodoFilter) -> Observable<TodoFilter> {
    provider.store.dispatchEffect(SettingsAction.setFilter(filter), then: .just(filter))
  }
}
