/// The run calls of a program: CF's `CFRunLoopRunInMode` and Foundation's `run(mode:before:)`, `run(until:)`,
/// `acceptInput`, `run()` and the `while … RunLoop.run` idioms, with the Bool each gives back.
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
        case .whileNot(let flag, let mode):
            while !shared.isSet(flag) && !world.isHalted {
                let ran = loop.runFoundation(mode: mode, before: .distantFuture)
                returned(ran)
                guard ran else {
                    // run(mode:before:) returned NO at once: the real idiom would spin here, burning a core.
                    loop.note(.emptyModeSpins(mode: mode.rawValue))
                    return
                }
            }
        case .whileHolds(let condition, let mode):
            while holds(condition) && !world.isHalted {
                let ran = loop.runFoundation(mode: mode, before: .distantFuture)
                returned(ran)
                guard ran else {
                    loop.note(.emptyModeSpins(mode: mode.rawValue))
                    return
                }
            }
        }
    }

    /// The Bool a `run(mode:before:)` of the program gave back, as the program sees it.
    func returned(_ value: Bool) {
        if world.isHalted { return }
        loop.record(.note, nil, fact: .returned(value))
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
