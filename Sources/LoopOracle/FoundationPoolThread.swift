import Foundation
import LoopEngine

/// The Foundation pool oracle's adapter of the `.loop` language (``ScenarioLoop``): one scenario thread's program,
/// on a real thread with no run loop, doing the pool actions to real `OperationQueue`s and `DispatchQueue`s
/// (``FoundationPoolRun``). What an action means is the one interpreter's (`ScenarioLoop+Interpreter.swift` in
/// LoopEngine), so a new pool construct is interpreted once for the engine and both oracles.
///
/// A pool scenario may use only the pool actions, `work`, `note` and `detach`
/// (`FoundationPoolOracle.unsupportedReason` refuses the rest up front): the run-loop requirements do nothing.
final class FoundationPoolThread: ScenarioLoop {
    let pool: FoundationPoolRun
    /// The scenario thread (or detached task) whose program this is: the thread its notes are recorded on.
    let name: String
    /// Never read: a pool scenario has no flags, conditions or owners (refused up front).
    let flags = ScenarioFlags()
    let callCounts = ScriptCallCounts()

    init(run: FoundationPoolRun, name: String) {
        self.pool = run
        self.name = name
    }

    // MARK: - The scenario around the loop

    var isHalted: Bool { pool.isHalted }
    func hasItem(_ name: String) -> Bool { false }
    func thread(named name: String) -> FoundationPoolThread? { nil }
    func hasLoop(named name: String) -> Bool { false }
    func isThisThread(_ name: String) -> Bool { name == self.name }
    func firstThread(where test: (FoundationPoolThread) -> Bool) -> FoundationPoolThread? { nil }

    // MARK: - The interpreter's hooks

    func mayPerform(outside: Bool) -> Bool { !pool.isHalted }
    func didPerform() {}

    func record(_ kind: LoopEvent.Kind, _ name: String?, fact: LoopEvent.Fact?) {
        pool.trace.record(self.name, kind, name, fact: fact)
    }

    /// The engine's explanations are not Foundation's doing: nothing is recorded.
    func diagnose(_ note: LoopEvent.Note) {}

    // MARK: - The loop: a real sleep, the rest refused up front

    func work(_ duration: Duration, outside: Bool) {
        let (deadline, overflow) = OracleClock.now().addingReportingOverflow(max(duration.nanosecondsClamped, 0))
        OracleClock.sleep(until: overflow ? .max : deadline) { !self.pool.isHalted }
    }

    func add(_ name: String, _ mode: ModeName, onThread thread: String?) {}
    func remove(_ name: String, _ mode: ModeName, onThread thread: String?) {}
    func invalidate(_ name: String) {}
    func signal(_ name: String) {}
    func send(_ name: String) {}
    func setNextFireDate(_ name: String, after delay: Duration) {}
    func timerRepeats(_ name: String) -> Bool? { nil }
    func script(of name: String) -> [ScriptStep] { [] }
    func invalidateAfterFire(_ name: String) {}
    func post(_ command: String, to source: String) {}
    func addCommonMode(_ mode: ModeName) {}
    func wakeUp() {}
    func stop() {}
    func stopMode(_ mode: ModeName) {}
    func run(_ call: RunCall) {}
    func runOnce(_ mode: ModeName) -> Bool { false }
    func runs(in mode: ModeName, _ body: () -> Void) {}
    func answer(_ question: LoopQuery, itemsOf holder: FoundationPoolThread) -> QueryAnswer { .none }
    func performBlock(_ name: String, modes: [ModeName], _ inner: [Action]) {}
    func mainQueue(_ name: String, _ inner: [Action]) {}
    func mainActorTask(_ name: String, _ parts: [MainActorTaskPart]) {}
    func asyncMain(_ name: String, _ parts: [MainActorTaskPart]) {}
    func asyncAfter(_ name: String, delay: Duration, _ inner: [Action]) {}
    func performTask(_ task: String, onThread thread: String, wait: Bool, _ inner: [Action]) {}
    func wakeUp(thread: String) {}
    func performOrdered(_ task: String, target: String, order: Int, modes: [ModeName], _ inner: [Action]) {}
    func cancelOrderedPerforms(task: String?, target: String) {}
    func performDelayed(_ task: String, target: String, delay: Duration, modes: [ModeName], _ inner: [Action]) {}
    func cancelDelayedPerforms(task: String?, target: String) {}
    func startThread(_ name: String) {}

    // MARK: - Threads and queues

    func detach(_ task: String, _ inner: [Action]) {
        pool.detach(task, inner)
    }

    func addOperation(_ spec: OperationSpec, to queue: String) {
        pool.addOperation(spec, to: queue, from: name)
    }

    func cancelOperation(_ name: String) {
        pool.cancel(name)
    }

    func cancelAll(_ queue: String) {
        pool.cancelAll(queue)
    }

    func setSuspended(_ queue: String, _ flag: Bool) {
        pool.setSuspended(queue, flag)
    }

    func setLimit(_ queue: String, _ limit: Int?) {
        pool.setLimit(queue, limit)
    }

    func finishOperation(_ name: String) {
        pool.finish(name)
    }

    func waitUntilAllFinished(_ queue: String) {
        pool.waitUntilAllFinished(queue)
    }
}
