import LoopEngine
import Testing

@testable import LoopFuzz

@Suite("The differential fuzzer's generator, printer and shrinker")
struct FuzzGeneratorTests {
    @Test("every generated scenario prints as .loop text that parses back to the same scenario")
    func roundTrip() throws {
        var failures: [String] = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "fuzz seed 7 case \(index)")
            do {
                let parsed = try ScenarioParser.parse(scenario.loopText).scenario
                if parsed != scenario { failures.append("case \(index) parses differently:\n\(scenario.loopText)") }
            } catch {
                failures.append("case \(index) does not parse:\n\(scenario.loopText)\n\(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 500:\n\(failures.prefix(1).joined(separator: "\n\n"))")
    }

    @Test("the scenarios of seeds 1 to 8 print as .loop text that parses back to the same scenario")
    func roundTripOverSeeds() throws {
        var failures: [String] = []
        for seed in UInt64(1)...8 {
            for index in 0..<100 {
                var generator = FuzzGenerator(seed: SplitMix64.caseSeed(seed, index), maxItems: 8)
                let scenario = generator.scenario(name: "fuzz seed \(seed) case \(index)")
                let parsed = try? ScenarioParser.parse(scenario.loopText).scenario
                if parsed != scenario { failures.append("seed \(seed) case \(index):\n\(scenario.loopText)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 800:\n\(failures.prefix(1).joined(separator: "\n\n"))")
    }

    @Test("the generator makes queries, owners, their while loops, deallocs and ifs, in callouts and from outside")
    func generatesQueriesAndOwners() {
        var found: Set<String> = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            if !scenario.owners.isEmpty { found.insert("owner") }
            for event in scenario.outside {
                for action in event.actions {
                    if case .query = action { found.insert("outside query") }
                    if case .dealloc = action { found.insert("dealloc") }
                }
            }
            for item in scenario.threads[0].items {
                for step in item.script {
                    if case .query = step.action { found.insert("callout query") }
                    if case .ifHolds = step.action { found.insert("if") }
                    if case .assign(.property, _) = step.action { found.insert("property") }
                }
            }
            for action in scenario.threads[0].program {
                if case .query = action { found.insert("program query") }
                if case .run(.whileHolds) = action { found.insert("while COND") }
            }
        }
        #expect(
            found == [
                "owner", "outside query", "dealloc", "callout query", "if", "property", "program query", "while COND",
            ])
    }
}

extension FuzzGeneratorTests {
    /// The names of the newer words a scenario uses, wherever they are.
    static func newerWords(_ scenario: Scenario) -> Set<String> {
        var found: Set<String> = []
        if scenario.threads.count > 1 { found.insert("second thread") }
        if scenario.threads.contains(where: \.startsLater) { found.insert("thread later") }
        var actions: [Action] = []
        for thread in scenario.threads {
            actions += thread.program
            for item in thread.items {
                actions += item.script.map(\.action)
                if !item.sourceCallouts.schedule.isEmpty { found.insert("on schedule") }
                if !item.sourceCallouts.cancel.isEmpty { found.insert("on cancel") }
                if item.sourceCallouts.commandCapacity != SourceCallouts.defaultCommandCapacity {
                    found.insert("commands N")
                }
                actions += (item.sourceCallouts.schedule + item.sourceCallouts.cancel).map(\.action)
            }
        }
        actions += scenario.outside.flatMap(\.actions)
        Action.forEach(in: actions) { action in
            switch action {
            case .performOrdered: found.insert("perform order")
            case .cancelPerforms(.some, _): found.insert("cancelPerform")
            case .cancelPerforms(nil, _): found.insert("cancelPerforms")
            case .post: found.insert("post")
            case .wakeUpThread: found.insert("wakeup on")
            case .sendTo: found.insert("send on")
            case .start: found.insert("start")
            case .performOn(_, _, let wait, _): found.insert(wait ? "perform on wait" : "perform on")
            default: break
            }
        }
        return found
    }

