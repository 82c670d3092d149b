import LoopEngine
import Testing

/// The parser's diagnostics carry their problem as data beside its wording.
@Suite("a diagnostic carries its problem as data")
struct ScenarioProblemTests {
    /// What `unknown event '…'` lists after the word: every kind of event, and `returned`.
    static let eventsExpected =
        "expected one of runStart, entry, beforeTimers, beforeSources, beforeWaiting, afterWaiting, exit, source0, "
        + "source1, timer, block, observer, mainQueue, sleep, wake, result, enqueue, signal, send, wakeUp, stop, "
        + "schedule, cancel, invalidate, command, perform, note, query, opAdd, opReady, opStart, opCancel, opFinish, "
        + "threadCreate, threadExit, queue, returned"

    static func diagnostics(_ source: String) -> [ScenarioDiagnostic] {
        do {
            _ = try ScenarioParser.parse(source, file: "t.loop")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test("the thrown diagnostic holds the problem, its position and its wording")
    func problemAndPosition() {
        let found = Self.diagnostics("thread T\n  port p\n  signal x\n  work 5")
        #expect(
            found.map { "\($0.line):\($0.column) \($0.message)" } == [
                "3:10 unknown item 'x' on thread T (known: p)", "4:8 '5' needs a unit: 5ms or 5s",
            ])
        #expect(found.map(\.problem) == [.unknownItem("x", thread: "T", known: ["p"]), .durationWithoutUnit("5")])
    }

    @Test("an unknown top-level word is quoted cut to 80 columns, as every other quote is")
    func unknownTopLevelWordIsBounded() {
        let word = String(repeating: "x", count: 500)
        let found = Self.diagnostics("thread T\n  wakeup\n\(word)")
        #expect(
            found.map(\.message) == [
                "expected scenario, profile, until, iteration cost, owner, thread, queue, at, say, ask or expect; found '"
                    + String(repeating: "x", count: 80) + "…'"
            ])
    }

    @Test("what a line lacks is data, and its phrase is shown whole, however long")
    func expectedIsDataAndWhole() {
        let found = Self.diagnostics("thread T\n  observer o on\n  timer")
        #expect(found.map(\.problem) == [.expected(.activity), .expected(.timerName)])
        #expect(
            found.map(\.message) == [
                "expected an activity: entry, beforeTimers, beforeSources, beforeWaiting, afterWaiting, exit or all",
                "expected the timer's name, or a range such as p1..10",
            ])
    }
}
