import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The pool view's keys on a dispatch queue (lesson 44): a plain block cannot be cancelled, and the keys for
/// operation queues say why they do nothing, instead of acting as if the queue were an operation queue.
@Suite("the pool view's keys on a dispatch queue")
struct PoolDispatchPokeTests {
    /// Lesson 44 in the pool view, paused at 100 ms, its dispatch queue `gcd` shown.
    static func model() throws -> AppModel {
        let path = Snapshot.packageRoot.appendingPathComponent("examples/44-gcd-block-cannot-be-cancelled.loop").path
        let script = try ScenarioParser.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        var model = AppModel(session: Session(script: script), fileName: path)
        _ = updateInline(&model, .resize(width: 132, height: 43))
        let time = LoopInstant.zero + .milliseconds(100)
        model.isPaused = true
        model.cursor = model.trace.lastIndex { $0.time <= time }.map { $0 + 1 } ?? 0
        model.furthest = model.cursor
        model.playClock = time
        for _ in 0..<4 where model.shownQueueState?.name != "gcd" { PoolUpdateTests.press(.tab, on: &model) }
        #expect(model.shownQueueState?.name == "gcd")
        return model
    }

    @Test("c on a plain block says dispatch_async gave nothing to cancel it with, and pokes nothing")
    func plainBlock() throws {
        var model = try Self.model()
        #expect(model.view == .pool)
        model.selectedOperation = "first"
        let trace = model.trace
        PoolUpdateTests.press(.character("c"), on: &model)
        #expect(model.session.interventions.isEmpty && model.trace == trace)
        #expect(
            model.flash?.text
                == "first was submitted with async: dispatch_async returns nothing to cancel it with, so it runs "
                + "(a DispatchWorkItem can be cancelled before it starts)")
    }

    @Test("c on a work item cancels it, as DispatchWorkItem.cancel() does")
    func workItem() throws {
        var model = try Self.model()
        model.selectedOperation = "late"
        PoolUpdateTests.press(.character("c"), on: &model)
        #expect(model.session.interventions.map(\.label) == ["cancel late"])
    }

    @Test("a, C, s, > and < say what a dispatch queue lacks, and poke nothing")
    func operationQueueKeys() throws {
        var model = try Self.model()
        let expected: [(Character, String)] = [
            ("a", "gcd is a dispatch queue: `a` adds operations to operation queues only"),
            ("C", "gcd is a dispatch queue: it has no cancelAllOperations"),
            ("s", "gcd is a dispatch queue: suspending one is not modelled"),
            (">", "gcd is a dispatch queue: serial or concurrent, it has no maxConcurrentOperationCount"),
            ("<", "gcd is a dispatch queue: serial or concurrent, it has no maxConcurrentOperationCount"),
        ]
        for (key, flash) in expected {
            PoolUpdateTests.press(.character(key), on: &model)
            #expect(model.flash?.text == flash, "\(key)")
        }
        #expect(model.session.interventions.isEmpty)
    }
}
