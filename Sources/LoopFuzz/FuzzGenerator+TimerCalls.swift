import LoopEngine

/// The fuzzer's timer calls and properties (issue 31): `fire T` (Foundation's `Timer.fire()`: the callout at once,
/// outside the loop's timer pass), `query interval|tolerance|repeats T`, and a one-shot timer written with a
/// negative `every` (CF stores an interval of 0 or less as 0). Drawn from the extra stream after the other shapes,
/// so that a case to which they add nothing is the very scenario it was before them.
extension FuzzGenerator {
    /// In some scenarios with a timer of T's own (not `tEnd`, which ends a run without a date): a `fire` in a
    /// callout (on its first or second call: a timer that fires itself on every call would recurse) or in the
    /// program before a run, property queries in a callout or the program, and a negative `every` on a one-shot.
    mutating func addTimerCalls(to scenario: inout Scenario) {
        let thread = scenario.threads[0]
        // Not a timer that hands work to U: its hand-overs come at T's timer instants 20 ms or more after the
        // start only (docs/fuzzing.md), and a `fire` would make one at any instant (seed 1 case 214: fired by an
        // `entry` observer as U started, the perform raced U's first iteration).
        let timers = thread.items.compactMap { item -> String? in
            guard case .timer = item.kind, item.name != Self.endingTimer,
                !item.script.contains(where: { step in
                    scenario.threads.dropFirst().contains { step.action.reaches($0.name) }
                })
            else { return nil }
            return item.name
        }
        guard !timers.isEmpty, rng.chance(30) else { return }
        for index in thread.items.indices {
            guard case .timer(let first, let interval, let tolerance) = thread.items[index].kind,
                interval == .zero, thread.items[index].name != Self.endingTimer, rng.chance(40)
            else { continue }
            scenario.threads[0].items[index].kind = .timer(
                first: first, interval: grid(-2...(-1)), tolerance: tolerance)
        }
        let runs = thread.program.indices.filter { if case .run = thread.program[$0] { true } else { false } }
        // Not tEnd's script: it ends a run without a date and does nothing else.
        let items = thread.items.indices.filter { thread.items[$0].name != Self.endingTimer }
        for _ in 0..<rng.int(1...2) {
            let timer = rng.pick(timers)
            let action: Action
            switch rng.int(0...5) {
            case 0...2: action = .fire(timer)
            case 3: action = .query(.interval(timer: timer))
            case 4: action = .query(.tolerance(timer: timer))
            default: action = .query(.repeats(timer: timer))
            }
            if rng.chance(50), let at = runs.isEmpty ? nil : rng.pick(runs) {
                scenario.threads[0].program.insert(action, at: at)
            } else if !items.isEmpty {
                let item = rng.pick(items)
                scenario.threads[0].items[item].script.append(ScriptStep(action, when: .call(rng.int(1...2))))
            }
        }
    }
}
