import LoopEngine

/// The fuzzer's runs without a date: `CFRunLoopRun` and Foundation's `RunLoop.run`, ended by a timer of their own
/// thread (an outside stop could come while a callout works, a race; a timer's callout runs at an instant of the
/// thread's own).
extension FuzzGenerator {
    static let endingTimer = "tEnd"

    /// In some one-thread scenarios the program's last run becomes `CFRunLoopRun`, which a one-shot timer `tEnd`
    /// in the default mode stops, or `RunLoop.run` (not on the main thread, whose default mode the main queue
    /// never lets be empty), which runs again after every stop and so ends only when the default mode is empty:
    /// `tEnd` invalidates every other item of T, and is itself gone once it has fired.
    mutating func addRunUntilStopped(to scenario: inout Scenario) {
        guard rng.chance(30) else { return }
        let program = scenario.threads[0].program
        guard let last = program.lastIndex(where: { if case .run = $0 { true } else { false } }) else { return }
        switch program[last] {
        case .run(.whileNot), .run(.whileHolds): return
        default: break
        }
        let foundation = !scenario.threads[0].isMain && rng.chance(50)
        let steps =
            foundation ? scenario.threads[0].items.map { ScriptStep(.invalidate($0.name)) } : [ScriptStep(.stop)]
        let first = grid(2...10)
        scenario.threads[0].items.append(.timer(Self.endingTimer, first: first, modes: [.default], steps))
        scenario.threads[0].program[last] = .run(foundation ? .foundationForever : .untilStopped)
    }
}
