import LoopEngine

/// The fuzzer's delayed performs: `perform fN target X afterDelay D [in M, …]` (NSObject's
/// `performSelector:withObject:afterDelay:[inModes:]`, a one-shot `delayedPerform` timer per request) and
/// `cancelPrevious`, on T's own loop. A delay is relative to its call, so ``FuzzValidator`` moves the delays as a
/// family of their own when it looks for timing edges.
extension FuzzGenerator {
    static let delayedTasks = ["d1", "d2"]

    /// In some scenarios, a delayed perform in T's program (before a run) and in a callout (on its first or second
    /// call: on every call a request per iteration would keep the loop busy), sometimes with a cancel.
    mutating func addDelayedPerforms(to scenario: inout Scenario) {
        guard rng.chance(20) else { return }
        // On the main thread, within the main thread's rules (FuzzGenerator+MainThread).
        let sources: Set<String>? =
            scenario.threads[0].isMain
            ? Set(
                scenario.threads[0].items.compactMap { item in
                    if case .source0 = item.kind { return item.name }
                    return nil
                }) : nil
        let program = scenario.threads[0].program
        let runs = program.indices.filter { if case .run = program[$0] { true } else { false } }
        if rng.chance(60) {
            scenario.threads[0].program.insert(delayedPerform(mainThreadSources: sources), at: rng.pick(runs))
        }
        let items = scenario.threads[0].items.indices
        if !items.isEmpty, rng.chance(60) {
            let item = rng.pick(Array(items))
            scenario.threads[0].items[item].script.append(
                ScriptStep(delayedPerform(mainThreadSources: sources), when: .call(rng.int(1...2))))
        }
        if rng.chance(25), !items.isEmpty {
            let item = rng.pick(Array(items))
            let task: String? = rng.chance(60) ? rng.pick(Self.delayedTasks) : nil
            let cancel = Action.cancelDelayedPerforms(task: task, target: rng.pick(Self.performTargets))
            scenario.threads[0].items[item].script.append(ScriptStep(cancel, when: .call(rng.int(1...2))))
        }
    }

    /// One request: a task and target, a delay of 0 to 3 grid steps, in `default`, `M1`, both or
    /// `common`, with up to two actions inside (no nested run or block: depth 1).
    private mutating func delayedPerform(mainThreadSources sources: Set<String>?) -> Action {
        let modes: [ModeName] = rng.pick([[.default], [.default], ["M1"], [.default, "M1"], [.common]])
        let inner = (0..<rng.int(0...2)).map { _ in innerAction(mainThreadSources: sources) }
        return .performDelayed(
            task: rng.pick(Self.delayedTasks), target: rng.pick(Self.performTargets), delay: grid(0...3),
            modes: modes, inner)
    }
}
