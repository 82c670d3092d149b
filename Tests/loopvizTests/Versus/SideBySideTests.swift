import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// `V`: the run shown beside a second run, step by step, the first difference marked and reachable: without the
/// user's pokes, or under the default schedule beside another opened from `X`; nothing else to compare says so
/// (docs/races.md).
@Suite("V puts the run beside the run without your pokes, or beside the default schedule")
struct SideBySideTests {
    /// The built-in lesson paused at step 41, `work` signalled there (`3s`).
    static func poked(width: Int = 132, height: Int = 43) -> AppModel {
        var model = PokeTests.lesson(at: 41)
        PokeTests.type("3s", &model)
        _ = updateInline(&model, .resize(width: width, height: height))
        return model
    }

    /// The race lesson with its second outcome (schedule 0:1) opened from `X`, at step `step`.
    static func otherSchedule(width: Int = 80, height: Int = 24, step: Int = 3) -> AppModel {
        var model = RaceUITests.model(width: width, height: height)
        _ = UpdateTests.press(.character("X"), .down, .enter, on: &model)
        RaceUITests.go(to: step, &model)
        return model
    }

    static func comparison(_ model: AppModel) -> RunComparison? {
        if case .versus(let comparison) = model.overlay { return comparison }
        return nil
    }

    @Test("after a poke, V shows the run beside the same scenario without it, from its first difference on")
    func pokedRunBesideTheOriginal() throws {
        var model = Self.poked()
        #expect(model.session.interventions.count == 1)
        _ = UpdateTests.press(.character("V"), on: &model)
        let comparison = try #require(Self.comparison(model))
        let original = ScenarioRunner.run(
            model.session.script.scenario, horizon: model.session.horizon, maxEvents: model.session.maxEvents)
        #expect(comparison.other == .withoutPokes(1))
        #expect(Array(comparison.second) == Array(original.trace))
        #expect(Array(comparison.shown) == Array(model.trace))
        // The rule of `loopviz diff`: the signal is the first step the original does not take.
        #expect(
            comparison.firstDifference
                == TraceDiff(left: Array(model.trace), right: Array(original.trace)).firstDifference)
        #expect(comparison.firstDifference == 41)
        #expect(comparison.row == 40)
        #expect(
            model.flash
                == StatusMessage(
                    "first difference at step 42: d goes to it",
                    detail: "no headless form: a poke is tied to a step, which a .loop file cannot say"))
        #expect(
            comparison.rowWords(41) == "step 42 of \(comparison.steps), the first difference: with your 1 poke, "
                + "signal work on worker at 1.340003; without it, beforeWaiting on worker at 1.340003")
        // d goes to the difference; Esc closes there, and the loop view shows that step.
        _ = UpdateTests.press(.character("d"), on: &model)
        #expect(Self.comparison(model)?.row == 41)
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.overlay == .none)
        #expect(model.cursor == 42)
    }

    @Test("with another schedule opened from X, V shows it beside the default one, and the diff command that agrees")
    func scheduleBesideTheDefault() throws {
        var model = Self.otherSchedule()
        let other = model.session.schedule
        #expect(other != .default)
        _ = UpdateTests.press(.character("V"), on: &model)
        let comparison = try #require(Self.comparison(model))
        var scenario = model.session.script.scenario
        scenario.schedule = .default
        let byDefault = ScenarioRunner.run(scenario, horizon: model.session.horizon, maxEvents: model.session.maxEvents)
        #expect(comparison.other == .defaultSchedule(shown: other))
        #expect(Array(comparison.second) == Array(byDefault.trace))
        let difference = TraceDiff(left: Array(model.trace), right: Array(byDefault.trace)).firstDifference
        #expect(comparison.firstDifference == difference)
        let step = try #require(difference) + 1
        #expect(
            model.flash
                == StatusMessage(
                    "headless: loopviz diff --schedule \(other.id) race.loop --until 20s",
                    detail: "first difference at step \(step): d goes to it"))
        // `V` again closes it at the step it was on.
        _ = UpdateTests.press(.character("n"), .character("V"), on: &model)
        #expect(model.overlay == .none)
        #expect(model.cursor == 4)
    }

    @Test("the headless command V offers prints the same first difference")
    func headlessAgrees() throws {
        var model = Self.otherSchedule()
        _ = UpdateTests.press(.character("V"), on: &model)
        let comparison = try #require(Self.comparison(model))
        let difference = try #require(comparison.firstDifference)
        let result = try LoopvizProcess.run(
            ["diff", "--schedule", model.session.schedule.id, "race.loop", "--until", "20s"],
            files: ["race.loop": ExploreCommandTests.race])
        #expect(result.status == 1)
        let marked = result.stdout.split(separator: "\n").filter { $0.hasPrefix(">>") }
        // diff numbers its rows from 0, the UI its steps from 1.
        #expect(marked.map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] } == ["\(difference)"])
    }

    @Test("with no poke and the default schedule, V says there is nothing to compare and how to make something")
    func nothingToCompare() {
        var model = UpdateTests.model()
        _ = UpdateTests.press(.character(" "), .character("V"), on: &model)
        #expect(model.overlay == .none)
        #expect(
            model.flash
                == StatusMessage(
                    "nothing to compare: poke the run, or open another outcome with X, then V",
                    detail: "V shows this run beside the same one without your pokes, or beside the default schedule"))
    }

    @Test("on real threads and on a recorded trace, V says why it has nothing to compare")
    func liveAndReplay() throws {
        let script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        var live = AppModel(session: Session(liveScript: script), fileName: DefaultLesson.fileName)
        _ = updateInline(&live, .resize(width: 80, height: 24))
        live.overlay = .none
        _ = UpdateTests.press(.character("V"), on: &live)
        #expect(
            live.flash
                == StatusMessage("real threads: nothing to compare", detail: "V compares runs on the virtual clock"))
        let text = JSONLTraceFormatter.format(Array(UpdateTests.model().trace.prefix(20)), scenario: "run")
        var replay = AppModel(
            session: Session(replay: try JSONLTraceReader.read(Array(text.utf8), maximumEvents: 100)),
            fileName: "run.jsonl")
        _ = updateInline(&replay, .resize(width: 80, height: 24))
        _ = UpdateTests.press(.character("V"), on: &replay)
        #expect(
            replay.flash
                == StatusMessage(
                    "a recorded trace: nothing to compare",
                    detail: "V runs the scenario again, which a trace file does not hold"))
    }

    @Test("when the event budget stops a run, the side by side and the screen reader say so")
    func budget() throws {
        let script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        var model = AppModel(session: Session(script: script, maxEvents: 60), fileName: DefaultLesson.fileName)
        _ = updateInline(&model, .resize(width: 80, height: 24))
        _ = UpdateTests.press(.character(" "), on: &model)
        BookmarkTests.go(to: 41, &model)
        PokeTests.type("3s", &model)
        let before = model
        _ = UpdateTests.press(.character("V"), on: &model)
        let comparison = try #require(Self.comparison(model))
        #expect(comparison.reachedEventLimit)
        #expect(comparison.shown.count == 60 && comparison.second.count == 60)
        #expect(
            ScreenReader.announce(.character("V"), before: before, after: model).contains(
                "The event budget stopped a run: later steps were not compared."))
        #expect(
            RenderTests.text(model).split(separator: "\n")[21]
                == "│ the event budget stopped a run: later steps were not compared                │")
    }

    @Test(
        "V asks the runtime for the second run, without the steps before the poke; an answer for an older trace is not shown"
    )
    func runIsAnEffect() throws {
        var model = Self.poked()
        let effects = update(&model, .key(.character("V")))
        guard effects.count == 1, case .compareRuns(let request) = effects[0] else {
            Issue.record("V asked for \(effects)")
            return
        }
        #expect(model.overlay == .none)
        #expect(request.other == .withoutPokes(1) && request.agreeing == 41 && request.row == 40)
        #expect(request.run.scenario.outside == model.session.script.scenario.outside)
        #expect(request.run.reused == model.trace && request.run.reusedCount == 41)
        let answer = request.compare()
        // Another poke replaces the trace: the answer is for the run before it.
        var poked = model
        _ = UpdateTests.press(.character("w"), on: &poked)
        #expect(update(&poked, .comparisonRan(answer)) == [])
        #expect(poked.overlay == .none)
        #expect(update(&model, .comparisonRan(answer)) == [])
        #expect(model.overlay == .versus(answer))
    }

    @Test("the terminal runtime answers V and draws the side by side")
    func terminalRuntime() {
        let presenter = TextPresenter([.typed("V"), .typed("q")])
        let model = Self.poked(width: 80, height: 24)
        _ = TerminalApp.play(model, on: presenter, engine: InlineEngine(), recorder: nil, clock: { 0 })
        var expected = model
        _ = UpdateTests.press(.character("V"), on: &expected)
        #expect(presenter.screen == render(expected).lines)
    }

    @Test("two runs without a step say so in the box")
    func noSteps() {
        var model = UpdateTests.model()
        model.overlay = .versus(
            RunComparison(
                other: .withoutPokes(1), shown: [], second: [], firstDifference: nil, reachedEventLimit: false, row: 0,
                traceIdentity: model.session.traceIdentity))
        let lines = RenderTests.text(model).split(separator: "\n")
        #expect(lines[2] == "│ Side by side: the same steps in both runs (n p move, Esc)                    │")
        #expect(lines[4] == "│ no steps in either run                                                       │")
    }

    @Test("d with two runs that agree says there is no difference to go to")
    func noDifference() throws {
        var model = Self.poked()
        _ = UpdateTests.press(.character("V"), on: &model)
        var comparison = try #require(Self.comparison(model))
        comparison.second = comparison.shown
        comparison.firstDifference = nil
        model.overlay = .versus(comparison)
        _ = UpdateTests.press(.character("d"), on: &model)
        #expect(model.flash == StatusMessage("the two runs take the same steps: no difference to go to"))
        #expect(comparison.differenceWords == "the same steps in both runs")
    }

    @Test("the side by side at 80×24 and 132×43: two columns, >> on the first difference, the step in words")
    func screens() {
        for (width, height) in [(80, 24), (132, 43)] {
            var model = Self.poked(width: width, height: height)
            _ = UpdateTests.press(.character("V"), .character("d"), on: &model)
            Snapshot.assertMatches(
                RenderTests.text(model), "Screens/versus-\(width)x\(height)-poked.screen", target: "loopvizTests")
        }
        for (width, height) in [(80, 24), (132, 43)] {
            var model = Self.otherSchedule(width: width, height: height)
            _ = UpdateTests.press(.character("V"), on: &model)
            Snapshot.assertMatches(
                RenderTests.text(model), "Screens/versus-\(width)x\(height)-schedule.screen", target: "loopvizTests")
        }
    }

    @Test("screen reader: V says what is compared and the first difference in words, each key the step of both")
    func screenReader() {
        var model = Self.poked()
        let before = model
        _ = UpdateTests.press(.character("V"), on: &model)
        let comparison = Self.comparison(model)
        let steps = comparison?.steps ?? 0
        #expect(
            ScreenReader.announce(.character("V"), before: before, after: model) == [
                "key V.",
                "first difference at step 42: d goes to it (no headless form: a poke is tied to a step, which a .loop "
                    + "file cannot say).",
                "Side by side, synchronised by step: this run with your 1 poke beside the same scenario without it.",
                "The first difference is at step 42: with your 1 poke, signal work on worker at 1.340003; "
                    + "without it, beforeWaiting on worker at 1.340003.",
                "n and p move both runs a step, d goes to the first difference, Escape closes.",
                "step 41 of \(steps), the same in both runs: observer activity on worker at 1.340003.",
            ])
        let opened = model
        _ = UpdateTests.press(.character("n"), on: &model)
        #expect(
            ScreenReader.announce(.character("n"), before: opened, after: model) == [
                "key n.",
                "step 42 of \(steps), the first difference: with your 1 poke, signal work on worker at 1.340003; "
                    + "without it, beforeWaiting on worker at 1.340003.",
            ])
    }

    @Test("V is a key of the loop view, in the help")
    func inTheHelp() {
        #expect(KeyMap.command(for: .character("V"), in: .loop) == .compareRuns)
        #expect(
            helpLines(.loop, Glyphs(theme: .init())).map(\.0).contains(
                "  V       side by side: vs without your pokes / default schedule"))
    }
}
