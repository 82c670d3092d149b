import LoopEngine
import Testing

/// The rule tests: one suite per section of the CFRunLoop spec, each test asserting a whole trace on the virtual
/// clock - and on real threads too wherever the rule's outcome does not depend on how long the machine takes
/// (`@Test(arguments: Backend.allCases)` with `backend.makeHarness()`, Support/LoopHarness.swift). What stays
/// virtual only reads exact times, drives the virtual world, or needs two things from other threads in a given
/// order. Nesting every suite in `Rules` makes `swift test --filter Rules` select them all.
@Suite("spec rules")
enum Rules {
    /// A trace written as docs/cfrunloop.md writes it, `entry → beforeTimers → …`, split over as many strings as
    /// needed.
    static func trace(_ chunks: String...) -> [String] {
        chunks.flatMap { [String](trace: $0) }
    }

    /// A mutable log that callouts append to (callouts are plain closures; the world is single-threaded).
    final class CallLog {
        private(set) var entries: [String] = []
        func append(_ entry: String) { entries.append(entry) }
    }
}

extension VirtualHarness {
    /// What another thread does at `milliseconds` after the start.
    func at(_ milliseconds: Int, _ action: @escaping () -> Void) {
        world.at(ms(milliseconds), action)
    }

    /// Keeps the calling thread busy for `milliseconds` (a callout doing real work, or a thread not yet running
    /// its loop).
    func work(_ milliseconds: Int) {
        loop.clock.spend(.milliseconds(milliseconds))
    }

    /// The current virtual time in whole milliseconds.
    var nowMS: Int64 { world.now.nanoseconds / 1_000_000 }

    /// The CF-observable steps plus some engine-only ones (`stop`, `wakeUp`, …) that make a trace read like the
    /// docs/cfrunloop.md's (`timer T → CFRunLoopStop → exit`).
    func steps(with extra: Set<LoopEvent.Kind>) -> [String] {
        recorder.events.filter { $0.isCFObservable || extra.contains($0.kind) }.map(\.step)
    }

    /// ``steps(with:)`` with the time in milliseconds.
    func timedSteps(with extra: Set<LoopEvent.Kind>) -> [String] {
        recorder.events.filter { $0.isCFObservable || extra.contains($0.kind) }.map {
            "\($0.time.nanoseconds / 1_000_000) \($0.step)"
        }
    }

    /// The steps of the callouts only (sources, timers, blocks, observers, main-queue blocks).
    var callouts: [String] { recorder.events.filter(\.kind.isCallout).map(\.step) }

    /// Every event as text, engine-only ones included: what "byte-identical traces" compares.
    var eventText: [String] { recorder.events.map { String(describing: $0) } }
}

extension Array where Element == String {
    /// `steps` repeated `count` times, concatenated.
    init(repeating steps: [String], times count: Int) {
        self = [[String]](repeating: steps, count: count).flatMap { $0 }
    }
}
