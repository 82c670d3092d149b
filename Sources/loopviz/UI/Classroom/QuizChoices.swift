import LoopEngine

/// Makes the choices of a quiz question: the real next step and a few others the engine could have taken at that
/// point, from the loop's typed state (its mode's items, the sources signalled, the ports with messages, the
/// timers due, the observers of the next activity) and where the loop is in its turn. Pure: the same state
/// always gives the same choices, in the order a turn of the loop meets them.
enum QuizChoices {
    /// The most events looked at for the next step of a thread.
    static let searchLimit = 100_000

    /// The index of the first loop step (``QuizChoice/isLoopStep(_:)``) of `thread` at or after `start`, if any
    /// within ``searchLimit`` events.
    static func nextStep(from start: Int, thread: String, in trace: LoopTrace) -> Int? {
        let end = min(trace.count, start + searchLimit)
        guard start < end else { return nil }
        return (start..<end).first { trace[$0].loop == thread && QuizChoice.isLoopStep(trace[$0].kind) }
    }

    /// The index of the last loop step of `thread` before `end` (where the loop is in its turn), if any within
    /// ``searchLimit`` events.
    static func lastStep(before end: Int, thread: String, in trace: LoopTrace) -> Int? {
        let end = min(end, trace.count)
        guard end > 0 else { return nil }
        return (max(0, end - searchLimit)..<end).last {
            trace[$0].loop == thread && QuizChoice.isLoopStep(trace[$0].kind)
        }
    }

    /// The choices for the step `answer` that followed `current` (nil: before the first event), with the loop's
    /// state `loop` and its declaration `thread` (nil for a pool's worker or a replayed trace). `given`: the
    /// lesson's own choices, kept in its order; the real step replaces the last one when it is not among them
    /// (`replaced`). Returns at least three choices, at most ``Question/maximumChoices``, exactly one of them
    /// (`correct`) the real step.
    static func make(
        answer: LoopEvent, after current: LoopEvent?, loop: LoopSnapshot, thread: ThreadSpec?,
        given: [Expectation.Step] = []
    ) -> (choices: [QuizChoice], correct: Int, replaced: Bool) {
        let right = QuizChoice(answer)
        if !given.isEmpty {
            var choices = given.prefix(Question.maximumChoices).map(QuizChoice.init)
            if let index = choices.firstIndex(where: { $0.matches(answer) }) { return (choices, index, false) }
            if choices.count == Question.maximumChoices { choices.removeLast() }
            choices.append(right)
            return (choices, choices.count - 1, true)
        }
        var others: [QuizChoice] = []
        func offer(_ choice: QuizChoice) {
            guard !choice.matches(answer), !others.contains(choice) else { return }
            others.append(choice)
        }
        plausible(after: current, loop: loop, thread: thread).forEach(offer)
        var distractors = Array(others.prefix(Question.maximumChoices - 1))
        // Too few from the state: the steps every turn has.
        for generic in generics
        where distractors.count < 2 && !generic.matches(answer) && !distractors.contains(generic) {
            distractors.append(generic)
        }
        let choices = ([right] + distractors).enumerated().sorted {
            ($0.element.cycleOrder, $0.element.label, $0.offset) < ($1.element.cycleOrder, $1.element.label, $1.offset)
        }
        return (choices.map(\.element), choices.firstIndex { $0.offset == 0 } ?? 0, false)
    }

    /// Steps of any turn, for a state that suggests too few.
    static let generics: [QuizChoice] = [
        QuizChoice(.beforeTimers), QuizChoice(.beforeWaiting), QuizChoice(.sleep, isPoll: false),
        QuizChoice(.afterWaiting), QuizChoice(.exit),
    ]

