#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// The probe behind docs/cfrunloop.md §13.2, kept: `RunLoop.acceptInput(forMode:before: Date())` on this machine's
/// Foundation, 2,000 times on a thread of its own, each run's activities seen by an observer. `Date()` reads
/// nanoseconds and `CFAbsoluteTimeGetCurrent()` whole microseconds, so some runs poll and some wait out the rest
/// of a microsecond: every real run must be one of the two outcomes the engine explores
/// (`Rules.FoundationLimitClockTests`), and both must occur (here 77–80 % of runs waited).
@Suite("§13.2 Foundation's run limit of now on this machine", .serialized)
struct FoundationLimitClockProbeTests {
    /// The activities of each run, written on the probe's thread and read after it is joined.
    final class Runs: @unchecked Sendable {
        // @unchecked Sendable: the probe thread writes, the test reads only after the semaphore.
        var current: [String] = []
        var all: [[String]] = []
    }

    static let runs = 2_000

    /// Each real run's activities, in CF's order.
    static func realRuns() -> [[String]] {
        let runs = Runs()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let loop = CFRunLoopGetCurrent()
            let observer = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.allActivities.rawValue, true, 0) {
                _, activity in
                runs.current.append(Self.name(of: activity))
            }
            CFRunLoopAddObserver(loop, observer, kCFRunLoopDefaultMode)
            // A source0 never signalled keeps the mode from being empty, as the scenario's `source0 s1`.
            var context = CFRunLoopSourceContext()
            context.perform = { _ in }
            let source = CFRunLoopSourceCreate(nil, 0, &context)
            CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode)
            for _ in 0..<Self.runs {
                runs.current = []
                RunLoop.current.acceptInput(forMode: RunLoop.Mode.default.rawValue, before: Date())
                runs.all.append(runs.current)
            }
            CFRunLoopRemoveSource(loop, source, kCFRunLoopDefaultMode)
            CFRunLoopRemoveObserver(loop, observer, kCFRunLoopDefaultMode)
            done.signal()
        }
        thread.start()
        done.wait()
        return runs.all
    }

    static func name(of activity: CFRunLoopActivity) -> String {
        switch activity {
        case .entry: "entry"
        case .beforeTimers: "beforeTimers"
        case .beforeSources: "beforeSources"
        case .beforeWaiting: "beforeWaiting"
        case .afterWaiting: "afterWaiting"
        case .exit: "exit"
        default: "activity \(activity.rawValue)"
        }
    }

    /// The engine's activities for the same run under `schedule`.
    static func engineRun(schedule: String) throws -> [String] {
        var scenario = try ScenarioParser.parse(
            "scenario \"limit\"\nthread T\n  source0 s1\n  RunLoop.acceptInput default before now\n", file: "t.loop"
        ).scenario
        scenario.schedule = try #require(Schedule(id: schedule))
        let activities: Set<String> = [
            "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit",
        ]
        return ScenarioRunner.run(scenario).events.map(\.step).filter(activities.contains)
    }

    @Test("acceptInput(before: Date()) polls or waits out a microsecond, as the engine's two schedules do, never else")
    func realRunsTakeTheEnginesTwoOutcomes() throws {
        let polled = try Self.engineRun(schedule: "default")
        let waited = try Self.engineRun(schedule: "0:1")
        #expect(polled == ["entry", "beforeTimers", "beforeSources", "exit"])
        #expect(waited == ["entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit"])
        let real = RealTimeGate.exclusive { Self.realRuns() }
        #expect(real.count == Self.runs)
        let others = real.filter { $0 != polled && $0 != waited }
        #expect(others.isEmpty, "runs neither outcome explains: \(others.prefix(3))")
        let waits = real.count { $0 == waited }
        #expect(waits > 0 && waits < real.count, "\(waits) of \(real.count) runs waited: the race needs both")
    }
}
#endif
