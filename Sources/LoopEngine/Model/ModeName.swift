/// The name of a run loop mode. `common` is the pseudo-mode `kCFRunLoopCommonModes`: items added to it join
/// every common mode, and it cannot be run.
public struct ModeName: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The mode's name as CF would spell it (`default`, `common`, or any other).
    public let rawValue: String
    /// The mode named `rawValue`; a mode is created the first time something is added to it.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A mode named by a string literal: `"Tracking"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `kCFRunLoopDefaultMode`.
    public static let `default` = ModeName("default")
    /// `kCFRunLoopCommonModes`.
    public static let common = ModeName("common")

    /// The name.
    public var description: String { rawValue }
    /// Name order, as `allModes` lists them.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
