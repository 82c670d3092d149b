import LoopEngine
import Testing

/// The mistakes of the new user's walk-through (docs/audits/new-user-walkthrough.md items 3, 4 and 15): each now
/// gets a diagnostic that says the fix.
@Suite("the walk-through's mistakes are told with their fix")
struct WalkthroughErrorTests {
    static let cases: [ScenarioErrorCase] = [
        .init(
            id: "a misspelt keyword", source: "thread T\n  timr tick at 100ms every 100ms\n  run default for 1s",
            line: 2, column: 3, message: "unknown action 'timr'; did you mean 'timer'?"),
        .init(
            id: "an activity in the wrong case", source: "thread T\n  observer o on afterwaiting\n  run default for 1s",
            line: 2, column: 17,
            message:
                "unknown activity 'afterwaiting'; expected entry, beforeTimers, beforeSources, beforeWaiting, "
                + "afterWaiting, exit or all (case matters); did you mean 'afterWaiting'?"),
        .init(
            id: "a result misremembered", source: "thread T\n  run default for 1s\nexpect\n  result timeout",
            line: 4, column: 10,
            message:
                "unknown result 'timeout'; expected finished, stopped, timedOut or handledSource; did you mean "
                + "'timedOut'?"),
        .init(
            id: "an event misspelt",
            source: "thread T\n  timer tick at 1ms\n  run default for 1s\nexpect\n  timers tick once",
            line: 5, column: 3,
            message:
                "unknown event 'timers'; expected one of runStart, entry, beforeTimers, beforeSources, beforeWaiting, "
                + "afterWaiting, exit, source0, source1, timer, block, observer, mainQueue, sleep, wake, result, "
                + "enqueue, signal, send, wakeUp, stop, schedule, cancel, invalidate, command, perform, note, query, opAdd, "
                + "opReady, opStart, opCancel, opFinish, threadCreate, threadExit, queue, returned; did you mean "
                + "'timer'?"),
        .init(
            id: "a space between a number and its unit", source: "thread T\n  run default for 300 ms", line: 2,
            column: 19, message: "write the number and unit together: 300ms"),
        .init(
            id: "the first line of a block is the one off",
            source: "thread T\n     timer tick at 1ms\n    run default for 1s\n    run default for 1s", line: 2,
            column: 6,
            message: "this line is indented 5 spaces, the lines after it in its block 4; indent it 4 spaces"),
        .init(
            id: "never after the event",
            source: "thread T\n  timer refresh at 1ms\n  run default for 1s\nexpect\n  timer refresh in default never",
            line: 5, column: 28, message: "`never` goes first: `never timer refresh in default`"),
        .init(
            id: "an item misspelt in an expect line",
            source:
                "thread T\n  source0 render\n  timer keepAlive at 1ms\n  run default for 1s\nexpect\n  never source0 rendr",
            line: 6, column: 17,
            message: "unknown item 'rendr' (known: render, keepAlive); did you mean 'render'?"),
        .init(
            id: "an item misspelt in a say line's claim",
            source:
                "thread T\n  timer tick at 1ms\n  run default for 1s\nsay \"t\" at 0s\n  claims later timer tik once",
            line: 5, column: 22, message: "unknown item 'tik' (known: tick); did you mean 'tick'?"),
        .init(
            id: "a mode misspelt in an expect line",
            source: "thread T\n  timer tick at 1ms in Tracking\n  run Tracking for 1s\nexpect\n  timer tick in Trackng",
            line: 5, column: 17,
            message: "unknown mode 'Trackng' (known: Tracking, common, default); did you mean 'Tracking'?"),
        .init(
            id: "a clause misspelt", source: "thread T\n  timer t at 1ms evrey 10ms\n  run default for 1s", line: 2,
            column: 18,
            message:
                "unexpected 'evrey' in a timer; expected one of 'every', 'tolerance', 'order', 'in', 'interval', 'foundation'; did you mean "
                + "'every'?"),
        .init(
            id: "a profile misspelt", source: "profile linx\nthread T\n  run default for 1s", line: 1, column: 9,
            message: "unknown profile 'linx'; expected linux or darwin; did you mean 'linux'?"),
    ]

