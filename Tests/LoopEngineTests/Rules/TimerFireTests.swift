import LoopEngine
import Testing

/// docs/cfrunloop.md §9.5: Foundation's `Timer.fire()` (`fire T`) and a timer with an interval of 0 or less. Each
/// runs a small scenario on the virtual clock and checks every step but the loop's own passes.
@Suite("§9.5 Timer.fire() and non-positive intervals")
struct TimerFireTests {
    static func steps(_ source: String) throws -> [String] {
        let script = try ScenarioParser.parse(source, file: "t.loop")
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(5))
        let passes: Set<LoopEvent.Kind> = [
            .beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .sleep, .wake, .entry, .exit,
        ]
        return outcome.events.filter { !passes.contains($0.kind) }.map { event in
            "\(event.time) \(event.loop) d\(event.depth): \(event.step)" + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test("fire() calls a repeating timer at once, outside any run; it stays valid and keeps its schedule")
    func fireKeepsARepeatingTimersSchedule() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread T
              port K
              timer tick at 100ms every 100ms
                say "tick"
              fire tick
              query isValid tick
              query nextFireDate tick
              run default for 250ms
            """)
        #expect(
            steps == [
                "0.000 T d0: schedule K (mode default)",
                "0.000 T d0: timer tick (Timer.fire(): outside the timer pass; repeats, so valid on its schedule)",
                "0.000 T d0: note (tick)",
                "0.000 T d0: query isValid tick is true (IsValid(tick) answered true)",
                "0.000 T d0: query nextFireDate tick is 0.100 (CFRunLoopTimerGetNextFireDate(tick) answered 0.100)",
                "0.000 T d1: runStart default (limit 0.250s)",
                "0.100 T d1: timer tick", "0.100 T d1: note (tick)",
                "0.200 T d1: timer tick", "0.200 T d1: note (tick)",
                "0.250 T d1: wakeUp (timeout)", "0.250 T d1: result timedOut",
            ])
    }

    @Test("fire() invalidates a one-shot timer after its callout; a second fire() does nothing")
    func fireInvalidatesAOneShotTimer() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread T
              port K
              timer single at 100ms
                call 2: say "never"
              source0 s
                fire single
                query isValid single
                fire single
              signal s
              run default for 150ms
            """)
        #expect(
            steps == [
                "0.000 T d0: schedule K (mode default)",
                "0.000 T d0: schedule s (mode default)",
                "0.000 T d0: signal s",
                "0.000 T d1: runStart default (limit 0.150s)",
                "0.000 T d1: source0 s",
                "0.000 T d1: timer single (Timer.fire(): outside the timer pass; one-shot, so invalidated after it)",
                "0.000 T d1: query isValid single is false (IsValid(single) answered false)",
                "0.150 T d1: wakeUp (timeout)", "0.150 T d1: result timedOut",
            ])
    }

    @Test("fire() from another thread runs the callout there, and counts as one of the timer's calls")
    func fireFromAnotherThreadCountsAsACall() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread T
              port K
              timer tick at 40ms every 40ms
                call 1: say "first call"
                call 2: say "second call"
              run default for 60ms
            at 20ms on T
              fire tick
            """)
        #expect(
            steps == [
                "0.000 T d0: schedule K (mode default)",
                "0.000 T d1: runStart default (limit 0.060s)",
                "0.020 T d1: timer tick (Timer.fire(): outside the timer pass; repeats, so valid on its schedule)",
                "0.020 T d1: note (first call)",
                "0.040 T d1: timer tick", "0.040 T d1: note (second call)",
                "0.060 T d1: wakeUp (timeout)", "0.060 T d1: result timedOut",
            ])
    }

    @Test("an interval of 0 or less is stored as 0: the timer does not repeat, fires once and is invalid after")
    func negativeIntervalMakesAOneShotTimer() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread T
              port K
              timer back at 20ms every -50ms
              timer zero at 30ms every 0s
              timer tick at 40ms every 100ms tolerance 30ms
              query interval back
              query repeats back
              query interval tick
              query tolerance tick
              query repeats tick
              run default for 100ms
              query isValid back
              query isValid zero
            """)
        #expect(
            steps == [
                "0.000 T d0: schedule K (mode default)",
                "0.000 T d0: query interval back is 0.000s (CFRunLoopTimerGetInterval(back) answered 0.000s)",
                "0.000 T d0: query repeats back is false (CFRunLoopTimerDoesRepeat(back) answered false)",
                "0.000 T d0: query interval tick is 0.100s (CFRunLoopTimerGetInterval(tick) answered 0.100s)",
                "0.000 T d0: query tolerance tick is 0.000s (CFRunLoopTimerGetTolerance(tick) answered 0.000s)",
                "0.000 T d0: query repeats tick is true (CFRunLoopTimerDoesRepeat(tick) answered true)",
                "0.000 T d1: runStart default (limit 0.100s)",
                "0.020 T d1: timer back", "0.030 T d1: timer zero", "0.040 T d1: timer tick",
                "0.100 T d1: wakeUp (timeout)", "0.100 T d1: result timedOut",
                "0.100 T d0: query isValid back is false (IsValid(back) answered false)",
                "0.100 T d0: query isValid zero is false (IsValid(zero) answered false)",
            ])
    }
}
