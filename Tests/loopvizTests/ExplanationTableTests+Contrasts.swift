import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// The same templates where the rule of their row in `rows` does not hold: a poll instead of a wait, a nested run, a
/// run without returnAfterSourceHandled, the main thread, a late fire no callout caused, a stop before the first
/// iteration, a recording that holds only observer activities. Each row says what the words are there, so a
/// sentence true in one lesson and false in another fails a test.
extension ExplanationTableTests {
    static let contrasts: [Row] = [
        // A stop from an entry observer: no iteration, no wait (the `stop` row's stop is in an iteration). The
        // wake-up it writes is said without claiming that a wait returns now.
        Row(
            .wakeUpByStop, .entryStop, step: 8,
            "CFRunLoopStop also calls CFRunLoopWakeUp: the wake-up port is written, so a sleeping loop wakes and the "
                + "run can end; a loop not asleep finds it ready at its next wait (this run's, or the next run's)."),
        // rash=false: the stop from a source0 is not lost; the result names the wrapper without claiming it loops.
        Row(
            .stop, .rashFalseStop, step: 9,
            "CFRunLoopStop marks the innermost run stopped and wakes it; it ends at the end of this iteration unless "
                + "handledSource or timedOut wins (the stop is then lost)."),
        Row(
            .resultStopped, .rashFalseStop, step: 14,
            "stopped: CFRunLoopStop (or a mode's sticky stop) reached this run, and ends only it; its caller "
                + "decides what follows (RunLoop.run() starts another run while the default mode is not empty)."),
        // A poll iteration: a port taken by the poll after a source0 ended no wait.
        Row(
            .source1, .entryStop, step: 34,
            "Port net had a message, and the wait (or a poll) took it: a port needs no wake-up; one port is served "
                + "per iteration."),
        // Late fires no busy loop caused: a mode not running, a timer added after its date, a nested run of
        // another mode, Darwin's tolerance; and one a nested run of the same mode did not excuse.
        Row(
            .timerLateOneShot, .lateCauses, step: 22,
            "One-shot timer away fires late (due 0.050): Tracking was not the running mode at its deadline (the loop "
                + "ran another mode, or no run at all), and a timer fires only while one of its modes runs. It fires "
                + "once and is invalidated."),
        Row(
            .timerLateRepeating, .lateCauses, step: 40,
            "timer latecomer fires late (due 0.100): it was added to default after its fire date, so it fires at once. "
                + "No tick of its grid was missed: it fires once and keeps its grid, the next fire is one interval "
                + "after 0.100."),
        Row(
            .timerLateOneShot, .nestedRuns, step: 20,
            "One-shot timer tick fires late (due 0.050): the loop was busy past its deadline (in a callout or its own "
                + "pass; a timer fires only when the timer port is taken). It fires once and is invalidated."),
        Row(
            .timerLateOneShot, .nestedRuns, step: 47,
            "One-shot timer tock fires late (due 0.120): default was not the running mode at its deadline (the loop "
                + "ran another mode, or no run at all), and a timer fires only while one of its modes runs. It fires "
                + "once and is invalidated."),
        Row(
            .timerLateOneShot, .tolerance, step: 10,
            "One-shot timer lax fires late (due 0.050): the loop slept in default past its deadline (the timer port was "
                + "armed for later, at the end of its tolerance, or the thread woke late). It fires once and is "
                + "invalidated."),
        // A sleep whose timer came due while another mode ran: its port is ready, the wait does not sleep.
        Row(
            .sleepTimerOverdue, .lateCauses, step: 19,
            "Timer away was due at 0.050 and is overdue: its port is ready already, so the wait returns at once and "
                + "the timer fires late."),
        // The main thread's peek takes the main queue with no wait: the same words, no claim of a wait.
        Row(
            .mainQueue, .peek, step: 12,
            "The main thread drains the libdispatch main queue (block m1); this counts as a handled source."),
    ]

    @Test("the Why pane's words where a row's rule does not hold", arguments: contrasts)
    func contrast(_ row: Row) throws {
        let trace = ExplanationScenarios.trace(row.scenario)
        try #require(row.step >= 1 && row.step <= trace.count)
        let explained = Explanation.explain(trace[row.step - 1])
        #expect(explained.case == row.expected)
        #expect(explained.text == row.text)
    }

