import LoopEngine
import Testing

@testable import loopviz

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
    func shrinkerIsBounded() {
        var summary = FuzzCampaign.Summary()
        let start = FuzzCampaign.scenario(seed: 3, index: 0, maxItems: 8, summary: &summary)!
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
