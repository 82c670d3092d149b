import LoopEngine
import Testing

@testable import loopviz

/// The header's narration is tied to an event: it shows from that event on, never before it.
@Suite("narration is shown from the event it talks about, never before")
struct NarrationAnchorTests {
    static let source = """
        thread T
          port K in default
          timer tick at 100ms
          run default for 200ms
        say "starts" at 0ms
        say "sleeps" after sleep
        say "fires" after timer tick
        say "late" at 150ms
        say "never" after source1 K
        """

    /// The narration at every cursor, from 0 (nothing shown) to the whole trace.
    static func shown(_ session: Session) -> [String?] {
        (0...session.trace.count).map { session.narration(shownUpTo: $0) }
    }

    @Test("each line shows from its event: the first at a time, the first matching, never for one that never happens")
    func eachLineFromItsEvent() throws {
        let session = Session(script: try ScenarioParser.parse(Self.source))
        let steps = session.trace.map(\.step)
        #expect(
            steps == [
                "schedule K", "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "sleep",
                "wake", "afterWaiting", "timer tick", "beforeTimers", "beforeSources", "beforeWaiting", "sleep",
                "wakeUp", "wake", "afterWaiting", "exit", "result timedOut",
            ])
        let expected: [String?] =
            [nil] + Array(repeating: "starts", count: 6) + Array(repeating: "sleeps", count: 3)
            + Array(repeating: "fires", count: 5) + Array(repeating: "late", count: 5)
        #expect(Self.shown(session) == expected)
    }

    @Test("the built-in lesson says the loop sleeps only once it sleeps (not at beforeSources)")
    func builtInLessonSleeps() throws {
        let session = Session(script: try ScenarioParser.parse(DefaultLesson.text))
        let sleep = try #require(session.trace.firstIndex { $0.kind == .sleep })
        let beforeSources = try #require(session.trace.firstIndex { $0.kind == .beforeSources })
        #expect(session.narration(shownUpTo: beforeSources + 1) == nil)
        #expect(session.narration(shownUpTo: sleep) == nil)
        #expect(
            session.narration(shownUpTo: sleep + 1) == "The loop sleeps: nothing to do until the timer at 0.6 s")
    }

    @Test("live: a line's event is found across batches, and still counted after old events are forgotten")
    func liveAcrossBatches() throws {
        let script = try ScenarioParser.parse(Self.source)
        let events = Session(script: script).trace.map { $0 }
        var live = Session(liveScript: script)
        live.appendLive(Array(events[0..<5]), dropped: 0, ended: false)
        #expect(live.narration(shownUpTo: 5) == "starts")
        live.appendLive(Array(events[5...]), dropped: 0, ended: true)
        #expect(Self.shown(live) == Self.shown(Session(script: script)))
    }

    @Test("every say line of every lesson (and of the built-in one) is tied to an event that happens, and shown")
    func everyLessonLineIsShown() throws {
        var lines = 0
        for path in PoolLessonTests.lessons + [nil] {
            guard case .success(let model) = UICommand.loadModel(path) else {
                Issue.record("\(path ?? "built-in") does not load")
                continue
            }
            let session = model.session
            lines += session.script.narration.count
            let unresolved = zip(session.script.narration, session.narrationAnchors.indices).filter { $0.1 == nil }
            #expect(unresolved.map(\.0.text) == [], "\(path ?? "built-in")")
            // Each line is the one shown at some step in its language: none is hidden behind a line tied to a
            // later event.
            for language in Language.allCases {
                var shown: Set<String> = []
                for cursor in 0...session.trace.count {
                    if let text = session.narration(shownUpTo: cursor, in: language) { shown.insert(text) }
                }
                let lines = session.script.narration.filter { $0.language == language }.map(\.text)
                #expect(Set(lines).subtracting(shown) == [], "\(path ?? "built-in") \(language)")
            }
        }
        #expect(lines > 60)
    }
}
