import ReactorKit

/// Which todos the list shows.
public enum TodoFilter: String, Codable, CaseIterable, Sendable {
  case all
  case active
  case done

  /// Whether `todo` passes the filter.
  public func includes(_ todo: Todo) -> Bool {
    switch self {
    case .all: true
    case .active: !todo.isDone
    case .done: todo.isDone
    }
  }

  /// The next filter in `all → active → done → all` order.
  public var next: TodoFilter {
    let all = Self.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }
}

/// The user's preferences.
public struct SettingsState: Codable, Equatable, Sendable {
  public var filter: TodoFilter

  // Saved as `listFilter` since schema version 2 (see `AppState.migrations`).
  enum CodingKeys: String, CodingKey {
    case filter = "listFilter"
  }

  public init(filter: TodoFilter = .all) {
    self.filter = filter
  }
}

/// Changes to the settings.
public enum SettingsAction: StoreAction, Codable, Equatable, Sendable {
  case setFilter(TodoFilter)
}

extension SettingsState {
  /// The settings feature's reducer.
  public static let reducer = Reducer<SettingsState>.on(SettingsAction.self) { state, action in
    switch action {
    case .setFilter(let filter): state.filter = filter
    }
  }
}