    @Test("the generator makes ordered performs, source callouts and commands, and a second thread T hands work to")
    func generatesTheNewerWords() {
        var found: Set<String> = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            found.formUnion(Self.newerWords(generator.scenario(name: "case \(index)")))
        }
        #expect(
            found == [
                "second thread", "thread later", "on schedule", "on cancel", "commands N", "perform order",
                "cancelPerform", "cancelPerforms", "post", "wakeup on", "send on", "start", "perform on",
                "perform on wait",
            ])
    }

    @Test("a scenario with every newer word prints as text that parses back to the same scenario")
    func newerWordsRoundTrip() throws {
        var source = ItemSpec.source0("s1", order: 1, [ScriptStep(.work(.milliseconds(1)))])
        source.sourceCallouts = SourceCallouts(
            schedule: [ScriptStep(.post(command: "c1", source: "s1")), ScriptStep(.signal("s1"), when: .call(2))],
            cancel: [ScriptStep(.wakeUp)], commandCapacity: 2)
        var worker = ItemSpec.source0("u1")
        worker.sourceCallouts = SourceCallouts(cancel: [ScriptStep(.work(.milliseconds(1)), when: .call(1))])
        let timer = ItemSpec.timer(
            "t1", first: .milliseconds(40),
            modes: [.default],
            [
                ScriptStep(.sendTo(thread: "U", port: "q1", count: 2)),
                ScriptStep(
                    .performOn(thread: "U", task: "u1task", wait: true, [.work(.milliseconds(2))]), when: .call(1)),
                ScriptStep(.performOn(thread: "U", task: "u2task", wait: false, [.post(command: "c2", source: "u1")])),
                ScriptStep(.wakeUpThread("U")),
            ])
        let program: [Action] = [
            .start(thread: "U"),
            .performOrdered(task: "f1", target: "str", order: 3, modes: [.default, "M1"], [.signal("s1")]),
            .performOrdered(task: "f2", target: "self", order: 0, modes: [.default], []),
            .cancelPerforms(task: "f2", target: "self"),
            .cancelPerforms(task: nil, target: "str"),
            .run(.inMode(.default, seconds: 0.1, returnAfterSourceHandled: false)),
        ]
        let scenario = Scenario(
            name: "newer words",
            threads: [
                ThreadSpec(name: "T", items: [source, timer], program: program),
                ThreadSpec(
                    name: "U", items: [.port("q1"), worker],
                    program: [.run(.inMode(.default, seconds: 0.08, returnAfterSourceHandled: false))],
                    startsLater: true),
            ])
        #expect(Self.newerWords(scenario).count == 14)
        let parsed = try ScenarioParser.parse(scenario.loopText).scenario
        #expect(parsed == scenario, "\(scenario.loopText)")
    }
}

