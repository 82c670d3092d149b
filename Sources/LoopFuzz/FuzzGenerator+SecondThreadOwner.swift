import LoopEngine

/// The fuzzer's owner in two-thread scenarios (issue 31). A two-thread scenario has no outside events (T's loop is
/// torn down when T exits, which the engine does not model: docs/fuzzing.md), so what one-thread scenarios end
/// from outside is ended here by a timer of T's own, at an instant of T's: the outcome is T's alone.
extension FuzzGenerator {
    /// The name of the one-shot timer that ends the owner's loop in a two-thread scenario.
    static let ownerTimer = "tOwner"

    /// In some two-thread scenarios: the owner `vc` (weak `weakSelf`), its property set or cleared and `if`
    /// conditions over it in T's callouts, and sometimes T's last run made the owner's keep-alive loop, `while
    /// COND RunLoop.run M`, which a one-shot timer `tOwner` in M ends (its property set or a `dealloc`, then a
    /// stop). Drawn from the extra stream after the other shapes.
    mutating func addSecondThreadOwner(to scenario: inout Scenario) {
        guard scenario.threads.count > 1, rng.chance(40) else { return }
        hasOwner = true
        scenario.owners = [OwnerSpec(name: Self.owner, weakName: Self.weakName)]
        let thread = scenario.threads[0]
        for index in thread.items.indices where rng.chance(40) {
            let action: Action =
                rng.chance(50)
                ? .assign(property(weak: rng.chance(50)), rng.chance(70))
                : .ifHolds(condition(), (0..<rng.int(1...2)).map { _ in calloutAction(depth: 1) })
            let when: ScriptStep.When = rng.chance(50) ? .always : .call(rng.int(1...2))
            scenario.threads[0].items[index].script.append(ScriptStep(action, when: when))
        }
        let program = thread.program
        guard rng.chance(60),
            let last = program.lastIndex(where: { if case .run = $0 { true } else { false } })
        else { return }
        let condition = ownerWhileCondition()
        let mode = rng.pick(Self.modes)
        scenario.threads[0].program[last] = .run(.whileHolds(condition, mode: mode))
        scenario.threads[0].items.append(
            .timer(
                Self.ownerTimer, first: grid(3...10), modes: [mode],
                [ScriptStep(ownerEnding(condition)), ScriptStep(.stop)]))
    }
}
