import LoopEngine

/// The fuzzer's main thread: T marked `main`, so that its loop is `CFRunLoopGetMain()` and libdispatch's main queue
/// drains there (docs/cfrunloop.md §14), with `mainqueue` blocks from its callouts, its program and outside
/// threads. `loopviz fuzz` calls the oracle on the process's main thread, as `loopviz compare` does.
extension FuzzGenerator {
    /// Runs `body` on the extra stream (``extra``), every helper drawing from it, then puts the first stream back.
    mutating func withExtraStream(_ body: (inout FuzzGenerator) -> Void) {
        swap(&rng, &extra)
        body(&self)
        swap(&rng, &extra)
    }

    /// In some one-thread scenarios, makes T the main thread and adds main-queue blocks: one in a callout (on its
    /// first or second call: on every call a block per iteration would keep the loop busy), one in the program, one
    /// from outside at a grid instant no other outside event takes.
    ///
    /// Not with common modes besides `default`, a version-0 source invalidated or `allModes` asked: on the main
    /// thread the oracle gives the scenario's modes fresh CF names, whose hashes order CF's sets of modes otherwise
    /// (docs/cfrunloop.md §11.1), so a source's schedule callouts into the common modes, or its cancel callouts
    /// as an invalidation walks the loop's modes, would come in another order than the scenario's names make
    /// (seed 1 case 161: `invalidate s1` of a source in `default, M1` cancelled it in `M1` first on CF).
    mutating func addMainThread(to scenario: inout Scenario) {
        guard rng.chance(25) else { return }
        let addsCommonMode = scenario.firstAction { action in
            if case .addCommonMode = action { return true }
            return nil
        }
        let sources = Self.mainThreadSources(scenario)
        // And no `query allModes`: the main loop keeps the modes of every earlier scenario of the process, and
        // the one CF makes for the common-modes name (a block in `common`) is not the scenario's own (seed 1
        // case 263: the engine answered `M1, common, default`, the oracle `M1, default`).
        let invalidatesSource = scenario.firstAction { action in
            if case .invalidate(let name) = action, sources.contains(name) { return true }
            if case .query(.allModes) = action { return true }
            return nil
        }
        guard scenario.threads[0].commonModes.isEmpty, addsCommonMode == nil, invalidatesSource == nil else { return }
        scenario.threads[0].isMain = true
        var queued = 0
        // A block's own actions keep to the same rules (seed 1 case 1500: a block's `invalidate s1`).
        func mainQueueBlock(_ generator: inout FuzzGenerator) -> Action {
            queued += 1
            let inner = (0..<generator.rng.int(0...2)).map { _ in generator.innerAction(mainThreadSources: sources) }
            return .mainQueue("Q\(queued)", inner)
        }
        for index in scenario.threads[0].items.indices where rng.chance(30) {
            let step = ScriptStep(mainQueueBlock(&self), when: .call(rng.int(1...2)))
            scenario.threads[0].items[index].script.append(step)
        }
        if rng.chance(50) {
            let program = scenario.threads[0].program
            let runs = program.indices.filter { if case .run = program[$0] { true } else { false } }
            // Before some run (after `start`, and not first when the program's first action must stay first).
            let at = rng.pick(runs)
            scenario.threads[0].program.insert(mainQueueBlock(&self), at: at)
        }
        let taken = Set(scenario.outside.map(\.time))
        if rng.chance(40),
            let slot = (1...10).map({ Self.grid * $0 }).filter({ !taken.contains($0) }).randomElement(
                using: &rng)
        {
            scenario.outside.append(OutsideEvent(at: slot, [mainQueueBlock(&self)]))
            scenario.outside.sort { $0.time < $1.time }
        }
    }

    /// The version-0 sources of T, the case's first thread (what the main thread's rules keep their hands off).
    static func mainThreadSources(_ scenario: Scenario) -> Set<String> {
        Set(
            scenario.threads[0].items.compactMap { item in
                if case .source0 = item.kind { return item.name }
                return nil
            })
    }

    /// An action inside a block or a perform (``calloutAction(depth:)`` at depth 1); with `mainThreadSources`
    /// (a main-thread case's version-0 sources), none that the main thread's rules above exclude: at most ten
    /// draws, then a `work`.
    mutating func innerAction(mainThreadSources sources: Set<String>?) -> Action {
        guard let sources else { return calloutAction(depth: 1) }
        for _ in 0..<10 {
            let action = calloutAction(depth: 1)
            switch action {
            case .invalidate(let name) where sources.contains(name): continue
            case .query(.allModes): continue
            default: return action
            }
        }
        return .work(.milliseconds(1))
    }
}
