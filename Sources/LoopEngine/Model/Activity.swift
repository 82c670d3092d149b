/// The six points of a run at which observers are called, with Core Foundation's bit values.
public struct Activity: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// CF's bits (`CFRunLoopActivity`).
    public let rawValue: UInt32
    /// The activities whose CF bits are set in `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kCFRunLoopEntry`: a run begins, once per call.
    public static let entry = Activity(rawValue: 1 << 0)
    /// `kCFRunLoopBeforeTimers`: an iteration is about to fire the timers due.
    public static let beforeTimers = Activity(rawValue: 1 << 1)
    /// `kCFRunLoopBeforeSources`: an iteration is about to perform the signalled version-0 sources.
    public static let beforeSources = Activity(rawValue: 1 << 2)
    /// `kCFRunLoopBeforeWaiting`: the loop is about to sleep in the kernel.
    public static let beforeWaiting = Activity(rawValue: 1 << 5)
    /// `kCFRunLoopAfterWaiting`: the loop woke up.
    public static let afterWaiting = Activity(rawValue: 1 << 6)
    /// `kCFRunLoopExit`: the run returns.
    public static let exit = Activity(rawValue: 1 << 7)
    /// `kCFRunLoopAllActivities`.
    public static let allActivities = Activity(rawValue: 0x0FFF_FFFF)

    /// The six single activities in the order a run meets them.
    package static let each: [Activity] = [.entry, .beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .exit]

    /// CF's name for a single activity (`beforeTimers`), or the names joined by `|`.
    public var description: String {
        // Single activities first: observers' trace events ask for them on every callout.
        switch self {
        case .entry: return "entry"
        case .beforeTimers: return "beforeTimers"
        case .beforeSources: return "beforeSources"
        case .beforeWaiting: return "beforeWaiting"
        case .afterWaiting: return "afterWaiting"
        case .exit: return "exit"
        case .allActivities: return "all"
        default: break
        }
        let names: [(Activity, String)] = [
            (.entry, "entry"), (.beforeTimers, "beforeTimers"), (.beforeSources, "beforeSources"),
            (.beforeWaiting, "beforeWaiting"), (.afterWaiting, "afterWaiting"), (.exit, "exit"),
        ]
        let parts = names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "none" : parts.joined(separator: "|")
    }

    /// Parses one activity name (`entry`, `beforeTimers`, …) or `all`.
    package init?(name: String) {
        switch name {
        case "entry": self = .entry
        case "beforeTimers": self = .beforeTimers
        case "beforeSources": self = .beforeSources
        case "beforeWaiting": self = .beforeWaiting
        case "afterWaiting": self = .afterWaiting
        case "exit": self = .exit
        case "all": self = .allActivities
        default: return nil
        }
    }
}
