extension ScriptInterpreter {
    /// The answer to `question` about this thread's loop, as Foundation or CF would give it at this moment. An
    /// item the question names may be another thread's (``owner(of:)``); asked about this loop, it is then in
    /// none of its modes.
    func answer(_ question: LoopQuery) -> QueryAnswer {
        switch question {
        case .currentMode:
            return loop.currentMode.map { .mode($0) } ?? .none
        case .limitDate(let mode):
            // Foundation answers nil at once on any thread but the loop's own (`_cfRunLoop !== CFRunLoopGetCurrent()`).
            if loop.waiter.callerIsOutside(loop) { return .none }
            guard let date = loop.limitDate(forMode: mode) else { return .none }
            return date == .distantFuture ? .distantFuture : .date(date)
        case .nextTimerFireDate(let mode):
            return loop.nextTimerFireDate(in: mode).map { .date($0) } ?? .none
        case .isWaiting:
            return .flag(loop.isWaiting)
        case .contains(let item, let mode):
            let owner = owner(of: item)
            if let source = owner.sources[item] { return .flag(loop.contains(source, in: mode)) }
            if let timer = owner.timers[item] { return .flag(loop.contains(timer, in: mode)) }
            if let observer = owner.observers[item] { return .flag(loop.contains(observer, in: mode)) }
            return .flag(false)
        case .isValid(let item):
            let owner = owner(of: item)
            let valid =
                owner.sources[item]?.isValid ?? owner.timers[item]?.isValid ?? owner.observers[item]?.isValid ?? false
            return .flag(valid)
        case .nextFireDate(let timer):
            return owner(of: timer).timers[timer]?.reportedFireDate.map { .date($0) } ?? .none
        case .allModes:
            return .modes(loop.allModes)
        case .interval(let name):
            return .duration(owner(of: name).timers[name]?.interval ?? .zero)
        case .tolerance(let name):
            return .duration(owner(of: name).timers[name]?.tolerance ?? .zero)
        case .repeats(let name):
            return .flag(owner(of: name).timers[name]?.isRepeating ?? false)
        }
    }
}
