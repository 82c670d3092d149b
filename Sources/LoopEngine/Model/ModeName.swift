/// The name of a run loop mode. `common` is the pseudo-mode `kCFRunLoopCommonModes`: items added to it join
/// every common mode, and it cannot be run.
public struct ModeName: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `kCFRunLoopDefaultMode`.
    public static let `default` = ModeName("default")
    /// `kCFRunLoopCommonModes`.
    public static let common = ModeName("common")

    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
