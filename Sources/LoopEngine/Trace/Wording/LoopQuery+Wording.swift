/// The words of a query and its answer: how a `query` event reads in a trace (`query currentMode is Modal`), in
/// `expect` lines (written the same way) and in the detail of every export.
extension LoopQuery {
    /// `currentMode`, `limitDate default`, `contains tick in Tracking`: the question as a `query` action writes it.
    package var words: String {
        switch self {
        case .currentMode, .isWaiting, .allModes: word
        case .limitDate(let mode), .nextTimerFireDate(let mode): "\(word) \(mode)"
        case .contains(let item, let mode): "contains \(item) in \(mode)"
        case .isValid(let item), .nextFireDate(let item), .interval(let item), .tolerance(let item),
            .repeats(let item):
            "\(word) \(item)"
        }
    }

    /// The Foundation or CF call that asks it.
    package var call: String {
        switch self {
        case .currentMode: "CFRunLoopCopyCurrentMode"
        case .limitDate(let mode): "limitDate(forMode: \(mode))"
        case .nextTimerFireDate(let mode): "CFRunLoopGetNextTimerFireDate(\(mode))"
        case .isWaiting: "CFRunLoopIsWaiting"
        case .contains(let item, let mode): "CFRunLoopContains(\(item), \(mode))"
        case .isValid(let item): "IsValid(\(item))"
        case .nextFireDate(let timer): "CFRunLoopTimerGetNextFireDate(\(timer))"
        case .allModes: "CFRunLoopCopyAllModes"
        case .interval(let timer): "CFRunLoopTimerGetInterval(\(timer))"
        case .tolerance(let timer): "CFRunLoopTimerGetTolerance(\(timer))"
        case .repeats(let timer): "CFRunLoopTimerDoesRepeat(\(timer))"
        }
    }

    /// How this question's "no value" reads: Foundation's `nil`, or `none` for CF's date `0`.
    var noneWord: String {
        switch self {
        case .nextTimerFireDate, .nextFireDate: "none"
        default: "nil"
        }
    }

    /// The answer in the words a trace and an `expect` line use.
    package func words(for answer: QueryAnswer) -> String {
        switch answer {
        case .none: noneWord
        case .mode(let mode): mode.rawValue
        case .date(let instant): instant.description
        case .distantFuture: "distantFuture"
        case .flag(let flag): flag ? "true" : "false"
        case .modes(let modes): modes.isEmpty ? "nothing" : modes.map(\.rawValue).joined(separator: ", ")
        case .duration(let duration): LoopEvent.seconds(duration)
        }
    }
}
