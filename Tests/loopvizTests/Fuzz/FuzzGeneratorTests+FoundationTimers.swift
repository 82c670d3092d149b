import LoopEngine
import Testing

@testable import LoopFuzz

extension FuzzGeneratorTests {
    @Test("the generator makes Foundation timers, init and scheduled (default mode only), none that hands work to U")
    func generatesFoundationTimers() throws {
        var found: Set<String> = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            for item in scenario.threads[0].items {
                guard let call = item.foundationTimer, case .timer(_, let interval, _) = item.kind else { continue }
                found.insert("\(call.rawValue) \(interval == .zero ? "once" : "repeating")")
                if call == .scheduled { #expect(item.modes == [.default], "\(scenario.loopText)") }
                let handsOver = item.script.contains { step in
                    scenario.threads.dropFirst().contains { step.action.reaches($0.name) }
                }
                #expect(!handsOver, "\(scenario.loopText)")
            }
            let parsed = try ScenarioParser.parse(scenario.loopText).scenario
            #expect(parsed == scenario, "\(scenario.loopText)")
        }
        #expect(found == ["init once", "init repeating", "scheduled once", "scheduled repeating"])
    }

    @Test("in two-thread scenarios the generator makes an owner, its ifs and its while loop, which T's tOwner ends")
    func generatesOwnersWithTwoThreads() throws {
        var found: Set<String> = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "case \(index)")
            guard scenario.threads.count > 1, !scenario.owners.isEmpty else { continue }
            found.insert("owner")
            #expect(scenario.outside.isEmpty)
            let thread = scenario.threads[0]
            if thread.items.contains(where: {
                $0.script.contains { if case .ifHolds = $0.action { true } else { false } }
            }) {
                found.insert("if")
            }
            if case .run(.whileHolds(_, let mode)) = thread.program.last(where: {
                if case .run = $0 { true } else { false }
            }) {
                found.insert("while COND")
                let ending = try #require(thread.items.first { $0.name == FuzzGenerator.ownerTimer })
                #expect(ending.modes == [mode])
                #expect(ending.script.last == ScriptStep(.stop))
            }
            let parsed = try ScenarioParser.parse(scenario.loopText).scenario
            #expect(parsed == scenario, "\(scenario.loopText)")
        }
        #expect(found == ["owner", "if", "while COND"])
    }
}

extension FuzzPropertyTests {
    @Test("a Foundation timer is judged by the date its call gives: scheduled at a run's limit is an edge, init is not")
    func foundationTimerEdges() {
        func scenario(_ call: FoundationTimerCall) -> Scenario {
            Scenario(
                name: "foundation", items: [.foundationTimer("t", call, interval: .milliseconds(40), repeats: false)],
                program: [.run(.inMode(.default, seconds: 0.04, returnAfterSourceHandled: false))])
        }
        #expect(FuzzValidator.validate(scenario(.scheduled)) == .failure(.timingEdge))
        let fair = scenario(.initializer)
        #expect(FuzzValidator.validate(fair) == .success(fair))
        // The variants write it as the plain timer it is on linux (at 0), moved.
        let dates = FuzzValidator.perturbations(of: fair).flatMap { variant in
            variant.threads[0].items.map { item -> String in
                guard case .timer(let first, _, _) = item.kind else { return "?" }
                return (item.foundationTimer == nil ? "at " : "foundation ") + "\(first)"
            }
        }
        #expect(Set(dates) == ["at 0.0 seconds", "at 0.006 seconds", "at -0.006 seconds"])
    }

    @Test("a hand-over that reaches U as U's work of the same length ends is a timing edge (seed 3 case 197)")
    func handOverAsWorkEndsIsAnEdge() throws {
        let scenario = try ScenarioParser.parse(
            """
            scenario "fuzz seed 3 case 197"

            thread T
              port p1
                call 1: block B1
                  work 2ms
              timer t1 at 80ms in M1
                call 1: work 5ms
                add t1 to default
                call 2: cancelPerform f2
                send q1 2 times on U
              timer t2 at 40ms in common
                first 2 calls: work 1ms
                call 1: perform u2 on U wait
                  work 2ms
              observer o1 on all
                first 1 calls: cancelPerforms target self
              query nextFireDate t1
              work 5ms
              run M1 for 120ms
              block B3
              run default for 40ms
              RunLoop.acceptInput M1 before at 40ms
              send p1

            thread U
              port q1
                work 1ms
              source0 u1 commands 1
                on schedule: call 2: post c3 to u1
                on cancel: signal u1
                call 1: stop
                work 1ms
              run default for 120ms
            """
        ).scenario
        // `t2`'s perform comes after 1 ms of work, off the grid, which the validator now refuses first; the
        // per-thread work perturbation finds the edge on its own as well.
        #expect(FuzzValidator.validate(scenario) == .failure(.offGridHandOver))
        let steps = try #require(FuzzValidator.engineSteps(scenario))
        #expect(FuzzValidator.isOnTimingEdge(scenario, steps: steps))
    }

    @Test("the shrinker offers a Foundation timer as its plain timer, one-shot, and with a shorter interval")
    func shrinkerSimplifiesFoundationTimers() {
        let scenario = Scenario(
            name: "shrink", items: [.foundationTimer("t", .initializer, interval: .milliseconds(60))],
            program: [.run(.inMode(.default, seconds: 0.1, returnAfterSourceHandled: false))])
        let timers = FuzzShrinker.candidates(scenario).compactMap { $0.threads[0].items.first }
        #expect(timers.contains(.timer("t", first: .zero, every: .milliseconds(60))))
        #expect(timers.contains(.foundationTimer("t", .initializer, interval: .milliseconds(60), repeats: false)))
        #expect(timers.contains(.foundationTimer("t", .initializer, interval: .milliseconds(40))))
    }
}