    /// What the loop could do next, most plausible first: where the turn goes from `current`, and the items
    /// whose state makes them candidates.
    static func plausible(after current: LoopEvent?, loop: LoopSnapshot, thread: ThreadSpec?) -> [QuizChoice] {
        let items = itemsInMode(loop.currentMode ?? current?.mode, thread)
        let signalled = items.filter { if case .source0 = $0.kind { loop.signalled.contains($0.name) } else { false } }
        let source0s = items.filter { if case .source0 = $0.kind { true } else { false } }
        let messages = items.filter {
            if case .port = $0.kind { (loop.pendingMessages[$0.name] ?? 0) > 0 } else { false }
        }
        let timers = items.filter { if case .timer = $0.kind { isDue($0, loop) } else { false } }
        let allTimers = items.filter { if case .timer = $0.kind { true } else { false } }
        let blocks = loop.blocksQueued.map { QuizChoice(.block, $0) }
        func observers(_ activity: Activity) -> [QuizChoice] {
            items.compactMap { item in
                guard case .observer(let activities, _, _) = item.kind, activities.contains(activity),
                    !loop.spentObservers.contains(item.name)
                else { return nil }
                return QuizChoice(.observer, item.name)
            }
        }
        let named = { (kind: LoopEvent.Kind, list: [ItemSpec]) in list.map { QuizChoice(kind, $0.name) } }
        // After an observer's callout the turn goes on as after the activity it was called for.
        var position = current?.kind
        if current?.kind == .observer, case .activity(let activity)? = current?.fact {
            position = LoopEvent.Kind(activity)
        }
        switch position {
        case nil, .runStart?:
            return [QuizChoice(.entry)] + observers(.entry) + [QuizChoice(.exit), QuizChoice(.beforeTimers)]
        case .entry?:
            return observers(.entry) + [QuizChoice(.beforeTimers), QuizChoice(.beforeSources)]
                + named(.timer, timers)
        case .beforeTimers?:
            // The classic mistake: timers fire at beforeTimers.
            return observers(.beforeTimers) + named(.timer, allTimers) + [QuizChoice(.beforeSources)]
                + named(.source0, signalled)
        case .beforeSources?:
            return observers(.beforeSources) + blocks + named(.source0, signalled) + [QuizChoice(.beforeWaiting)]
                + named(.source0, source0s) + [QuizChoice(.sleep, isPoll: true)]
        case .source0?, .block?:
            return named(.source0, signalled) + blocks
                + [QuizChoice(.sleep, isPoll: true), QuizChoice(.beforeWaiting), QuizChoice(.beforeTimers)]
                + [QuizChoice(.exit)]
        case .beforeWaiting?:
            return observers(.beforeWaiting) + [QuizChoice(.sleep, isPoll: false)] + named(.timer, timers)
                + named(.source0, signalled) + named(.source1, messages)
        case .sleep?:
            return [QuizChoice(.wake), QuizChoice(.afterWaiting)] + named(.timer, timers)
                + named(.source0, signalled) + named(.source1, messages)
        case .wake?:
            return [QuizChoice(.afterWaiting)] + named(.timer, timers) + named(.source1, messages)
                + [QuizChoice(.beforeTimers)]
        case .afterWaiting?:
            return observers(.afterWaiting) + named(.timer, timers) + named(.source1, messages) + blocks
                + [QuizChoice(.beforeTimers)] + named(.source0, signalled) + [QuizChoice(.exit)]
        case .exit?:
            return observers(.exit) + [QuizChoice(.result, "timedOut"), QuizChoice(.result, "finished")]
                + [QuizChoice(.result, "stopped"), QuizChoice(.result, "handledSource")]
        case .result?:
            return [QuizChoice(.runStart), QuizChoice(.entry), QuizChoice(.beforeTimers)]
        default:
            // After a timer, a port's perform, a main-queue block or a perform: the rest of the turn.
            return named(.timer, timers) + named(.source1, messages) + blocks
                + [QuizChoice(.beforeTimers), QuizChoice(.beforeWaiting), QuizChoice(.exit)]
        }
    }

    /// The items of `thread` in `mode` (a common mode's items when the mode is one of the common modes).
    static func itemsInMode(_ mode: String?, _ thread: ThreadSpec?) -> [ItemSpec] {
        guard let thread, let mode else { return [] }
        let common = Set(thread.commonModes.map(\.rawValue) + ["default"])
        return thread.items.filter { item in
            item.modes.contains { $0.rawValue == mode || ($0 == .common && common.contains(mode)) }
        }
    }

    /// True when a timer's next fire date has come (by its grid: the first date, then every interval after the
    /// last fire), so that it could fire at this point; a one-shot timer that fired never is again.
    static func isDue(_ item: ItemSpec, _ loop: LoopSnapshot) -> Bool {
        guard case .timer(let first, let interval, _) = item.kind else { return false }
        guard let last = loop.lastTimerFire[item.name] else { return .zero + first <= loop.now }
        guard interval > .zero else { return false }
        return last + interval <= loop.now
    }
}
