import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The aggregate views: `H` in the UI, `loopviz stats` on the command line, on lesson 14 (two timers, one of them
/// stopped by the Tracking mode).
@Suite("aggregate views")
struct StatsViewTests {
    static let lesson = "14-timer-and-tracking-mode.loop"

    static func model(width: Int = 80, height: Int = 24) -> AppModel {
        var model = LessonCardUITests.model(LessonCardUITests.lesson(lesson), width: width, height: height)
        model.overlay = .none
        return model
    }

    @Test("H opens the totals on the trace computed; Tab switches tables; Esc closes; G is still the quiz key")
    func opens() {
        var model = Self.model()
        _ = UpdateTests.press(.character("H"), on: &model)
        guard case .stats(let overlay) = model.overlay else {
            Issue.record("H did not open the totals: \(model.overlay)")
            return
        }
        #expect(overlay.stats == TraceStats.of(model.trace))
        #expect(
            overlay.stats.items.map { "\($0.name ?? "-") \($0.calls) \($0.modes)" } == [
                "plain 4 [\"default\"]", "fixed 4 [\"default\", \"Tracking\"]",
            ])
        _ = UpdateTests.press(.tab, on: &model)
        if case .stats(let shown) = model.overlay { #expect(shown.table == .activities) }
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.overlay == .none)
        #expect(KeyMap.command(for: .character("G")) == .toggleQuiz)
    }

    @Test("Enter on an item filters the log to its callouts and goes to the first; * goes to the next")
    func jumpsToItem() {
        var model = Self.model()
        _ = UpdateTests.press(.character("H"), .down, .enter, on: &model)
        #expect(model.overlay == .none)
        #expect(model.filter?.typed == "thread:T kind:timer item:fixed")
        let first = model.trace.firstIndex { $0.kind == .timer && $0.name == "fixed" }.map { $0 + 1 }
        #expect(model.cursor == first)
        _ = UpdateTests.press(.character("*"), on: &model)
        let second = model.trace.indices.filter { model.trace[$0].kind == .timer && model.trace[$0].name == "fixed" }
        #expect(model.cursor == second[1] + 1)
    }

    @Test("the totals at 80×24 and 132×43, per item and per iteration", arguments: [(80, 24), (132, 43)])
    func screens(_ size: (Int, Int)) {
        var model = Self.model(width: size.0, height: size.1)
        _ = UpdateTests.press(.character("H"), on: &model)
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/stats-items-\(size.0)x\(size.1).screen", target: "loopvizTests")
        _ = UpdateTests.press(.tab, .tab, .down, on: &model)
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/stats-iterations-\(size.0)x\(size.1).screen", target: "loopvizTests")
    }

    @Test("loopviz stats prints the same tables for a lesson; a missing file is a usage error")
    func command() throws {
        let result = try LoopvizProcess.run(
            ["stats", "14.loop"], files: ["14.loop": LessonCardUITests.lesson(Self.lesson)])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                """
                14.loop: 93 events

                per item
                thread    kind       item                 calls      total    longest  modes
                T         timer      plain                    4     6.0 µs     1.5 µs  default
                T         timer      fixed                    4     6.0 µs     1.5 µs  default,Tracking
                """))
        #expect(result.stdout.contains("iteration lengths: 14 iterations, the longest 200.0 ms\n"))
        let missing = try LoopvizProcess.run(["stats"])
        #expect(missing.status == 2)
    }
}