    @Test("a late fire read from a trace that does not say why names no cause")
    func lateFireWithoutACause() {
        let event = LoopEvent(
            time: .zero + .milliseconds(30), loop: "T", depth: 1, mode: "default", iteration: 2, kind: .timer,
            name: "t", fact: .late(due: .zero + .milliseconds(20), missed: nil, cause: nil))
        let explained = Explanation.explain(event)
        #expect(explained.case == .timerLateOneShot)
        #expect(
            explained.text
                == "One-shot timer t fires late (due 0.020): its deadline passed before it could fire (the trace does "
                + "not say why). It fires once and is invalidated.")
    }

    @Test("every late cause the engine knows has a contrast row, and the busy one a row of its own")
    func everyLateCauseIsShown() {
        var causes: Set<LoopEvent.LateCause> = []
        for row in Self.rows + Self.contrasts {
            let event = ExplanationScenarios.trace(row.scenario)[row.step - 1]
            if case .late(_, _, let cause?) = event.fact { causes.insert(cause) }
        }
        #expect(causes == Set(LoopEvent.LateCause.allCases))
    }

    /// The cycle panel where its usual mapping would be wrong: the main thread's peek (no wait: Apple's "port
    /// ready?"), a perform run by a timer (L12, not blocks pass 3), a main queue taken by a wait.
    static let cycleContrasts: [(scenario: ExplanationScenarios.Key, step: Int, documented: Bool, row: Int)] = [
        (.peek, 12, true, 4),
        (.mainThread, 27, true, 8),
        (.orderedPerform, 11, false, 7),
        (.orderedPerform, 11, true, 8),
        (.delayedPerform, 10, false, 7),
    ]

    @Test("the cycle panel marks a peeked main queue and a timer's perform where CF runs them")
    func cycleContrast() {
        for row in Self.cycleContrasts {
            let trace = ExplanationScenarios.trace(row.scenario)
            #expect(CycleSteps.step(of: row.step - 1, in: trace, documented: row.documented) == row.row, "\(row)")
        }
    }

    @Test("a run of an empty mode marks no step in either view: it neither enters nor exits")
    func emptyRunMarksNoStep() throws {
        let script = try ScenarioParser.parse("thread T\n  observer o on all\n  run default for 1s\n")
        let trace = Session(script: script).trace
        #expect((0..<trace.count).map { trace[$0].step } == ["runStart default", "result finished"])
        for documented in [false, true] {
            #expect(CycleSteps.step(of: 0, in: trace, documented: documented) == nil)
            #expect(CycleSteps.step(of: 1, in: trace, documented: documented) == nil)
        }
        // A run that enters marks its runStart on entry and its result on exit, as before.
        let loop = ExplanationScenarios.trace(.loop)
        #expect(CycleSteps.step(of: 3, in: loop, documented: true) == 0)
        #expect(loop[67].kind == .result)
        #expect(CycleSteps.step(of: 67, in: loop, documented: false) == 9)
    }

    @Test("a main-queue job an async main's dispatch_main() serves marks no step: no loop runs it")
    func dispatchMainJobMarksNoStep() {
        let trace = ExplanationScenarios.trace(.asyncMain)
        #expect(trace[2].step == "mainQueue early")
        #expect(trace[2].depth == 0)
        for documented in [false, true] {
            #expect(CycleSteps.step(of: 2, in: trace, documented: documented) == nil)
        }
    }

    @Test("a LoopRecorder recording says only what an observer saw: its beforeWaiting claims no source0")
    func recordingSaysLess() throws {
        let bytes = Array(try Data(contentsOf: RecordingTests.fixture))
        let session = Session(replay: try JSONLTraceReader.read(bytes, maximumEvents: 100_000))
        #expect(session.knowledge == .observerActivitiesOnly)
        for (expected, step, text) in Self.recorded {
            #expect(session.trace[step - 1].kind == .beforeWaiting)
            let explained = Explanation.explain(session.trace[step - 1], knowing: session.knowledge)
            #expect(explained.case == expected)
            #expect(explained.text == text)
            #expect(Explanation.text(for: step - 1, in: session.trace, knowing: session.knowledge) == text)
        }
    }

    @Test("a replayed loopviz trace has every event: its beforeWaiting keeps the full words")
    func loopvizTraceReplaySaysAll() throws {
        let events = ExplanationScenarios.trace(.loop)
        let text = JSONLTraceFormatter.format(Array(events), scenario: "loop")
        let session = Session(replay: try JSONLTraceReader.read(Array(text.utf8), maximumEvents: 100_000))
        #expect(session.knowledge == .everyEvent)
        let explained = Explanation.explain(session.trace[7], knowing: session.knowledge)
        #expect(explained.case == .beforeWaiting)
        #expect(
            explained.text
                == "No source0 was handled in this iteration, so the loop is about to wait: observers see "
                + "beforeWaiting (a hang monitor stops its watchdog here).")
    }
}
