import ReactorKit

/// Changes the user's settings.
public protocol SettingsServiceType: AnyObject {
  /// Sets the list filter; emits it.
  func setFilter(_ filter: TodoFilter) -> Observable<TodoFilter>
}

/// The ``SettingsServiceType`` that keeps the settings in the app's store.
public final class SettingsService: Service, SettingsServiceType {
  public func setFilter(_ filter: TodoFilter) -> Observable<TodoFilter> {
    Observable.deferred { [provider] in
      provider.store.dispatch(SettingsAction.setFilter(filter))
      return .just(filter)
    }
  }
}
