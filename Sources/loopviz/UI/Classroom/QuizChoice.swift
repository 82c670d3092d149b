import LoopEngine

/// One answer to "what runs next?": a step a loop can take, as typed values (its kind, the item it names, and for
/// a `sleep` whether it is a poll). Made from an event, from a lesson's own choice, or from the engine's state;
/// only ``label`` turns it into words.
struct QuizChoice: Equatable {
    var kind: LoopEvent.Kind
    var name: String?
    /// For a `sleep`: true for a poll (a wait that does not block), false for a real sleep; nil: either.
    var isPoll: Bool?
    /// A lesson's choice, matched as an `expect` line is (time, thread, name when given).
    var step: Expectation.Step?

    init(_ kind: LoopEvent.Kind, _ name: String? = nil, isPoll: Bool? = nil) {
        self.kind = kind
        self.name = name
        self.isPoll = kind == .sleep ? isPoll : nil
    }

    /// The step `event` is: its kind and item (activities and wakes name none), and a sleep's poll.
    init(_ event: LoopEvent) {
        let named = !event.kind.isActivity && event.kind != .sleep && event.kind != .wake
        self.init(event.kind, named ? event.name : nil, isPoll: event.wait.map(\.isPoll) ?? false)
    }

    /// A lesson's choice (`ask "…" at 100ms: sleep, source0 render`).
    init(_ step: Expectation.Step) {
        self.init(step.kind, step.name)
        self.step = step
    }

    /// The loop's own steps: what the quiz asks about. Outside events (a signal, a send, a wake-up or stop
    /// request), schedules, notes and the pool's events are done to a loop, not by it.
    static func isLoopStep(_ kind: LoopEvent.Kind) -> Bool {
        kind.isActivity || kind.isCallout || [.sleep, .wake, .result, .runStart].contains(kind)
    }

    /// True when `event` is this step.
    func matches(_ event: LoopEvent) -> Bool {
        if let step { return step.matches(event) }
        guard event.kind == kind, name == nil || event.name == name else { return false }
        if let isPoll, (event.wait?.isPoll ?? false) != isPoll { return false }
        return true
    }

    /// The choice in words (terminal-safe: names come from the scenario file).
    var label: String {
        if let step { return step.description }
        if kind == .sleep { return isPoll == true ? "poll (a sleep that does not wait)" : "sleep" }
        return ([kind.rawValue] + [name.map(TerminalSafeText.terminalSafe)].compactMap { $0 }).joined(separator: " ")
    }

    /// Where the step comes in a turn of the loop: the order the choices are listed in.
    var cycleOrder: Int {
        let order: [LoopEvent.Kind] = [
            .runStart, .entry, .beforeTimers, .beforeSources, .block, .source0, .beforeWaiting, .sleep, .wake,
            .afterWaiting, .timer, .source1, .mainQueue, .perform, .observer, .exit, .result,
        ]
        return order.firstIndex(of: kind) ?? order.count
    }
}
