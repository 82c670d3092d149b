/// A question a program asks its run loop (a `query` action), as data: the engine and the real-CF oracle answer
/// the same question, and the trace records it with its answer (``LoopEvent/Fact/query(_:_:)``).
///
/// Each case is one call of Foundation or CoreFoundation, with that call's exact meaning on this machine's
/// swift-corelibs-foundation (docs/language.md, "Queries").
public enum LoopQuery: Hashable, Sendable {
    /// `CFRunLoopCopyCurrentMode` (`RunLoop.currentMode`): the mode of the innermost run, nil outside any run.
    case currentMode
    /// Foundation's `limitDate(forMode:)`: on the loop's own thread it first polls the mode once
    /// (`CFRunLoopRunInMode(mode, -10, true)`, which may fire timers), then answers nil for an empty mode,
    /// `distantFuture` without a timer, else the next timer's fire date. From another thread: nil, no poll.
    case limitDate(ModeName)
    /// `CFRunLoopGetNextTimerFireDate`: the fire date of the mode's first timer (by deadline), none (CF's 0)
    /// without one.
    case nextTimerFireDate(ModeName)
    /// `CFRunLoopIsWaiting`: the loop is in its wait (only another thread can see it so).
    case isWaiting
    /// `CFRunLoopContainsSource` / `ContainsTimer` / `ContainsObserver`, by the item's kind; `common` asks about
    /// the items added to `kCFRunLoopCommonModes`.
    case contains(item: String, mode: ModeName)
    /// `CFRunLoopTimerIsValid` (`CFRunLoopSourceIsValid`, `CFRunLoopObserverIsValid` for other items).
    case isValid(item: String)
    /// `CFRunLoopTimerGetNextFireDate`: the date CF keeps for the timer (a date given in the past stays in the
    /// past until the timer fires), none (CF's 0) once it is invalid.
    case nextFireDate(timer: String)
    /// `CFRunLoopCopyAllModes`: every mode the loop has created, in name order.
    case allModes
    /// `CFRunLoopTimerGetInterval` (`Timer.timeInterval`): the interval CF stored, 0 for a one-shot timer (one
    /// given 0 or less too).
    case interval(timer: String)
    /// `CFRunLoopTimerGetTolerance` (`Timer.tolerance`): 0 on Linux whatever was set; the darwin profile keeps it.
    case tolerance(timer: String)
    /// `CFRunLoopTimerDoesRepeat`: whether the timer's interval is above 0.
    case repeats(timer: String)

    /// The word that names the question in the language and in every trace format.
    package var word: String {
        switch self {
        case .currentMode: "currentMode"
        case .limitDate: "limitDate"
        case .nextTimerFireDate: "nextTimerFireDate"
        case .isWaiting: "isWaiting"
        case .contains: "contains"
        case .isValid: "isValid"
        case .nextFireDate: "nextFireDate"
        case .allModes: "allModes"
        case .interval: "interval"
        case .tolerance: "tolerance"
        case .repeats: "repeats"
        }
    }

    /// Every question word, in the order docs/language.md lists them.
    static let questionWords = [
        "currentMode", "limitDate", "nextTimerFireDate", "isWaiting", "contains", "isValid", "nextFireDate",
        "allModes", "interval", "tolerance", "repeats",
    ]

    /// The item the question names, if any.
    package var item: String? {
        switch self {
        case .contains(let item, _), .isValid(let item), .nextFireDate(let item), .interval(let item),
            .tolerance(let item), .repeats(let item):
            item
        default: nil
        }
    }

    /// The mode the question names, if any.
    package var mode: ModeName? {
        switch self {
        case .limitDate(let mode), .nextTimerFireDate(let mode), .contains(_, let mode): mode
        default: nil
        }
    }

    /// The kind of answer the question gets.
    var answerKind: QueryAnswer.Kind {
        switch self {
        case .currentMode: .mode
        case .limitDate, .nextTimerFireDate, .nextFireDate: .date
        case .isWaiting, .contains, .isValid, .repeats: .flag
        case .allModes: .modes
        case .interval, .tolerance: .duration
        }
    }
}

/// What a ``LoopQuery`` was answered. Dates are instants on the trace's clock (since the scenario start; negative:
/// before it).
public enum QueryAnswer: Hashable, Sendable {
    /// No value: `nil` (a current mode outside any run, a limit date of an empty mode) or CF's `0` for "no
    /// date" (no timer, an invalid timer).
    case none
    /// A mode (the current mode).
    case mode(ModeName)
    /// An instant (a fire date, a limit date).
    case date(LoopInstant)
    /// `Date.distantFuture` (a limit date with no timer).
    case distantFuture
    /// Yes or no (is the loop waiting, is an item valid, …).
    case flag(Bool)
    /// Mode names, in name order.
    case modes([ModeName])
    /// A length of time (a timer's interval or tolerance).
    case duration(Duration)

    /// The shapes of answer a question can get.
    package enum Kind: Sendable, Equatable {
        case mode, date, flag, modes, duration
    }
}
