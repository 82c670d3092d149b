import Testing

@testable import LoopEngine

/// docs/cfrunloop.md §9.5: a `timer … foundation init|scheduled` line is dated as its Foundation call dates the
/// timer on the scenario's profile: `Timer(timeInterval:repeats:block:)` at its creation on linux, one interval
/// ahead on darwin; `Timer.scheduledTimer` one interval ahead on both. Each runs on the virtual clock and checks
/// every step but the loop's own passes.
@Suite("§9.5 Foundation's timer conveniences, per profile")
struct FoundationTimerCallTests {
    static func steps(_ source: String) throws -> [String] {
        try TimerFireTests.steps(source)
    }

    /// The parser's messages for `source` (none when it parses).
    static func messages(_ source: String) -> [String] {
        do {
            _ = try ScenarioParser.parse(source, file: "t.loop")
            return []
        } catch {
            return error.diagnostics.map(\.message)
        }
    }

    static func file(profile: String, _ items: String, _ program: String = "run default for 250ms") -> String {
        """
        profile \(profile)
        iteration cost 0s
        thread T
          port K
        \(items)
          \(program)
        """
    }

    @Test("on linux Timer(timeInterval:repeats:) fires at once, then on the grid of its creation")
    func initFiresAtOnceOnLinux() throws {
        let steps = try Self.steps(Self.file(profile: "linux", "  timer poll every 100ms foundation init"))
        #expect(
            steps == [
                "0.000 T d0: schedule K (mode default)",
                "0.000 T d1: runStart default (limit 0.250s)",
                "0.000 T d1: timer poll", "0.100 T d1: timer poll", "0.200 T d1: timer poll",
                "0.250 T d1: wakeUp (timeout)", "0.250 T d1: result timedOut",
            ])
    }

    @Test("on darwin Timer(timeInterval:repeats:) waits one interval, as scheduledTimer does")
    func initWaitsOnDarwin() throws {
        let steps = try Self.steps(Self.file(profile: "darwin", "  timer poll every 100ms foundation init"))
        #expect(
            steps == [
                "0.000 T d0: schedule K (mode default)",
                "0.000 T d1: runStart default (limit 0.250s)",
                "0.100 T d1: timer poll", "0.200 T d1: timer poll",
                "0.250 T d1: wakeUp (timeout)", "0.250 T d1: result timedOut",
            ])
    }

    @Test("scheduledTimer waits one interval on both profiles; repeats: false fires once with an interval of 0")
    func scheduledWaitsOneInterval() throws {
        for profile in ["linux", "darwin"] {
            let steps = try Self.steps(
                Self.file(
                    profile: profile, "  timer single interval 100ms foundation scheduled",
                    "query interval single\n  run default for 250ms"))
            #expect(
                steps == [
                    "0.000 T d0: schedule K (mode default)",
                    "0.000 T d0: query interval single is 0.000s (CFRunLoopTimerGetInterval(single) answered 0.000s)",
                    "0.000 T d1: runStart default (limit 0.250s)",
                    "0.100 T d1: timer single",
                    "0.250 T d1: wakeUp (timeout)", "0.250 T d1: result timedOut",
                ], "\(profile)")
        }
    }

    @Test("a linux Timer(timeInterval:) added later fires as soon as it is added: its date is its creation")
    func initAddedLaterFiresWhenAdded() throws {
        let steps = try Self.steps(
            Self.file(
                profile: "linux", "  timer poll interval 100ms foundation init in nothing",
                "run default for 50ms\n  add poll to default\n  run default for 100ms"))
        #expect(
            steps == [
                "0.000 T d0: schedule K (mode default)",
                "0.000 T d1: runStart default (limit 0.050s)",
                "0.050 T d1: wakeUp (timeout)", "0.050 T d1: result timedOut",
                "0.050 T d1: runStart default (limit 0.100s)",
                "0.050 T d1: timer poll (due 0.000, added late)",
                "0.150 T d1: wakeUp (timeout)", "0.150 T d1: result timedOut",
            ])
    }

    @Test("a thread started later dates its Foundation timers from its start, not from the scenario's")
    func laterThreadDatesFromItsStart() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread T
              port K
              run default for 50ms
              start U
              run default for 200ms
            thread U later
              port Q
              timer poll interval 100ms foundation scheduled
              timer now interval 100ms foundation init
              run default for 150ms
            """)
        #expect(steps.filter { $0.contains(" U d1: timer") } == ["0.050 U d1: timer now", "0.150 U d1: timer poll"])
    }

    @Test("a Foundation timer line prints as written, and misuses of the form are one diagnostic")
    func printsAndRejects() throws {
        for line in [
            "timer a every 100ms foundation init in Tracking", "timer b interval 100ms foundation scheduled",
            "timer c every -1000ms foundation scheduled tolerance 20ms",
        ] {
            let source = "thread T\n  port K\n  \(line)\n  run default for 1s\n"
            let script = try ScenarioParser.parse(source, file: "t.loop")
            #expect(LoopScriptPrinter.text(of: script).contains("  \(line)\n"), "\(line)")
        }
        let expected =
            "a Foundation timer is `every 100ms` (repeats) or `interval 100ms` (does not) and `foundation init` or "
            + "`foundation scheduled`, without `at` or `order`; `foundation scheduled` is in the default mode only"
        for line in [
            "timer a every 100ms foundation scheduled in Tracking", "timer b interval 100ms",
            "timer c at 10ms every 100ms foundation init", "timer d every 100ms foundation later",
            "timer e every 100ms interval 100ms foundation init", "timer f every 100ms foundation init order 2",
        ] {
            let source = "thread T\n  port K\n  \(line)\n  run default for 1s\n"
            #expect(Self.messages(source) == [expected], "\(line)")
        }
    }
}
