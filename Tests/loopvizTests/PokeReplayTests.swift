import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// A poke's new trace is computed from the last one (its events before the poke are reused, and a poke past the end
/// of a trace the event budget stopped is answered without a run): whatever the lesson, the step and the kind of
/// poke, the session then holds what a session running the scenario and the same pokes afresh holds.
@Suite("a poke's replay is the scenario run afresh with the same pokes")
struct PokeReplayTests {
    /// Lessons with threads, nested runs, timers, ports, observers, a pool: each with the poke keys it takes.
    static let lessons: [(file: String, keys: String)] = [
        ("07-source0-needs-a-wakeup.loop", "wxba"),
        ("11-observer-order-hang-monitor.loop", "wbNa"),
        ("14-timer-and-tracking-mode.loop", "mwxA"),
        ("16-modal-nested-run.loop", "xNbO"),
        ("18-upload-pool.loop", "a"),
        ("08-port-wakes-the-loop.loop", "wxb"),
        ("13-blocks-and-mode-tags.loop", "wbx"),
        ("39-a-port-conversation.loop", "wba"),
        ("47-mainactor-task-starved-by-a-private-mode.loop", "mwx"),
    ]

    static func script(_ file: String) throws -> LoopScript {
        let path = Snapshot.packageRoot.appendingPathComponent("examples/\(file)").path
        return try ScenarioParser.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    /// The lesson's session shown in the UI, paused, with the budget given.
    static func model(_ script: LoopScript, file: String, maxEvents: Int) -> AppModel {
        var model = AppModel(session: Session(script: script, maxEvents: maxEvents), fileName: file)
        _ = updateInline(&model, .resize(width: 132, height: 43))
        _ = updateInline(&model, .key(.character(" ")))
        return model
    }

    /// Goes to `step` with `g` and presses `key` there.
    static func poke(_ key: Character, at step: Int, _ model: inout AppModel) {
        for key in [Key.character("g")] + String(step).map({ Key.character($0) }) + [.enter] {
            _ = updateInline(&model, .key(key))
        }
        _ = updateInline(&model, .key(.character(key)))
    }

    /// The session run afresh with `session`'s pokes: no event reused, no answer known beforehand.
    static func afresh(_ session: Session, _ script: LoopScript) -> Session {
        var fresh = Session(script: script, maxEvents: session.maxEvents)
        fresh.interventions = session.interventions
        fresh.recompute()
        return fresh
    }

    /// Everything the session found in its run is the fresh run's: the events, why it stopped, the threads left
    /// waiting, the schedule's branch points, the hangs, where the lines of narration fall, and the folded states.
    static func expectSame(_ session: Session, _ fresh: Session, _ what: String) {
        #expect(session.trace.count == fresh.trace.count, "\(what): event count")
        #expect(session.trace == fresh.trace, "\(what): events")
        #expect(session.haltReason == fresh.haltReason, "\(what): halt reason")
        #expect(session.reachedEventBudget == fresh.reachedEventBudget, "\(what): event budget reached")
        #expect(session.stuckWaits == fresh.stuckWaits, "\(what): stuck waits")
        #expect(session.branchMarks == fresh.branchMarks, "\(what): branch marks")
        #expect(session.hangs == fresh.hangs, "\(what): hangs")
        #expect(session.narrationAnchors == fresh.narrationAnchors, "\(what): narration")
        #expect(session.questionAnchors == fresh.questionAnchors, "\(what): questions")
        let count = session.trace.count
        for step in Set([0, 1, count / 3, count / 2, count - 1, count].filter { $0 >= 0 && $0 <= count }) {
            #expect(session.snapshots(after: step) == fresh.snapshots(after: step), "\(what): loops after \(step)")
            #expect(
                session.poolSnapshot(after: step) == fresh.poolSnapshot(after: step), "\(what): pool after \(step)")
        }
    }

    @Test(
        "pokes at the first step, a third, two thirds and the last step, one after another, as run afresh",
        arguments: lessons.map(\.file))
    func pokesAtSeveralSteps(_ file: String) throws {
        let script = try Self.script(file)
        let keys = try #require(Self.lessons.first { $0.file == file }).keys
        for (index, key) in keys.enumerated() {
            var model = Self.model(script, file: file, maxEvents: EventBudget.defaultLimit)
            let count = model.trace.count
            try #require(count > 3, "\(file) has events to poke")
            // Later pokes after earlier ones: each replay reuses a trace that was itself replayed.
            for (round, step) in [1, count / 3, 2 * count / 3, count].enumerated() {
                let step = max(1, min(step, model.trace.count))
                let before = model.session.interventions.count
                Self.poke(key, at: step, &model)
                #expect(
                    model.session.interventions.count == before + 1 && !model.isComputing,
                    "\(file): \(key) at step \(step) is a poke")
                Self.expectSame(
                    model.session, Self.afresh(model.session, script), "\(file): \(key) #\(index) round \(round)")
            }
        }
    }

    @Test(
        "a poke at the last step of a trace the event budget stopped needs no run, and is the run afresh",
        arguments: lessons.map(\.file))
    func pokeAtTheBudget(_ file: String) throws {
        let script = try Self.script(file)
        let keys = try #require(Self.lessons.first { $0.file == file }).keys
        let natural = Self.model(script, file: file, maxEvents: EventBudget.defaultLimit).trace.count
        // Budgets that stop the run early, late, and right where it would have ended on its own.
        for budget in Set([2, natural / 2, natural - 1].filter { $0 >= 2 }) {
            for key in keys {
                var model = Self.model(script, file: file, maxEvents: budget)
                try #require(model.session.reachedEventBudget && model.trace.count == budget)
                // Known without a run: the request carries its answer.
                var session = model.session
                let request = try #require(
                    session.intervene(
                        .init(time: .zero, afterEvent: budget, thread: nil, label: "wake", actions: [.wakeUp])
                    )
                    .run)
                #expect(request.answer != nil, "\(file), budget \(budget): no run for a poke at the last event")
                Self.poke(key, at: budget, &model)
                #expect(model.session.interventions.count == 1, "\(file): \(key) at the budget is a poke")
                Self.expectSame(model.session, Self.afresh(model.session, script), "\(file): \(key), budget \(budget)")
                // A poke before the last event runs the engine again.
                let earlier = try #require(
                    model.session.intervene(
                        .init(time: .zero, afterEvent: budget - 1, thread: nil, label: "wake", actions: [.wakeUp])
                    ).run)
                #expect(earlier.answer == nil, "\(file), budget \(budget): a poke before the end runs")
            }
        }
    }
}
