import LoopEngine
import Testing

@testable import loopviz

@Suite("the UI's event budget")
struct SessionBudgetTests {
    /// A timer every millisecond, without an `until`: the session's horizon decides how far the replay goes.
    static let script = try! ScenarioParser.parse(
        "thread T\n  timer t at 1ms every 1ms\n  run default for 100000s\n", file: "runaway.loop")

    @Test("a replay stops at the budget, does not try to extend past it, and the status bar says so")
    func budgetIsShown() {
        var model = AppModel(session: Session(script: Self.script, maxEvents: 40), fileName: "runaway.loop")
        _ = updateInline(&model, .resize(width: 132, height: 43))
        #expect(model.trace.count == 40)
        #expect(model.session.reachedEventBudget)
        #expect(!model.session.canExtend)
        model.isPaused = true
        for _ in 0..<60 { _ = updateInline(&model, .key(.character("n"))) }
        #expect(model.trace.count == 40)
        #expect(render(model).lines.last?.contains("stopped at the event budget (40 events)") == true)
    }

    @Test("a replay within the budget shows no notice, and still extends its horizon")
    func noNoticeWithinBudget() {
        let session = Session(script: Self.script, horizon: .milliseconds(10), maxEvents: 1_000)
        #expect(!session.reachedEventBudget)
        #expect(session.canExtend)
        var model = AppModel(session: session, fileName: "runaway.loop")
        _ = updateInline(&model, .resize(width: 132, height: 43))
        #expect(render(model).lines.last?.contains("event budget") == false)
    }

    @Test("every command's default budget is the same")
    func sameDefault() {
        #expect(Session(script: Self.script, horizon: .milliseconds(1)).maxEvents == EventBudget.defaultLimit)
        #expect(EventBudget.defaultLimit == 1_000_000)
    }
}
