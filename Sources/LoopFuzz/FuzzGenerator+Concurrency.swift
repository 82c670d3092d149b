import LoopEngine

/// The fuzzer's Swift Concurrency constructs (issue 32), on the main thread only (the main actor's executor is
/// the main queue, which only the main loop drains): `mainactor AN` tasks whose bodies suspend at `await yield`
/// or `await sleep D`, and `asyncafter D LN` blocks. ``FuzzValidator`` moves every sleep and asyncAfter delay as a
/// family of their own, and each on its own, when it looks for timing edges.
extension FuzzGenerator {
    /// In some main-thread cases: a task or an asyncAfter from a callout (on its first or second call), from the
    /// program before a run, or (a task) from an outside thread at a free grid instant.
    mutating func addConcurrency(to scenario: inout Scenario) {
        guard scenario.threads[0].isMain, rng.chance(50) else { return }
        let sources = Self.mainThreadSources(scenario)
        var tasks = 0
        var afters = 0
        func construct(_ generator: inout FuzzGenerator, task: Bool) -> Action {
            func inner(_ generator: inout FuzzGenerator) -> [Action] {
                (0..<generator.rng.int(0...1)).map { _ in generator.innerAction(mainThreadSources: sources) }
            }
            guard task else {
                afters += 1
                return .asyncAfter("L\(afters)", delay: generator.grid(1...3), inner(&generator))
            }
            tasks += 1
            var body = inner(&generator)
            for _ in 0..<generator.rng.int(1...2) {
                body.append(.await(generator.rng.chance(50) ? .yield : .sleep(generator.grid(1...3))))
                body += inner(&generator)
            }
            return .mainActorTask("A\(tasks)", body)
        }
        // Not tEnd's script: it ends a run without a date and does nothing else.
        let items = scenario.threads[0].items.indices.filter {
            scenario.threads[0].items[$0].name != Self.endingTimer
        }
        if !items.isEmpty, rng.chance(50) {
            // An observer of afterWaiting starts its task in the instant the wait has read the main queue's port,
            // where a task's first job and that port race (seed 80 case 150): such an observer is chosen half the
            // time there is one.
            let waking = items.filter { index in
                guard case .observer(let activities, _, _) = scenario.threads[0].items[index].kind else { return false }
                return activities.contains(.afterWaiting)
            }
            let item = !waking.isEmpty && rng.chance(50) ? rng.pick(waking) : rng.pick(items)
            let step = ScriptStep(construct(&self, task: rng.chance(60)), when: .call(rng.int(1...2)))
            scenario.threads[0].items[item].script.append(step)
        }
        if rng.chance(60) {
            let program = scenario.threads[0].program
            let runs = program.indices.filter { if case .run = program[$0] { true } else { false } }
            scenario.threads[0].program.insert(construct(&self, task: rng.chance(60)), at: rng.pick(runs))
        }
        let taken = Set(scenario.outside.map(\.time))
        if rng.chance(30),
            let slot = (1...10).map({ Self.grid * $0 }).filter({ !taken.contains($0) }).randomElement(using: &rng)
        {
            scenario.outside.append(OutsideEvent(at: slot, [construct(&self, task: true)]))
            scenario.outside.sort { $0.time < $1.time }
        }
    }
}

extension FuzzGenerator {
    /// In some main-thread cases: the program made an async `main` (docs/concurrency.md, "The async main"): its runs
    /// are the first part, then an `await sleep D` (on Linux the main thread leaves for `dispatch_main()`), main-queue
    /// work, and sometimes an `await yield` and more; its end is `exit(0)`, which ends the scenario.
    mutating func addAsyncMain(to scenario: inout Scenario) {
        guard scenario.threads[0].isMain, rng.chance(20) else { return }
        let sources = Self.mainThreadSources(scenario)
        var body: [Action] = [.await(.sleep(grid(1...3)))]
        func work(_ generator: inout FuzzGenerator) -> [Action] {
            var actions = (0..<generator.rng.int(0...2)).map { _ in
                generator.innerAction(mainThreadSources: sources)
            }
            if generator.rng.chance(50) {
                actions.append(.mainQueue("Z\(generator.rng.int(1...9))", [.work(.milliseconds(1))]))
            }
            return actions
        }
        body += work(&self)
        if rng.chance(50) {
            body.append(.await(rng.chance(50) ? .yield : .sleep(grid(1...2))))
            body += work(&self)
        }
        scenario.threads[0].program += body
        scenario.threads[0].isAsyncMain = true
    }
}
