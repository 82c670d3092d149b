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

    func port(_ name: String, in mode: ModeName = .default, perform: @escaping (Int) -> Void = { _ in }) -> LoopSource {
        let source = LoopSource(portNamed: name, on: world, perform: perform)
        loop.add(source, to: mode)
        return source
    }

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