@Suite("The differential fuzzer: seeds, the validator, the shrinker")
struct FuzzPropertyTests {
    @Test("SplitMix64 gives the published sequence for seed 0")
    func splitMixReference() {
        var generator = SplitMix64(seed: 0)
        #expect(
            [generator.next(), generator.next(), generator.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
    }

    @Test("the same seed makes the same cases, and another seed other cases")
    func sameSeedSameCases() {
        func cases(_ seed: UInt64) -> [Scenario?] {
            var summary = FuzzCampaign.Summary()
            return (0..<40).map { FuzzCampaign.scenario(seed: seed, index: $0, maxItems: 5, summary: &summary) }
        }
        let first = cases(11)
        #expect(first.allSatisfy { $0 != nil })
        #expect(cases(11) == first)
        #expect(cases(12) != first)
    }

    @Test("a timer due when a run's limit ends is a timing edge; the same timer well inside the run is fair")
    func timingEdges() throws {
        let edge = Scenario(
            name: "edge", items: [.timer("t", first: .milliseconds(20))],
            program: [.run(.inMode(.default, seconds: 0.02, returnAfterSourceHandled: false))])
        #expect(FuzzValidator.validate(edge) == .failure(.timingEdge))
        var fair = edge
        fair.threads[0].program = [.run(.inMode(.default, seconds: 0.06, returnAfterSourceHandled: false))]
        #expect(FuzzValidator.validate(fair) == .success(fair))
    }

    @Test("a hand-over to U as U's run ends is a timing edge; the same hand-over well inside U's run is fair")
    func threadTimingEdges() throws {
        func scenario(workerLimit: Double) -> Scenario {
            Scenario(
                name: "hand-over",
                threads: [
                    ThreadSpec(
                        name: "T",
                        items: [
                            .timer(
                                "t1", first: .milliseconds(40), [ScriptStep(.sendTo(thread: "U", port: "q1", count: 1))]
                            )
                        ],
                        program: [.run(.inMode(.default, seconds: 0.1, returnAfterSourceHandled: false))]),
                    ThreadSpec(
                        name: "U", items: [.port("q1")],
                        program: [.run(.inMode(.default, seconds: workerLimit, returnAfterSourceHandled: false))]),
                ])
        }
        #expect(FuzzValidator.validate(scenario(workerLimit: 0.04)) == .failure(.timingEdge))
        let fair = scenario(workerLimit: 0.08)
        #expect(FuzzValidator.validate(fair) == .success(fair))
    }

    @Test("a date a query answers may move with the timer it names: only that it is a date counts for an edge")
    func queryDatesAreNoEdge() {
        let scenario = Scenario(
            name: "date", items: [.timer("t", first: .milliseconds(100))],
            program: [
                .query(.nextFireDate(timer: "t")),
                .run(.inMode(.default, seconds: 0.2, returnAfterSourceHandled: false)),
            ])
        #expect(FuzzValidator.validate(scenario) == .success(scenario))
    }

    @Test("the shrinker keeps the failing property and ends at the smallest scenario that has it")
    func shrinkerKeepsTheProperty() throws {
        // The property: some timer's callout stops the loop.
        func fails(_ scenario: Scenario) -> Bool {
            scenario.threads[0].items.contains { item in
                guard case .timer = item.kind else { return false }
                return item.script.contains { $0.action == .stop }
            }
        }
        var summary = FuzzCampaign.Summary()
        let start = try #require(
            (0..<200).lazy.compactMap { FuzzCampaign.scenario(seed: 5, index: $0, maxItems: 6, summary: &summary) }
                .first { fails($0) && $0.threads[0].items.count > 2 })
        var calls = 0
        let shrinker = FuzzShrinker(
            maxTests: 1000, isValid: { $0 },
            fails: {
                calls += 1
                return fails($0)
            })
        let (result, tests) = shrinker.shrink(start)
        #expect(fails(result))
        #expect(tests == calls && tests <= 1000)
        let thread = result.threads[0]
        #expect(thread.program.isEmpty && result.outside.isEmpty && thread.commonModes.isEmpty)
        #expect(thread.items.count == 1)
        #expect(thread.items.first?.script == [ScriptStep(.stop)])
        #expect(thread.items.first?.kind == .timer(first: .zero, interval: .zero, tolerance: .zero))
        #expect(FuzzShrinker.size(result) < FuzzShrinker.size(start))
    }

    @Test("the shrinker stops after maxTests candidates even when every one fails")
    func shrinkerIsBounded() throws {
        var summary = FuzzCampaign.Summary()
        // A scenario with more to drop than five candidates take away.
        let start = try #require(
            (0..<50).lazy.compactMap { FuzzCampaign.scenario(seed: 3, index: $0, maxItems: 8, summary: &summary) }
                .first { $0.threads[0].items.count >= 5 })
        var calls = 0
        let shrinker = FuzzShrinker(
            maxTests: 5, isValid: { $0 },
            fails: { _ in
                calls += 1
                return true
            })
        let (_, tests) = shrinker.shrink(start)
        #expect(tests == 5 && calls == 5)
    }
}

extension FuzzGeneratorTests {
    /// Where a scenario's main-queue blocks are: `callout`, `program`, `outside`; `main` when T is the main thread.
    static func mainThreadShapes(_ scenario: Scenario) -> Set<String> {
        var found: Set<String> = []
        if scenario.threads.contains(where: \.isMain) { found.insert("main") }
        func queues(_ actions: [Action]) -> Bool {
            Action.first(in: actions) { action in
                if case .mainQueue = action { return true }
                return nil
            } ?? false
        }
        for thread in scenario.threads {
            if thread.items.contains(where: { queues($0.script.map(\.action)) }) { found.insert("callout") }
            if queues(thread.program) { found.insert("program") }
        }
        if queues(scenario.outside.flatMap(\.actions)) { found.insert("outside") }
        return found
    }

