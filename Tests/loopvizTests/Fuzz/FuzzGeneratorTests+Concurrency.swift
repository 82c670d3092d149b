import LoopEngine
import Testing

@testable import LoopFuzz

extension FuzzGeneratorTests {
    /// The shapes of issue 31's timer calls and issue 32's concurrency constructs in `scenario`, by where they are.
    static func timerAndTaskShapes(_ scenario: Scenario) -> Set<String> {
        var found: Set<String> = []
        func record(_ actions: [Action], _ place: String) {
            Action.forEach(in: actions) { action in
                switch action {
                case .fire: found.insert("fire in \(place)")
                case .query(.interval), .query(.tolerance), .query(.repeats): found.insert("property in \(place)")
                case .mainActorTask: found.insert("mainactor in \(place)")
                case .await(.yield): found.insert("await yield")
                case .await(.sleep): found.insert("await sleep")
                case .asyncAfter: found.insert("asyncafter in \(place)")
                default: break
                }
            }
        }
        for thread in scenario.threads {
            if thread.isAsyncMain { found.insert("async main") }
            record(thread.program, "program")
            record(thread.items.flatMap { $0.script.map(\.action) }, "callout")
            for item in thread.items {
                if case .timer(_, let interval, _) = item.kind, interval < .zero { found.insert("negative every") }
            }
        }
        record(scenario.outside.flatMap(\.actions), "outside")
        return found
    }

    @Test(
        "the generator makes Timer.fire(), timer property queries and negative intervals, in the program and callouts")
    func generatesTimerCalls() throws {
        var found: Set<String> = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            found.formUnion(Self.timerAndTaskShapes(scenario))
            let parsed = try ScenarioParser.parse(scenario.loopText).scenario
            #expect(parsed == scenario, "\(scenario.loopText)")
        }
        #expect(
            found.isSuperset(of: [
                "fire in program", "fire in callout", "property in program", "property in callout", "negative every",
            ]))
    }

    @Test(
        "the generator makes main-actor tasks with yield and sleep, asyncAfter and an async main, on the main thread only"
    )
    func generatesConcurrency() throws {
        var found: Set<String> = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            let shapes = Self.timerAndTaskShapes(scenario).filter { shape in
                ["mainactor", "await", "asyncafter", "async main"].contains { shape.hasPrefix($0) }
            }
            found.formUnion(shapes)
            // Only the main loop drains the main queue, where the main actor's jobs run.
            if !shapes.isEmpty { #expect(scenario.threads.count == 1 && scenario.threads[0].isMain) }
            let parsed = try ScenarioParser.parse(scenario.loopText).scenario
            #expect(parsed == scenario, "\(scenario.loopText)")
        }
        #expect(
            found == [
                "mainactor in program", "mainactor in callout", "mainactor in outside", "await yield", "await sleep",
                "asyncafter in program", "asyncafter in callout", "async main",
            ])
    }

    @Test("fair cases with the new constructs are found: they parse back, end on the engine and keep their steps")
    func newConstructsMakeFairCases() {
        var summary = FuzzCampaign.Summary()
        var found: Set<String> = []
        for index in 0..<300 {
            guard let scenario = FuzzCampaign.scenario(seed: 1, index: index, maxItems: 5, summary: &summary) else {
                continue
            }
            let shapes = Self.timerAndTaskShapes(scenario)
            if shapes.contains(where: { $0.hasPrefix("fire") }) { found.insert("fire") }
            if shapes.contains(where: { $0.hasPrefix("property") }) { found.insert("property") }
            if shapes.contains(where: { $0.hasPrefix("mainactor") }) { found.insert("mainactor") }
            if shapes.contains(where: { $0.hasPrefix("asyncafter") }) { found.insert("asyncafter") }
            if shapes.contains("async main") { found.insert("async main") }
        }
        #expect(found == ["fire", "property", "mainactor", "asyncafter", "async main"])
        #expect(summary.rejected[.unsupported] == nil && summary.rejected[.unparsable] == nil)
    }
}

extension FuzzPropertyTests {
    @Test("an asyncAfter due when a run's limit ends is a timing edge; the same one well inside the run is fair")
    func asyncAfterEdges() {
        func scenario(delay: Duration) -> Scenario {
            var scenario = Scenario(
                name: "asyncafter", items: [.port("p1")],
                program: [
                    .asyncAfter("L1", delay: delay, []),
                    .run(.inMode(.default, seconds: 0.06, returnAfterSourceHandled: false)),
                ])
            scenario.threads[0].isMain = true
            return scenario
        }
        #expect(FuzzValidator.validate(scenario(delay: .milliseconds(60))) == .failure(.timingEdge))
        let fair = scenario(delay: .milliseconds(20))
        #expect(FuzzValidator.validate(fair) == .success(fair))
    }

    @Test("the shrinker simplifies tasks, sleeps, asyncAfter and fire, and what it keeps prints and parses back")
    func shrinkerHandlesTheNewConstructs() throws {
        var start = Scenario(
            name: "shrink",
            items: [.timer("t1", first: .milliseconds(40), every: .milliseconds(-20), modes: [.default])],
            program: [
                .mainActorTask("A1", [.work(.milliseconds(5)), .await(.sleep(.milliseconds(60))), .await(.yield)]),
                .asyncAfter("L1", delay: .milliseconds(60), [.work(.milliseconds(2))]),
                .fire("t1"),
                .query(.repeats(timer: "t1")),
                .run(.inMode(.default, seconds: 0.1, returnAfterSourceHandled: false)),
            ])
        start.threads[0].isMain = true
        // The property: the task still sleeps and the timer is still fired.
        func holds(_ scenario: Scenario) -> Bool {
            let shapes = FuzzGeneratorTests.timerAndTaskShapes(scenario)
            return shapes.contains("await sleep") && shapes.contains("fire in program")
        }
        let shrinker = FuzzShrinker(maxTests: 300, isValid: { $0 }, fails: holds)
        let (smallest, _) = shrinker.shrink(start)
        let expected = Scenario(
            name: "shrink", items: [.timer("t1", first: .zero, modes: [.default])],
            program: [
                .mainActorTask("A1", [.await(.sleep(.zero))]),
                .fire("t1"),
            ])
        var main = expected
        main.threads[0].isMain = true
        #expect(smallest == main, "\(smallest.loopText)")
        #expect(try ScenarioParser.parse(smallest.loopText).scenario == smallest)
        #expect(try ScenarioParser.parse(start.loopText).scenario == start)
    }
}
