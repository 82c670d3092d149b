/// The run calls of a program: CF's `CFRunLoopRunInMode` and Foundation's `run(mode:before:)`, `run(until:)`,
/// `acceptInput` and `run()`, with the Bool each gives back (the `while … RunLoop.run` idioms are the language's:
/// `ScenarioLoop+Interpreter.swift`).
extension ScriptInterpreter {
    func run(_ call: RunCall) {
        switch call {
        case .inMode(let mode, let seconds, let rash):
            loop.run(mode: mode, seconds: seconds, returnAfterSourceHandled: rash)
        case .untilStopped:
            loop.runUntilStopped()
        case .foundation(let mode, let before):
            returned(loop.runFoundation(mode: mode, before: instant(before)))
        case .foundationUntil(let limit):
            loop.runFoundation(until: instant(limit))
        case .acceptInput(let mode, let before):
            loop.acceptInput(forMode: mode, before: instant(before))
        case .foundationForever:
            loop.runFoundationForever()
        case .whileNot, .whileHolds:
            // The language's own (``ScenarioLoop/perform(_:outside:)``): a run per turn, ``runOnce(_:)``.
            break
        }
    }

    /// The instant a date of the scenario stands for, on this world's clock (whose origin is the scenario start).
    func instant(_ date: FoundationDate) -> LoopInstant {
        switch date {
        case .fromNow(let delay): loop.clock.now + delay
        case .sinceStart(let time): .zero + time
        case .distantPast: .distantPast
        case .distantFuture: .distantFuture
        }
    }
}
