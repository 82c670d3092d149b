/// Which CoreFoundation the engine imitates where the platforms differ (docs/cfrunloop.md §15).
///
/// Rules that differ, and where the core applies them:
/// - timer tolerance: ignored on `linux`; on `darwin` the timer port fires at the latest moment all due timers
///   allow (the "hard deadline"), capped at half the interval for repeating timers (`RunLoopCore+Timers`).
/// - the timer port: never disarmed on `linux`, so removing the last timer still wakes the loop once at the
///   old deadline; disarmed on `darwin` (`RunLoopCore+Timers`).
/// - port messages: on `linux` a port is an eventfd, N sends before the loop wakes are one perform; on `darwin`
///   each message is queued and performed separately (`VirtualWorld` port reads).
public enum PlatformProfile: String, Sendable, CaseIterable {
    /// The behaviour verified against the real CFRunLoop of swift-corelibs-foundation on Linux.
    case linux
    /// Apple's platforms, inferred from the `TARGET_OS_MAC` branches of CFRunLoop.c (not verified).
    case darwin
}
