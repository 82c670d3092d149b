extension RunLoopCore {
    /// `CFRunLoopContainsTimer`: false for a timer of another loop (or of none); `common` asks whether it was added
    /// to `kCFRunLoopCommonModes`.
    public func contains(_ timer: LoopTimer, in modeName: ModeName) -> Bool {
        lock.withLock {
            guard timer.loop === self else { return false }
            if modeName == .common { return commonTimers.contains(timer) }
            return modes[modeName]?.timers.contains(timer) ?? false
        }
    }

    /// `CFRunLoopContainsObserver`; `common` asks whether it was added to `kCFRunLoopCommonModes`.
    public func contains(_ observer: LoopObserver, in modeName: ModeName) -> Bool {
        lock.withLock {
            if modeName == .common { return commonObservers.contains(observer) }
            return modes[modeName]?.observers.contains { $0 === observer } ?? false
        }
    }
}
