extension RunLoopCore {
    /// A loop's state at one moment, as a value: what a UI draws from while the loop runs on another thread.
    ///
    /// Taken in one go under the engine lock, so it is consistent: it never shows half of a change (a timer moved
    /// in one mode but not yet in another, a run pushed but not yet its mode). The loop drops the lock around
    /// callouts and waits, so a snapshot shows the loop either in a callout, asleep, or between two steps.
    package struct Snapshot: Sendable, Equatable {
        /// One active run (`CFRunLoopRunInMode`).
        package struct Run: Sendable, Equatable {
            package var mode: ModeName
            /// The iteration it is in (0 before its first).
            package var iteration: Int
            /// Its time limit; nil for no limit.
            package var deadline: LoopInstant?
            /// A stop is pending for it (it ends at the end of this iteration).
            package var stopRequested: Bool
            /// Wake-ups are dropped now (from the end of a wait to the next iteration, docs/cfrunloop.md §10.1).
            package var ignoresWakeUps: Bool
        }

        /// A source in a mode.
        package struct Source: Sendable, Equatable {
            package var name: String
            package var version: LoopSource.Version
            package var order: Int
            /// A version-0 source waits for the next pass.
            package var isSignalled: Bool
            /// Unread messages on a version-1 source's port, when the kernel can tell (the virtual one can; an
            /// eventfd cannot be read without taking them).
            package var pendingMessages: Int?
        }

        /// A timer in a mode.
        package struct Timer: Sendable, Equatable {
            package var name: String
            package var nextFire: LoopInstant
            /// Zero for a one-shot timer.
            package var interval: Duration
            /// Its callout is running (it cannot fire again until it returns).
            package var isFiring: Bool
            package var fireCount: Int
        }

        /// An observer in a mode.
        package struct Observer: Sendable, Equatable {
            package var name: String
            package var activities: Activity
            package var order: Int
            package var repeats: Bool
            package var isFiring: Bool
            package var callCount: Int
        }

        /// One mode and its items, in the order the loop serves them.
        package struct Mode: Sendable, Equatable {
            package var name: ModeName
            package var isCommon: Bool
            /// Version-0 sources, then version-1 sources, each in the order they were added.
            package var sources: [Source]
            /// In deadline order.
            package var timers: [Timer]
            /// In call order.
            package var observers: [Observer]
            /// `_CFRunLoopStopMode`'s sticky stop is pending.
            package var stopRequested: Bool
        }

        package var loop: String
        package var time: LoopInstant
        /// Active runs, outermost first; empty when the loop is not running.
        package var runs: [Run]
        /// Between the decision to wait and the end of the wait (`CFRunLoopIsWaiting`).
        package var isSleeping: Bool
        /// Every mode, in name order.
        package var modes: [Mode]
        package var commonModes: [ModeName]
        /// Blocks queued with `perform(_:modes:_:)`, oldest first.
        package var pendingBlocks: [String]
        /// Tasks queued with `performTask`, oldest first.
        var pendingTasks: [String]
        /// Blocks queued on the main queue (main thread only), oldest first.
        package var mainQueue: [String]

        /// The mode of the innermost run (`CFRunLoopCopyCurrentMode`).
        package var currentMode: ModeName? { runs.last?.mode }
    }

    /// A consistent snapshot of the loop's state; safe from any thread.
    package func snapshot() -> Snapshot {
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
