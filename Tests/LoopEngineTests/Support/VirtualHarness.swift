import LoopEngine

/// A virtual world with one loop and a recorder: the fixture most rule tests start from.
final class VirtualHarness {
    let world: VirtualWorld
    let loop: RunLoopCore
    let recorder = TraceRecorder()

    init(
        profile: PlatformProfile = .linux, mainThread: Bool = false, horizon: Duration = .seconds(10),
        iterationCost: Duration = VirtualWorld.defaultIterationCost
    ) {
        world = VirtualWorld(profile: profile, iterationCost: iterationCost)
        world.horizon = .zero + horizon
        loop = RunLoopCore(name: "T", clock: world, waiter: world, isMainThread: mainThread)
        loop.sink = recorder
    }

    /// Milliseconds since the start, as an instant.
    func ms(_ value: Int) -> LoopInstant { .zero + .milliseconds(value) }

    /// A version-0 source that records nothing itself (the engine traces its performs).
    func source(
        _ name: String, order: Int = 0, in mode: ModeName = .default, perform: @escaping () -> Void = {}
    )
        -> LoopSource
    {
        let source = LoopSource(name: name, order: order, perform: perform)
        loop.add(source, to: mode)
        return source
    }

    func port(_ name: String, in mode: ModeName = .default, perform: @escaping (Int) -> Void = { _ in }) -> LoopSource {
        let source = LoopSource(portNamed: name, on: world, perform: perform)
        loop.add(source, to: mode)
        return source
    }

    @discardableResult
    func timer(
        _ name: String, at first: Int, every interval: Int = 0, in mode: ModeName = .default,
        callout: @escaping (LoopTimer) -> Void = { _ in }
    ) -> LoopTimer {
        let timer = LoopTimer(name: name, fireDate: ms(first), interval: .milliseconds(interval), callout: callout)
        loop.add(timer, to: mode)
        return timer
    }

    @discardableResult
    func observer(
        _ name: String, _ activities: Activity = .allActivities, repeats: Bool = true, order: Int = 0,
        in mode: ModeName = .default, callout: @escaping (Activity) -> Void = { _ in }
    ) -> LoopObserver {
        let observer = LoopObserver(
            name: name, activities: activities, repeats: repeats, order: order, callout: callout)
        loop.add(observer, to: mode)
        return observer
    }

    /// The trace as steps (`kind name`), without the engine-only events (sleep, wake, signal, …).
    var steps: [String] { recorder.events.filter(\.isCFObservable).map(\.step) }

    /// Steps with the time in milliseconds: `50 timer T1`.
    var timedSteps: [String] {
        recorder.events.filter(\.isCFObservable).map { "\($0.time.nanoseconds / 1_000_000) \($0.step)" }
    }

    /// Every event, engine-only ones included.
    var allSteps: [String] { recorder.events.map(\.step) }
}

extension LoopEvent {
    /// The events the real CFRunLoop lets a program see: activities (through observers), callouts, run results.
    var isCFObservable: Bool {
        kind.isActivity || kind.isCallout || kind == .result || kind == .runStart
    }
}

extension Array where Element == String {
    /// Splits a `→`-separated trace into steps: `"entry → beforeTimers"`.
    init(trace: String) {
        self = trace.split(separator: "→").map {
            String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
    }
}
