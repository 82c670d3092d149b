import LoopEngine
import Testing

@testable import loopviz

/// The pool view's keys, through the pure `update`: each poke is an outside event at the time shown.
@Suite("the pool view reacts to its keys")
struct PoolUpdateTests {
    static func press(_ keys: Key..., on model: inout AppModel) {
        for key in keys { _ = updateInline(&model, .key(key)) }
    }

    /// The fixture paused at `milliseconds` of virtual time (after the last event before it).
    static func model(at milliseconds: Int) -> AppModel {
        var model = PoolFixture.model()
        let time = LoopInstant.zero + .milliseconds(milliseconds)
        model.isPaused = true
        model.cursor = model.trace.lastIndex { $0.time <= time }.map { $0 + 1 } ?? 0
        model.furthest = model.cursor
        model.playClock = time
        return model
    }

    /// The pool events after the cursor, as `ms loop step (detail)`.
    static func poolLines(after model: AppModel) -> [String] {
        model.trace[model.cursor...].filter(\.kind.isPool).map {
            "\($0.time.nanoseconds / 1_000_000) \($0.loop) \($0.step)" + ($0.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test("a scenario with queues opens on the pool view; P switches to the loop view and back")
    func toggle() {
        var model = PoolFixture.model()
        #expect(model.view == .pool)
        Self.press(.character("P"), on: &model)
        #expect(model.view == .loop)
        Self.press(.character("P"), on: &model)
        #expect(model.view == .pool)
    }

    @Test("P in a scenario without a queue says so and stays in the loop view")
    func toggleWithoutQueues() {
        var model = UpdateTests.model()
        #expect(model.view == .loop)
        Self.press(.character("P"), on: &model)
        #expect(model.view == .loop && model.flash?.text == "this scenario has no operation queue")
    }

    @Test("in the pool view n and p step from one pool event to the next")
    func stepping() {
        var model = PoolFixture.model()
        Self.press(.character("n"), on: &model)
        #expect(model.currentEvent?.step == "opAdd thumb")
        Self.press(.character("n"), .character("n"), .character("n"), on: &model)
        #expect(model.currentEvent?.step == "opAdd upload1")
        Self.press(.character("p"), on: &model)
        #expect(model.currentEvent?.step == "threadCreate uploads.1")
        Self.press(.character("P"), .character("p"), on: &model)
        #expect(model.currentEvent?.kind == .opReady)
    }

    @Test("playing the pool view moves a pool event per step")
    func playback() {
        var model = PoolFixture.model()
        _ = updateInline(&model, .tick(seconds: 1))
        #expect(model.cursor > 0 && model.trace.prefix(model.cursor).filter(\.kind.isPool).count == 4)
        #expect(model.currentEvent?.kind.isPool == true)
    }

    @Test("↓/j and ↑/k move the selection through executing, then waiting operations by priority")
    func selection() {
        var model = Self.model(at: 350)
        Self.press(.down, on: &model)
        #expect(model.selectedOperation == "upload1")
        Self.press(.character("j"), .character("j"), on: &model)
        #expect(model.selectedOperation == "cleanup")
        Self.press(.down, .down, .down, .down, on: &model)
        #expect(model.selectedOperation == "index")
        Self.press(.character("k"), on: &model)
        #expect(model.selectedOperation == "log")
        // The loop view's arrows still scroll its log.
        Self.press(.character("P"), .up, on: &model)
        #expect(model.selectedOperation == "log" && model.logScroll == 1)
    }

    @Test("[ and ] belong to the loop view: in the pool view they stay and say where they work")
    func iterationKeysInThePoolView() {
        var model = Self.model(at: 900)
        let cursor = model.cursor
        Self.press(.character("["), on: &model)
        #expect(model.cursor == cursor && model.flash?.text == "[: previous iteration, in the loop view (P switches)")
        Self.press(.character("]"), on: &model)
        #expect(model.cursor == cursor && model.flash?.text == "]: next iteration, in the loop view (P switches)")
    }

    @Test("a adds op1 (normal, work 1 s, checks every 100 ms) at the time shown; it starts when a slot frees")
    func addOperation() {
        var model = Self.model(at: 350)
        Self.press(.character("a"), on: &model)
        #expect(model.session.interventions.map(\.label) == ["add op1 to uploads (normal, work 1 s)"])
        #expect(model.selectedOperation == "op1" && model.isPaused)
        let lines = Self.poolLines(after: model)
        #expect(lines.first == "350 uploads opAdd op1 (priority normal, work 1.000s check every 0.100s)")
        // cleanup (normal, added first) takes the slot upload1 frees at 0.8 s; op1 the next one.
        #expect(lines.contains("800 uploads.2 opStart cleanup (reused thread (1 before))") == false)
        #expect(lines.contains { $0.hasPrefix("800 uploads.2 opStart op1") })
        Self.press(.character("a"), on: &model)
        #expect(model.session.interventions.last?.label == "add op2 to uploads (normal, work 1 s)")
    }

    @Test("c cancels the selected operation; without a selection it says how to select one")
    func cancelSelected() {
        var model = Self.model(at: 350)
        Self.press(.character("c"), on: &model)
        #expect(model.session.interventions.isEmpty && model.flash?.text.hasPrefix("select an operation") == true)
        Self.press(.down, .down, .down, .down, .down, .character("c"), on: &model)
        #expect(model.session.interventions.map(\.label) == ["cancel index"])
        let lines = Self.poolLines(after: model)
        // index waited for a dependency: cancelled, it is ready at once, and finishes when the queue starts it.
        #expect(
            lines.prefix(2) == [
                "350 uploads opCancel index (queued: it finishes when the queue starts it)",
                "350 uploads opReady index",
            ])
        #expect(lines.contains { $0.hasSuffix("opFinish index (cancelled before it started)") })
        #expect(!lines.contains { $0.contains("opStart index") })
    }

    @Test("c on a running check-pointing operation stops it at its next check")
    func cancelRunning() {
        var model = Self.model(at: 850)
        model.selectedOperation = "log"
        Self.press(.character("c"), on: &model)
        let lines = Self.poolLines(after: model)
        #expect(
            lines.prefix(2) == [
                "850 uploads opCancel log (executing: it stops at its next check)",
                "850 uploads.2 opFinish log (cancelled while running)",
            ])
    }

    @Test("C cancels every operation of the queue")
    func cancelAll() {
        var model = Self.model(at: 350)
        Self.press(.character("C"), on: &model)
        #expect(model.session.interventions.map(\.label) == ["cancel all operations of uploads"])
        let lines = Self.poolLines(after: model)
        #expect(lines.first == "350 uploads queue cancelAll")
        #expect(lines.filter { $0.contains("opCancel") && !$0.contains("already") }.count == 5)
        // The fixture's own cancel of cleanup at 0.4 s now finds it finished.
        #expect(lines.contains("400 uploads opCancel cleanup (already finished: no effect)"))
        #expect(lines.contains("350 uploads opCancel upload1 (executing: the connection is cancelled)"))
    }

    @Test("s suspends the queue, s again resumes it")
    func suspendResume() {
        var model = Self.model(at: 350)
        Self.press(.character("s"), on: &model)
        #expect(model.session.interventions.map(\.label) == ["suspend uploads"])
        #expect(Self.poolLines(after: model).first == "350 uploads queue suspended")
        // Nothing starts while suspended: upload1 finishes at 0.8 s and its slot stays empty.
        let suspended = model.session.poolSnapshot(after: model.trace.count).queues[0]
        #expect(suspended.operation(named: "log")?.state == .ready)
        // Resume at 1 s: the shown state says suspended, so s resumes.
        model.cursor = model.trace.lastIndex { $0.time <= .zero + .seconds(1) }! + 1
        model.playClock = .zero + .seconds(1)
        #expect(model.shownQueueState?.suspended == true)
        Self.press(.character("s"), on: &model)
        #expect(model.session.interventions.map(\.label) == ["suspend uploads", "resume uploads"])
        let resumed = Self.poolLines(after: model)
        #expect(resumed.first == "1000 uploads queue resumed")
        #expect(resumed.contains("1000 uploads.2 opStart log (reused thread (1 before))"))
    }

    @Test("> raises the limit by one (a third worker starts at once); < lowers it, never below 0")
    func limit() {
        var model = Self.model(at: 350)
        Self.press(.character(">"), on: &model)
        #expect(model.session.interventions.last?.label == "limit of uploads 2, now 3")
        let lines = Self.poolLines(after: model)
        #expect(
            lines.prefix(3) == [
                "350 uploads queue limit (3)", "350 uploads.3 threadCreate uploads.3 (worker of uploads)",
                "350 uploads.3 opStart cleanup (new thread)",
            ])
        var lowered = Self.model(at: 350)
        Self.press(.character("<"), .character(","), on: &lowered)
        #expect(
            lowered.session.interventions.map(\.label) == ["limit of uploads 2, now 1", "limit of uploads 1, now 0"])
        Self.press(.character("<"), on: &lowered)
        #expect(
            lowered.session.interventions.count == 2
                && lowered.flash?.text.hasPrefix("the limit of uploads is already 0") == true)
    }

    @Test("the key table has no key twice within a view, and every pool key is in the pool view's help")
    func keyTable() {
        for view in [AppModel.View.loop, .pool] {
            let keys = KeyMap.bindings(in: view).flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "\(view)")
        }
        #expect(KeyMap.command(for: .character("a"), in: .pool) == .addOperation)
        #expect(KeyMap.command(for: .character("a"), in: .loop) == .addTimer)
        #expect(KeyMap.command(for: .character("1"), in: .pool) == nil)
    }
}

/// Keys on a scenario with two queues.
@Suite("the pool view with two queues")
struct TwoQueueTests {
    @Test("Tab shows the next queue; the pool keys act on the queue shown")
    func nextQueue() {
        var scenario = PoolFixture.scenario
        scenario.queues.append(QueueSpec(name: "thumbnails", limit: 1))
        var model = AppModel(
            session: Session(script: LoopScript(scenario: scenario, until: .seconds(5))), fileName: "two.loop")
        _ = updateInline(&model, .resize(width: 80, height: 24))
        #expect(model.shownQueueState?.name == "uploads")
        PoolUpdateTests.press(.tab, on: &model)
        #expect(model.shownQueueState?.name == "thumbnails" && model.flash?.text == "queue thumbnails")
        PoolUpdateTests.press(.character("a"), on: &model)
        #expect(model.session.interventions.map(\.label) == ["add op1 to thumbnails (normal, work 1 s)"])
        #expect(
            model.trace.contains { $0.kind == .threadCreate && $0.name == "thumbnails.1" })
        #expect(RenderTests.text(model).contains("Queue thumbnails (2/2, Tab)"))
        PoolUpdateTests.press(.tab, on: &model)
        #expect(model.shownQueueState?.name == "uploads")
    }
}
