import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The UI's races: the events whose place depends on a schedule choice are marked (log, Why, screen reader), and
/// `X` lists the other outcomes and opens one (docs/races.md).
@Suite("the UI shows where a race could go another way")
struct RaceUITests {
    static func model(width: Int = 80, height: Int = 24, unicode: Bool = true) -> AppModel {
        let script = try! ScenarioParser.parse(ExploreCommandTests.race, file: "race.loop")
        var model = AppModel(session: Session(script: script), fileName: "race.loop")
        model.theme.unicode = unicode
        model.isPaused = true
        _ = updateInline(&model, .resize(width: width, height: height))
        return model
    }

    /// The step (1-based) of the first event marked by a branch point.
    static func firstMarkedStep(_ model: AppModel) -> Int {
        (model.session.branchMarks.marked(in: 0..<model.trace.count).first ?? -1) + 1
    }

    static func go(to step: Int, _ model: inout AppModel) {
        BookmarkTests.go(to: step, &model)
    }

    @Test("the branch points of the run are typed marks on the events that follow them")
    func marksAreTyped() {
        let model = Self.model()
        let expected = ScenarioRunner.run(
            model.session.effectiveScenario, horizon: model.session.horizon, maxEvents: model.session.maxEvents)
        #expect(model.session.branchMarks.points == expected.branchPoints)
        #expect(!expected.branchPoints.isEmpty)
        let marked = model.session.branchMarks.marked(in: 0..<model.trace.count)
        #expect(marked == Array(Set(expected.branchPoints.map(\.eventCount))).sorted())
        for index in marked {
            #expect(model.session.branchMarks.points(at: index).allSatisfy { $0.eventCount == index })
        }
    }

    @Test("the log marks the step with a fork (Y in ASCII) and the Why says the choice and its alternative")
    func logAndWhy() {
        for unicode in [true, false] {
            var model = Self.model(unicode: unicode)
            Self.go(to: Self.firstMarkedStep(model), &model)
            Snapshot.assertMatches(
                RenderTests.text(model), "Screens/races-80x24-mark-\(unicode ? "unicode" : "ascii").screen",
                target: "loopvizTests")
        }
    }

    @Test("screen reader: the step says its place depends on a schedule choice, and the Why says which")
    func screenReaderWords() {
        var model = Self.model()
        let step = Self.firstMarkedStep(model)
        Self.go(to: step, &model)
        let lines = ScreenReader.step(model)
        #expect(lines.first?.hasSuffix(". Its place depends on a schedule choice.") == true)
        #expect(
            lines.last?.hasPrefix(
                "Why: A schedule choice placed this step (at 0.000, branch point 0: thread main went first; thread T2 "
                    + "could have gone first instead); X lists the other outcomes. ") == true)
        Self.go(to: step + 1, &model)
        #expect(ScreenReader.step(model).allSatisfy { !$0.contains("schedule choice") })
    }

    @Test("X lists the outcomes the explorer reports; Enter opens one: its schedule is replayed and named")
    func openOutcome() {
        var model = Self.model()
        let found = ScheduleExplorer.explore(
            model.session.effectiveScenario,
            bounds: ScheduleExplorer.Bounds(
                maxSchedules: 200, timeLimit: .seconds(60), horizon: model.session.horizon,
                maxEvents: model.session.maxEvents))
        _ = UpdateTests.press(.character("X"), on: &model)
        guard case .outcomes(let list) = model.overlay else {
            Issue.record("X did not open the outcome list")
            return
        }
        #expect(list.entries.map(\.schedule) == found.outcomes.map(\.schedule))
        #expect(list.entries.map(\.schedules) == found.outcomes.map(\.schedules))
        #expect(list.stop == nil && list.schedulesRun == found.schedulesRun)
        Snapshot.assertMatches(RenderTests.text(model), "Screens/races-80x24-outcomes.screen", target: "loopvizTests")

        _ = UpdateTests.press(.down, .enter, on: &model)
        let other = found.outcomes[1].schedule
        #expect(model.overlay == .none)
        #expect(model.session.schedule == other)
        var scenario = model.session.script.scenario
        scenario.schedule = other
        let replayed = ScenarioRunner.run(scenario, horizon: model.session.horizon, maxEvents: model.session.maxEvents)
        #expect(Array(model.trace) == Array(replayed.trace))
        #expect(
            model.flash
                == StatusMessage(
                    "schedule \(other.id); headless: loopviz run --schedule \(other.id) race.loop",
                    detail: "outcome 2"))
        Snapshot.assertMatches(RenderTests.text(model), "Screens/races-80x24-opened.screen", target: "loopvizTests")
        // Once the message is gone, the status bar still names the schedule shown.
        _ = UpdateTests.press(.character("n"), on: &model)
        #expect(RenderTests.text(model).split(separator: "\n").last?.contains(" schedule \(other.id)  ") == true)
    }

    @Test("screen reader: X says every outcome with its count, its divergence and its first choice apart")
    func screenReaderList() {
        let before = Self.model()
        var model = before
        _ = UpdateTests.press(.character("X"), on: &model)
        #expect(
            ScreenReader.announce(.character("X"), before: before, after: model) == [
                "key X.",
                "2 outcomes, 3 schedules run, every schedule; Enter opens one.",
                "1. 2 schedules, schedule default: the default schedule's outcome.",
                "2. 1 schedule, schedule 0:1: first step apart: thread T2, step 4: the default has source0 "
                    + "performSelector, this one beforeWaiting.",
                "  first choice apart: at 0.000, branch point 0: thread T2 went first (the default: thread main).",
            ])
    }

    @Test("Esc closes the outcome list and the schedule stays the default")
    func closes() {
        var model = Self.model()
        _ = UpdateTests.press(.character("X"), .escape, on: &model)
        #expect(model.overlay == .none)
        #expect(model.session.schedule == .default)
    }
}