    @Test("the generator makes T the main thread, with main-queue blocks from callouts, the program and outside")
    func generatesTheMainThread() throws {
        var found: Set<String> = []
        var mainCases = 0
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            let shapes = Self.mainThreadShapes(scenario)
            found.formUnion(shapes)
            if shapes.contains("main") { mainCases += 1 }
            // Only the main thread's loop drains the main queue: no block without it, and never with two threads.
            if !shapes.isEmpty { #expect(shapes.contains("main") && scenario.threads.count == 1) }
            let parsed = try ScenarioParser.parse(scenario.loopText).scenario
            #expect(parsed == scenario, "\(scenario.loopText)")
        }
        #expect(found == ["main", "callout", "program", "outside"])
        #expect((30...110).contains(mainCases), "\(mainCases) main-thread cases of 500")
    }

    @Test("a main-thread case is judged as `loopviz fuzz` runs it, on the main thread, even when the test is not")
    func mainThreadCasesAreFairOffTheMainThread() throws {
        var summary = FuzzCampaign.Summary()
        let main = (0..<60).lazy.compactMap {
            FuzzCampaign.scenario(seed: 1, index: $0, maxItems: 5, summary: &summary)
        }
        .first { $0.threads[0].isMain }
        let scenario = try #require(main)
        #expect(FuzzValidator.validate(scenario) == .success(scenario))
        #expect(summary.rejected[.unsupported] == nil)
    }
}

extension FuzzGeneratorTests {
    @Test("the generator makes delayed performs in the program and in callouts, and cancels of them")
    func generatesDelayedPerforms() throws {
        var found: Set<String> = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            let thread = scenario.threads[0]
            func record(_ actions: [Action], _ place: String) {
                Action.forEach(in: actions) { action in
                    if case .performDelayed = action { found.insert("perform afterDelay in \(place)") }
                    if case .cancelDelayedPerforms = action { found.insert("cancelPrevious in \(place)") }
                }
            }
            record(thread.program, "program")
            record(thread.items.flatMap { $0.script.map(\.action) }, "callout")
            let parsed = try ScenarioParser.parse(scenario.loopText).scenario
            #expect(parsed == scenario, "\(scenario.loopText)")
        }
        #expect(
            found == ["perform afterDelay in program", "perform afterDelay in callout", "cancelPrevious in callout"])
    }
}

extension FuzzPropertyTests {
    @Test("a delayed perform due when a run's limit ends is a timing edge; the same perform well inside it is fair")
    func delayedPerformEdges() {
        func scenario(delay: Duration) -> Scenario {
            Scenario(
                name: "delayed", items: [.port("p1")],
                program: [
                    .performDelayed(task: "d1", target: "self", delay: delay, modes: [.default], []),
                    .run(.inMode(.default, seconds: 0.04, returnAfterSourceHandled: false)),
                ])
        }
        #expect(FuzzValidator.validate(scenario(delay: .milliseconds(40))) == .failure(.timingEdge))
        let fair = scenario(delay: .milliseconds(20))
        #expect(FuzzValidator.validate(fair) == .success(fair))
    }
}

extension FuzzGeneratorTests {
    @Test("the generator ends CFRunLoopRun with its thread's timer's stop, and RunLoop.run with it emptying the mode")
    func generatesRunsWithoutADate() throws {
        var found: Set<String> = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            let thread = scenario.threads[0]
            let ending = thread.items.first { $0.name == FuzzGenerator.endingTimer }
            for action in thread.program {
                switch action {
                case .run(.untilStopped):
                    found.insert("CFRunLoopRun")
                    #expect(ending?.script == [ScriptStep(.stop)])
                case .run(.foundationForever):
                    found.insert("RunLoop.run")
                    #expect(!thread.isMain)
                    let others = thread.items.map(\.name).filter { $0 != FuzzGenerator.endingTimer }
                    #expect(ending?.script == others.map { ScriptStep(.invalidate($0)) })
                default: break
                }
            }
            let parsed = try ScenarioParser.parse(scenario.loopText).scenario
            #expect(parsed == scenario, "\(scenario.loopText)")
        }
        #expect(found == ["CFRunLoopRun", "RunLoop.run"])
    }
}

