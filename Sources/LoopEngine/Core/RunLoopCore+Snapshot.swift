extension RunLoopCore {
    /// A loop's state at one moment, as a value: what a UI draws from while the loop runs on another thread.
    ///
    /// Taken in one go under the engine lock, so it is consistent: it never shows half of a change (a timer moved
    /// in one mode but not yet in another, a run pushed but not yet its mode). The loop drops the lock around
    /// callouts and waits, so a snapshot shows the loop either in a callout, asleep, or between two steps.
    public struct Snapshot: Sendable, Equatable {
        /// One active run (`CFRunLoopRunInMode`).
        public struct Run: Sendable, Equatable {
            public var mode: ModeName
            /// The iteration it is in (0 before its first).
            public var iteration: Int
            /// Its time limit; nil for no limit.
            public var deadline: LoopInstant?
            /// A stop is pending for it (it ends at the end of this iteration).
            public var stopRequested: Bool
            /// Wake-ups are dropped now (from the end of a wait to the next iteration, docs/cfrunloop.md §10.1).
            public var ignoresWakeUps: Bool
        }

        /// A source in a mode.
        public struct Source: Sendable, Equatable {
            public var name: String
            public var version: LoopSource.Version
            public var order: Int
            /// A version-0 source waits for the next pass.
            public var isSignalled: Bool
            /// Unread messages on a version-1 source's port, when the kernel can tell (the virtual one can; an
            /// eventfd cannot be read without taking them).
            public var pendingMessages: Int?
        }

        /// A timer in a mode.
        public struct Timer: Sendable, Equatable {
            public var name: String
            public var nextFire: LoopInstant
            /// Zero for a one-shot timer.
            public var interval: Duration
            /// Its callout is running (it cannot fire again until it returns).
            public var isFiring: Bool
            public var fireCount: Int
        }

        /// An observer in a mode.
        public struct Observer: Sendable, Equatable {
            public var name: String
            public var activities: Activity
            public var order: Int
            public var repeats: Bool
            public var isFiring: Bool
            public var callCount: Int
        }

        /// One mode and its items, in the order the loop serves them.
        public struct Mode: Sendable, Equatable {
            public var name: ModeName
            public var isCommon: Bool
            /// Version-0 sources, then version-1 sources, each in the order they were added.
            public var sources: [Source]
            /// In deadline order.
            public var timers: [Timer]
            /// In call order.
            public var observers: [Observer]
            /// `_CFRunLoopStopMode`'s sticky stop is pending.
            public var stopRequested: Bool
        }

        public var loop: String
        public var time: LoopInstant
        /// Active runs, outermost first; empty when the loop is not running.
        public var runs: [Run]
        /// Between the decision to wait and the end of the wait (`CFRunLoopIsWaiting`).
        public var isSleeping: Bool
        /// Every mode, in name order.
        public var modes: [Mode]
        public var commonModes: [ModeName]
        /// Blocks queued with `perform(_:modes:_:)`, oldest first.
        public var pendingBlocks: [String]
        /// Tasks queued with `performTask`, oldest first.
        public var pendingTasks: [String]
        /// Blocks queued on the main queue (main thread only), oldest first.
        public var mainQueue: [String]

        /// The mode of the innermost run (`CFRunLoopCopyCurrentMode`).
        public var currentMode: ModeName? { runs.last?.mode }
    }

    /// A consistent snapshot of the loop's state; safe from any thread.
    public func snapshot() -> Snapshot {
        lock.withLock {
            Snapshot(
                loop: name, time: clock.now,
                runs: runs.map { run in
                    Snapshot.Run(
                        mode: run.mode.name, iteration: run.iteration,
                        deadline: run.deadline == .distantFuture ? nil : run.deadline, stopRequested: run.stopped,
                        ignoresWakeUps: run.ignoreWakeUps)
                },
                isSleeping: sleeping,
                modes: modes.keys.sorted().compactMap { modes[$0].map(snapshotLocked) },
                commonModes: commonModes, pendingBlocks: blocks.map(\.name), pendingTasks: performTasks.map(\.name),
                mainQueue: mainQueue.map(\.name))
        }
    }

    private func snapshotLocked(_ mode: LoopModeState) -> Snapshot.Mode {
        Snapshot.Mode(
            name: mode.name, isCommon: commonModes.contains(mode.name),
            sources: (mode.sources0 + mode.sources1.elements).map { source in
                Snapshot.Source(
                    name: source.name, version: source.version, order: source.order, isSignalled: source.signalled,
                    pendingMessages: source.port.flatMap { waiter.pendingMessageCount($0) })
            },
            timers: mode.timers.ordered.map { timer in
                Snapshot.Timer(
                    name: timer.name, nextFire: timer.fireTime, interval: timer.interval, isFiring: timer.isFiring,
                    fireCount: timer.fireCountStorage)
            },
            observers: mode.observers.map { observer in
                Snapshot.Observer(
                    name: observer.name, activities: observer.activities, order: observer.order,
                    repeats: observer.repeats, isFiring: observer.isFiring, callCount: observer.callCountStorage)
            },
            stopRequested: mode.stoppedSticky)
    }
}
