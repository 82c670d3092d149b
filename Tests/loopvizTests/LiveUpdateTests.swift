import LoopEngine
import Testing

@testable import loopviz

/// `--clock real` in the UI, without a terminal: the trace grows with what the real threads report, playing
/// follows it, and the user's keys become actions performed at once instead of replayed outside events.
@Suite("the UI on the real clock")
struct LiveUpdateTests {
    static func model() -> AppModel {
        let script = try! ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        var model = AppModel(session: Session(liveScript: script), fileName: DefaultLesson.fileName)
        _ = updateInline(&model, .resize(width: 80, height: 24))
        return model
    }

    /// Some events, as the real threads would report them.
    static func events(_ kinds: [LoopEvent.Kind], from start: Int = 0) -> [LoopEvent] {
        kinds.enumerated().map { index, kind in
            LoopEvent(
                time: .zero + .milliseconds(start + index), loop: "worker", depth: 1, mode: "default",
                iteration: 1, kind: kind)
        }
    }

    @Test("a live session starts empty and never replays")
    func startsEmpty() {
        let model = Self.model()
        #expect(model.session.isLive && model.trace.isEmpty && !model.session.canExtend)
    }

    @Test("while playing, the cursor follows the events as they arrive")
    func follows() {
        var model = Self.model()
        _ = updateInline(
            &model, .live(events: Self.events([.runStart, .entry, .beforeTimers]), dropped: 0, ended: false))
        #expect(model.cursor == 3 && model.playback == .live)
        _ = updateInline(&model, .live(events: Self.events([.beforeSources], from: 3), dropped: 0, ended: false))
        #expect(model.cursor == 4)
    }

    @Test("paused, the events still arrive but the cursor stays; playing again catches up")
    func pausedKeepsItsPlace() {
        var model = Self.model()
        _ = updateInline(&model, .live(events: Self.events([.runStart, .entry]), dropped: 0, ended: false))
        _ = updateInline(&model, .key(.character(" ")))
        _ = updateInline(
            &model, .live(events: Self.events([.beforeTimers, .beforeSources], from: 2), dropped: 0, ended: false))
        #expect(model.cursor == 2 && model.trace.count == 4)
        _ = updateInline(&model, .key(.character("p")))
        #expect(model.cursor == 1)
        _ = updateInline(&model, .key(.character(" ")))
        _ = updateInline(&model, .tick(seconds: 0.1))
        #expect(model.cursor == 4)
    }

    @Test("dropped events and the end of every thread are counted and shown")
    func droppedAndEnded() {
        var model = Self.model()
        _ = updateInline(&model, .live(events: Self.events([.runStart]), dropped: 7, ended: true))
        #expect(model.session.droppedEvents == 7 && model.session.liveEnded)
        let status = render(model).lines.last ?? ""
        #expect(status.contains("7 events dropped"))
        #expect(render(model).lines.first?.contains("real clock") == true)
    }

    @Test("a limit that halted the real run is kept and shown in the status line, as on the virtual clock")
    func limitIsShown() {
        var model = Self.model()
        _ = updateInline(&model, .resize(width: 200, height: 24))
        let limit = NestingLimit(thread: "T", callout: .init(kind: .source0, name: "s"), depth: 256)
        _ = updateInline(
            &model, .live(events: Self.events([.runStart]), dropped: 0, ended: false, halt: .nestingLimit(limit)))
        _ = updateInline(&model, .live(events: Self.events([.entry], from: 1), dropped: 0, ended: true))
        #expect(model.session.haltReason == .nestingLimit(limit))
        let status = render(model).lines.last ?? ""
        #expect(
            status.contains(
                "stopped: source0 s re-entered the run loop of thread T 256 runs deep, the nesting limit (256)"),
            "\(status)")
    }

    @Test("a poke is performed at once on the primary thread, not replayed")
    func pokeIsPerformed() {
        var model = Self.model()
        let effects = updateInline(&model, .key(.character("w")))
        #expect(effects == [.perform([.wakeUp], thread: model.session.primaryThread.name)])
        #expect(model.trace.isEmpty, "nothing is recomputed: the real threads report what the wake-up did")
        #expect(model.session.interventions.map(\.label) == ["wake up"])
    }

    @Test("adding an item is refused on the real clock: the threads' items were made at the start")
    func addingItemsIsRefused() {
        var model = Self.model()
        let effects = updateInline(&model, .key(.character("a")))
        #expect(effects.isEmpty && model.flash?.text.contains("virtual clock") == true)
    }
}

extension LiveUpdateTests {
    @Test("past its bound the live trace forgets its oldest events, says so, and keeps the cursor on its event")
    func forgetsTheOldest() {
        var model = Self.model()
        let first = Self.events(Array(repeating: .beforeTimers, count: Session.maximumLiveEvents))
        _ = updateInline(&model, .live(events: first, dropped: 0, ended: false))
        _ = updateInline(&model, .key(.character(" ")))
        _ = updateInline(&model, .key(.character("p")))
        let shownTime = model.currentEvent?.time
        _ = updateInline(
            &model, .live(events: Self.events([.beforeSources], from: 10_000_000), dropped: 0, ended: false))
        #expect(model.trace.count == Session.maximumLiveEvents * 3 / 4)
        #expect(model.session.forgottenEvents == Session.maximumLiveEvents + 1 - Session.maximumLiveEvents * 3 / 4)
        #expect(model.currentEvent?.time == shownTime, "the cursor moved with the events it shows")
        #expect(render(model).lines.last?.contains("oldest events forgotten") == true)
    }

    @Test("the pool view on real threads uses this machine's width for a queue at the default limit")
    func liveDefaultWidth() throws {
        #if os(Linux)
        let text = "queue q\nthread main\n  operation a on q work 10ms\n"
        let script = try ScenarioParser.parse(text, file: "q.loop")
        let live = Session(liveScript: script)
        #expect(live.poolSnapshot(after: 0).queues.first?.width == RealScenarioRunner.defaultQueueWidth)
        let virtual = Session(script: script)
        #expect(virtual.poolSnapshot(after: 0).queues.first?.width == ScenarioRunner.defaultQueueWidth)
        #endif
    }
}
