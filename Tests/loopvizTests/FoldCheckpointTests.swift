import LoopEngine
import Testing

@testable import loopviz

/// The UI's state at a step comes from the nearest saved checkpoint plus the events after it: exactly the state a
/// fold from event 0 gives, at any step, after pokes too.
@Suite("checkpointed folds")
struct FoldCheckpointTests {
    /// A fold that never saves a state: every answer is folded from event 0.
    static func fromZero(_ session: Session) -> Session.Folds {
        Session.Folds(
            scenario: session.effectiveScenario, defaultWidth: session.defaultQueueWidth, interval: Int.max / 2)
    }

    static func check(_ session: Session, seed: UInt64, probes: Int = 60) {
        let reference = fromZero(session)
        let count = session.trace.count
        var steps = SplitMix64(seed: seed)  // a failure names a reproducible step
        // Random steps, forwards and backwards, and the edges: 0, every checkpoint's neighbours, the end.
        let interval = session.foldInterval
        var probe = [0, count, interval - 1, interval, interval + 1, 3 * interval].filter { $0 <= count }
        for _ in 0..<probes { probe.append(Int.random(in: 0...count, using: &steps)) }
        for step in probe {
            #expect(
                session.snapshots(after: step) == reference.loops.state(after: step, in: session.trace).snapshots,
                "loops after \(step) of \(count)")
            #expect(
                session.poolSnapshot(after: step) == reference.pool.state(after: step, in: session.trace),
                "pool after \(step) of \(count)")
        }
    }

    @Test("a long lesson: the loop panels at random steps are those of a fold from event 0")
    func longLessonAtRandomSteps() throws {
        var script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        script.until = .seconds(300)
        let session = Session(script: script, foldInterval: 64)
        #expect(session.trace.count > 3_000)
        Self.check(session, seed: 1)
    }

    @Test("a pool scenario: the pool view at random steps is that of a fold from event 0")
    func poolAtRandomSteps() {
        let session = Session(script: LoopScript(scenario: PoolFixture.scenario, until: .seconds(5)), foldInterval: 16)
        Self.check(session, seed: 2, probes: 40)
    }

    @Test("after pokes the trace changes and the folds start again from it")
    func afterPokes() throws {
        var script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        script.until = .seconds(60)
        var session = Session(script: script, foldInterval: 64)
        _ = session.snapshots(after: session.trace.count)  // every checkpoint of the first trace is made
        for (index, seconds) in [3, 17, 41].enumerated() {
            let run = try #require(
                session.intervene(
                    .init(
                        time: .seconds(seconds), label: "wake \(index)", actions: [.wakeUp],
                        newItem: nil)
                ).run)
            let adopted = session.adopt(run.run())
            #expect(adopted)
            Self.check(session, seed: 10 + UInt64(index), probes: 30)
        }
    }

    @Test("a poke's replay takes the events before it from the last trace: the trace is the scenario run afresh")
    func pokeReusesTheEventsBeforeIt() throws {
        var script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        script.until = .seconds(60)
        var session = Session(script: script, foldInterval: 64)
        for (index, wanted) in [1, 700, 2_345].enumerated() {
            // A wake-up may end the lesson's run sooner: the step is one of the trace's events.
            let step = min(wanted, session.trace.count)
            let time = Duration.nanoseconds(session.trace[step - 1].time.nanoseconds)
            let run = try #require(
                session.intervene(
                    .init(time: time, afterEvent: step, label: "wake \(index)", actions: [.wakeUp], newItem: nil)
                ).run)
            #expect(run.reused != nil && run.reusedCount == step, "the run reuses the events before the poke")
            let adopted = session.adopt(run.run())
            #expect(adopted)
            let afresh = ScenarioRunner.run(
                session.effectiveScenario, horizon: session.horizon, maxEvents: session.maxEvents)
            #expect(session.trace.count == afresh.trace.count)
            #expect(session.trace == afresh.trace, "after a poke at event \(step)")
            Self.check(session, seed: 20 + UInt64(index), probes: 20)
        }
    }

    @Test("checkpoints are saved once each, in order, only as far as saved; reading one saves nothing")
    func checkpointsSavedInOrder() {
        let trace = ScenarioRunner.run(PoolFixture.scenario, horizon: .seconds(5)).trace
        var folds = FoldCheckpoints(interval: 10, initial: 0) { count, _, _ in count += 1 }
        let unsaved = folds
        #expect(folds.state(after: 25, in: trace) == 25 && folds.savedCount == 1 && folds == unsaved)
        folds.saveStates(through: 25, in: trace)
        #expect(folds.savedCount == 3 && folds != unsaved)
        #expect(folds.state(after: 5, in: trace) == 5 && folds.state(after: 25, in: trace) == 25)
        folds.saveStates(through: 5, in: trace)
        #expect(folds.savedCount == 3)
        folds.saveStates(through: trace.count + 100, in: trace)
        #expect(folds.state(after: trace.count + 100, in: trace) == trace.count)
        #expect(folds.savedCount == trace.count / 10 + 1)
    }

    @Test("over the byte budget every other checkpoint goes and the spacing doubles; every state stays exact")
    func checkpointsBoundedInBytes() {
        let trace = ScenarioRunner.run(PoolFixture.scenario, horizon: .seconds(5)).trace
        #expect(trace.count > 150)
        var folds = FoldCheckpoints(interval: 2, byteBudget: 1_000, initial: 0, bytes: { _ in 100 }) {
            count, _, _ in count += 1
        }
        folds.saveStates(through: trace.count, in: trace)
        #expect(folds.state(after: trace.count, in: trace) == trace.count)
        #expect(folds.savedBytes <= 1_000 && folds.savedBytes == folds.savedCount * 100)
        #expect(folds.savedCount >= 5 && folds.savedCount <= 10)
        #expect(folds.spacing >= 16 && (folds.spacing / 2).nonzeroBitCount == 1, "2 doubled at least thrice")
        #expect((folds.savedCount - 1) * folds.spacing <= trace.count)
        var steps = SplitMix64(seed: 3)
        for _ in 0..<40 {
            let step = Int.random(in: 0...trace.count, using: &steps)
            #expect(folds.state(after: step, in: trace) == step, "after \(step)")
        }
    }

    @Test("a thousand timers: the saved loop states stay within the byte budget and equal a fold from event 0")
    func manyTimersWithinByteBudget() throws {
        let text = """
            scenario "many timers"
            thread T
              timer a1..500 at 1ns every 1ms
              timer b1..500 at 1ns every 1ms
              run default for 12ms
            """
        let script = try ScenarioParser.parse(text, file: "timers.loop")
        let session = Session(script: script, foldInterval: 64)
        let budget = 512 << 10
        var folds = Session.Folds(scenario: session.effectiveScenario, interval: 64, byteBudget: budget)
        folds.loops.saveStates(through: session.trace.count, in: session.trace)
        let end = folds.loops.state(after: session.trace.count, in: session.trace)
        #expect(end.estimatedBytes > 1_000 * 2 * EstimatedBytes.entry, "every timer's count and last fire")
        #expect(folds.loops.savedBytes <= budget)
        #expect(folds.loops.spacing >= 64 * 8, "the spacing doubled at least three times")
        let reference = Self.fromZero(session)
        var steps = SplitMix64(seed: 4)
        for _ in 0..<12 {
            let step = Int.random(in: 0...session.trace.count, using: &steps)
            #expect(
                folds.loops.state(after: step, in: session.trace).snapshots
                    == reference.loops.state(after: step, in: session.trace).snapshots, "loops after \(step)")
        }
    }

    @Test("the timeline drawn frame after frame, forwards and back, is the timeline drawn afresh")
    func timelineRowsAreReused() {
        var model = RenderTests.model(width: 132, height: 43, step: 1)
        // One cache from frame to frame, as the runtime keeps it.
        var cache = RenderCache()
        for step in [1, 40, 41, 45, 90, 60, 61, 200, 120, model.trace.count] {
            model.cursor = step
            model.furthest = max(model.furthest, step)
            let drawn = render(model, cache: &cache).lines
            let fresh = RenderTests.model(width: 132, height: 43, step: step)
            #expect(drawn == render(fresh).lines, "step \(step)")
            #expect(cache.timeline.processed == step, "step \(step)")
        }
    }
}