    @Test("each mistake is reported where it is, with its fix", arguments: cases)
    func reported(_ mistake: ScenarioErrorCase) {
        mistake.expectReported()
    }

    @Test("after a line's first error, the rest of the line is not reported again")
    func oneErrorPerLine() throws {
        let source = "thread T\n  observer o on beforeWaitng, afterwaiting\n  run default for 1s"
        let error = try #require(throws: ScenarioDiagnostics.self) { try ScenarioParser.parse(source, file: "t.loop") }
        #expect(
            error.diagnostics.map(\.message) == [
                "unknown activity 'beforeWaitng'; expected entry, beforeTimers, beforeSources, beforeWaiting, "
                    + "afterWaiting, exit or all (case matters); did you mean 'beforeWaiting'?"
            ])
    }

    @Test("a run of a misspelt mode warns with the mode that has the items")
    func misspeltRunMode() throws {
        let script = try ScenarioParser.parse(
            "thread T\n  timer tick at 100ms in Tracking\n  run Trackng for 300ms", file: "t.loop")
        #expect(
            script.warnings.map(\.description) == [
                "t.loop:3:7: warning: mode 'Trackng' has no items; did you mean 'Tracking'?\n    run Trackng for 300ms\n"
                    + "        ^"
            ])
    }

    @Test(
        "an empty mode run on purpose, common modes, and items a callout adds later are not warned about",
        arguments: [
            "thread T\n  run other for 1s\nexpect\n  result finished",
            "thread T\n  RunLoop.run other before 1s\nexpect\n  returned false",
            "thread T main\n  RunLoop.run until 1s",
            "thread T\n  timer tick at 1ms in common\n  common Tracking\n  run Tracking for 1s",
            "thread T\n  timer tick at 1ms\n    call 1: add late to Later\n  source0 late in nothing\n"
                + "  run default for 10ms\n  run Later for 10ms",
            "thread T\n  timer tick at 1s in Tracking\n  query nextTimerFireDate Tracking",
            // The file claims the item never runs: its mode no run enters is the point.
            "thread T main async\n  timer tick at 1ms in default\n  await sleep 5ms\nexpect\n  never timer tick",
            // Darwin's async main runs CFRunLoopRun() (default) at its first await.
            "profile darwin\nthread T main async\n  timer tick at 1ms in default\n  await sleep 5ms",
        ])
    func legitimate(_ source: String) throws {
        let script = try ScenarioParser.parse(source, file: "t.loop")
        #expect(script.warnings.map(\.description) == [])
    }

    @Test("an empty run with no mode near, items in a mode no run enters, and an add to it are warned about")
    func otherWarnings() throws {
        let script = try ScenarioParser.parse(
            "thread T\n  source0 d\n  timer tick at 1ms in Hidden\n  source0 s in nothing\n  add s to Elsewhere\n"
                + "  run default for 10ms\n  run Empty for 10ms",
            file: "t.loop")
        #expect(
            script.warnings.map(\.message) == [
                "'tick' is in mode 'Hidden', which no run enters",
                "'s' is in mode 'Elsewhere', which no run enters",
                "mode 'Empty' has no items, so this run returns at once; add items to it, or expect "
                    + "`result finished` (or `returned false`) if that is the point",
            ])
    }

    @Test("an async main on Linux runs no loop after its first await: its items in default are warned about")
    func asyncMainOnLinuxRunsNoDefault() throws {
        let script = try ScenarioParser.parse(
            "thread T main async\n  timer tick at 1ms in default\n  await sleep 5ms", file: "t.loop")
        #expect(script.warnings.map(\.message) == ["'tick' is in mode 'default', which no run enters"])
    }
}
