extension ScriptInterpreter {
    /// The answer to `question` about this thread's loop, as Foundation or CF would give it at this moment. An
    /// item the question names is `holder`'s (the interpreter's ``owner(of:)``): another thread's item, asked
    /// about this loop, is in none of its modes unless it was added to it (`add … on THREAD`).
    func answer(_ question: LoopQuery, itemsOf holder: ScriptInterpreter) -> QueryAnswer {
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
            if let source = holder.sources[item] { return .flag(loop.contains(source, in: mode)) }
            if let timer = holder.timers[item] { return .flag(loop.contains(timer, in: mode)) }
            if let observer = holder.observers[item] { return .flag(loop.contains(observer, in: mode)) }
            return .flag(false)
        case .isValid(let item):
            let valid =
                holder.sources[item]?.isValid ?? holder.timers[item]?.isValid ?? holder.observers[item]?.isValid
                ?? false
            return .flag(valid)
        case .nextFireDate(let timer):
            return holder.timers[timer]?.reportedFireDate.map { .date($0) } ?? .none
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
