/// A marker for app state types, kept so ReSwift code compiles unchanged.
///
/// A ``Store`` does not require it: any type can be its state.
public protocol StateType {}