extension FuzzPropertyTests {
    @Test("CI's slice, seed 1 cases 0 to 199, has every shape added since the first campaigns, three times or more")
    func ciSliceCoversTheNewShapes() {
        var summary = FuzzCampaign.Summary()
        var found: [String: Int] = [:]
        for index in 0..<200 {
            guard let scenario = FuzzCampaign.scenario(seed: 1, index: index, maxItems: 5, summary: &summary) else {
                continue
            }
            if scenario.threads.contains(where: \.isMain) { found["main thread", default: 0] += 1 }
            if !FuzzGeneratorTests.mainThreadShapes(scenario).subtracting(["main"]).isEmpty {
                found["mainqueue", default: 0] += 1
            }
            for call in Set(scenario.threads[0].items.compactMap(\.foundationTimer)) {
                found["foundation \(call.rawValue)", default: 0] += 1
            }
            if scenario.threads.count > 1, !scenario.owners.isEmpty { found["two-thread owner", default: 0] += 1 }
            if scenario.threads.count > 1,
                scenario.threads[0].program.contains(where: { if case .run(.whileHolds) = $0 { true } else { false } })
            {
                found["two-thread while", default: 0] += 1
            }
            var kinds: Set<String> = []
            _ = scenario.firstAction { action -> Bool? in
                switch action {
                case .performDelayed: kinds.insert("afterDelay")
                case .run(.untilStopped): kinds.insert("CFRunLoopRun")
                case .run(.foundationForever): kinds.insert("RunLoop.run")
                case .fire: kinds.insert("fire")
                case .query(.interval), .query(.tolerance), .query(.repeats): kinds.insert("timer property")
                case .mainActorTask: kinds.insert("mainactor")
                case .asyncAfter: kinds.insert("asyncafter")
                default: break
                }
                return nil
            }
            for kind in kinds { found[kind, default: 0] += 1 }
        }
        #expect(summary.noCase == 0)
        #expect(
            Set(found.keys) == [
                "main thread", "mainqueue", "afterDelay", "CFRunLoopRun", "RunLoop.run", "fire", "timer property",
                "mainactor", "asyncafter", "foundation init", "foundation scheduled", "two-thread owner",
                "two-thread while",
            ])
        // asyncAfter comes in 3 of the slice's cases (a main-thread case's construct, drawn last): the others 4+.
        #expect(found.allSatisfy { $0.value >= ($0.key == "asyncafter" ? 3 : 4) }, "\(found)")
    }
}

extension FuzzGeneratorTests {
    @Test(
        "a main-thread case neither invalidates a version-0 source nor asks allModes, even in its blocks and performs")
    func mainThreadCasesKeepTheirRules() {
        var mainCases = 0
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(3, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            guard scenario.threads[0].isMain else { continue }
            mainCases += 1
            let sources = Set(
                scenario.threads[0].items.compactMap { item -> String? in
                    if case .source0 = item.kind { return item.name }
                    return nil
                })
            let excluded = scenario.firstAction { action -> Action? in
                switch action {
                case .invalidate(let name) where sources.contains(name): action
                case .query(.allModes), .addCommonMode: action
                default: nil
                }
            }
            #expect(excluded == nil, "\(scenario.loopText)")
            #expect(scenario.threads[0].commonModes.isEmpty)
        }
        #expect(mainCases > 20)
    }
}

extension FuzzPropertyTests {
    @Test("two delayed performs with one delay made in one instant are a timing edge: on CF they are apart")
    func delayedPerformsDueTogether() {
        let scenario = Scenario(
            name: "together", items: [.port("p1")],
            program: [
                .performDelayed(task: "d1", target: "self", delay: .milliseconds(20), modes: [.default], []),
                .performDelayed(task: "d2", target: "self", delay: .milliseconds(20), modes: [.default], []),
                .run(.inMode(.default, seconds: 0.06, returnAfterSourceHandled: false)),
            ])
        #expect(FuzzValidator.validate(scenario) == .failure(.timingEdge))
    }
}
