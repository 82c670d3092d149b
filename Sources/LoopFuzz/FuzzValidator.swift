import LoopEngine
import LoopOracle

/// Decides whether a generated (or shrunk) scenario is a fair differential case: it parses back from its `.loop`
/// text, ends on the engine within a short time (the real CFRunLoop runs it in real time), and is not on a timing
/// edge — its engine trace keeps the same steps when the times the real machine cannot hold exactly (work, outside
/// events, run limits, timers' first dates, reschedules) move by ``margin`` either way. A case on such an edge is a
/// race on the real CFRunLoop: scheduling noise decides it (docs/fuzzing.md).
package enum FuzzValidator {
    /// How far the real machine's times may stray (scheduling noise, a loaded CI machine) without changing a fair
    /// case's steps.
    static let margin = Duration.milliseconds(6)
    /// The longest virtual run accepted: 10,000 cases must take minutes in real time.
    static let maxDuration = Duration.milliseconds(300)
    /// Events one engine or CF run may record.
    static let maxEvents = 4000

    package enum Rejection: String, CaseIterable, Sendable, Error {
        case unparsable = "does not parse back the same"
        case unsupported = "not expressible on the real CFRunLoop"
        case doesNotEnd = "does not end on the engine within 300ms"
        case timingEdge = "on a timing edge"
        case offGridHandOver = "with a hand-over to another thread off the 20 ms grid"
    }

    /// How far from a multiple of ``FuzzGenerator/grid`` a thread's hand-over may be issued: the iteration costs
    /// (1.5 µs each) a thread has spent by then, never a millisecond of work.
    static let gridSlack = Duration.microseconds(500)

    /// The parsed scenario (what is run and saved) when it is a fair case, or why not.
    static func validate(_ scenario: Scenario) -> Result<Scenario, Rejection> {
        // Exactly the same scenario back: a program's first `common M` would read as the thread's common modes.
        guard let parsed = try? ScenarioParser.parse(scenario.loopText, file: "fuzz.loop").scenario,
            parsed == scenario
        else {
            return .failure(.unparsable)
        }
        if LoopOracleSupport.unsupportedReason(parsed) != nil { return .failure(.unsupported) }
        guard let outcome = endingRun(parsed) else { return .failure(.doesNotEnd) }
        // The generator hands work to another thread only from timers at grid instants; a hand-over that a
        // `perform … wait` in the same timer batch pushed off the grid comes as the waited thread's task ends, in
        // the microseconds a real thread needs to wake (seed 5 case 1765): a race the engine does not time.
        if handsOverOffTheGrid(outcome) { return .failure(.offGridHandOver) }
        if isOnTimingEdge(parsed, steps: steps(parsed, outcome)) { return .failure(.timingEdge) }
        return .success(parsed)
    }

    /// True when one of the scenario's ``perturbations(of:by:)`` ends with other steps than `steps` (the engine's
    /// steps of `scenario` itself), or does not end.
    static func isOnTimingEdge(_ scenario: Scenario, steps base: [String]) -> Bool {
        perturbations(of: scenario).contains { variant in engineSteps(variant) != base }
    }

    /// The engine's observable steps (what ``TraceComparison`` compares, with run boundaries; with several
    /// threads each thread's own steps, thread after thread, as ``ThreadedTraceComparison`` compares them), or nil
    /// when the run does not end in time.
    static func engineSteps(_ scenario: Scenario) -> [String]? {
        endingRun(scenario).map { steps(scenario, $0) }
    }

    /// The engine's run of `scenario`, or nil when it does not end in time.
    static func endingRun(_ scenario: Scenario) -> ScenarioRunner.Outcome? {
        let outcome = ScenarioRunner.run(scenario, horizon: maxDuration, maxEvents: maxEvents)
        // An async main's `exit(0)` is an end as every program's is.
        guard outcome.haltReason == nil || outcome.haltReason == .exited, !outcome.reachedEventLimit,
            outcome.endTime <= .zero + maxDuration
        else {
            return nil
        }
        return outcome
    }

    /// True when a thread handed work to another thread (a perform, a signal, a send, a block: the run's typed
    /// `HandOver` records) further than ``gridSlack`` from a grid instant.
    static func handsOverOffTheGrid(_ outcome: ScenarioRunner.Outcome) -> Bool {
        let grid = FuzzGenerator.grid.nanosecondsClamped
        let slack = gridSlack.nanosecondsClamped
        return outcome.handOvers.contains { handOver in
            guard let from = handOver.from, from != handOver.to else { return false }
            let offset = handOver.time.nanoseconds % grid
            return min(offset, grid - offset) > slack
        }
    }

    /// `outcome`'s observable steps, as ``engineSteps(_:)`` gives them.
    private static func steps(_ scenario: Scenario, _ outcome: ScenarioRunner.Outcome) -> [String] {
        let callouts = scenario.source0Names
        guard scenario.isComparedThreadByThread(engine: outcome.events) else {
            return TraceComparison(engine: outcome.events, reference: [], sourceCallouts: callouts).engine.map(edgeStep)
        }
        let threads = ThreadedTraceComparison(
            engine: outcome.events, reference: [], declared: scenario.threads.map(\.name), sourceCallouts: callouts)
        return threads.threads.flatMap { thread in thread.comparison.engine.map { "\(thread.name): " + edgeStep($0) } }
    }

    /// An event's step for finding edges: a date a query answers moves with the times (and is compared within the
    /// tolerance), so only that it is a date counts; every other answer is part of the step.
    static func edgeStep(_ event: LoopEvent) -> String {
        if let (question, answer) = event.queryFact, case .date = answer { return "query \(question.words) is a date" }
        return event.step
    }

    /// The scenario with one family of imprecise times moved by the margin, each way. The families move
    /// separately: two times of different families that coincide (a run's limit and a reschedule made at the
    /// same moment) are exactly the race to find. A timer's first date moves even at 0: its repeats follow.
    /// `loopviz explore --jitter` moves them by its own `margin`.
    package static func perturbations(of scenario: Scenario, by margin: Duration = FuzzValidator.margin) -> [Scenario] {
        // A Foundation timer's date is its call's: written as the plain timer it is, its date can move.
        let scenario = scenario.loweringFoundationTimers()
        var variants: [Scenario] = []
        for sign in [1, -1] {
            let shift = margin * sign
            variants.append(
                scenario.mappingActions { action in
                    if case .work(let time) = action { return .work(max(.zero, time + shift)) }
                    return action
                })
            variants.append(
                scenario.mappingActions { action in
                    switch action {
                    case .run(.inMode(let mode, let seconds, let rash)) where seconds > 0:
                        return .run(
                            .inMode(mode, seconds: max(0, seconds + shift.secondsValue), returnAfterSourceHandled: rash)
                        )
                    case .run(.foundation(let mode, let date)):
                        return .run(.foundation(mode, before: date.shifted(shift)))
                    case .run(.foundationUntil(let date)): return .run(.foundationUntil(date.shifted(shift)))
                    case .run(.acceptInput(let mode, let date)):
                        return .run(.acceptInput(mode, before: date.shifted(shift)))
                    default: return action
                    }
                })
            variants.append(
                scenario.mappingActions { action in
                    // A reschedule to now is moved too: CF arms the timer port for an instant already past, and
                    // whether the iteration's poll sees that expiry is a race. So is one into the past: a
                    // repeating timer's next dates follow it (seed 1 case 9231: a repeat on an outside stop).
                    if case .setNextFireDate(let name, let delay) = action, delay != .zero || sign > 0 {
                        return .setNextFireDate(name, after: delay + shift)
                    }
                    return action
                })
            variants.append(
                scenario.mappingActions { action in
                    // A delayed perform's timer is due its delay after the call; a delay of 0 moves later only
                    // (its timer is due at once, as a reschedule to now).
                    if case .performDelayed(let task, let target, let delay, let modes, let inner) = action,
                        delay != .zero || sign > 0
                    {
                        return .performDelayed(
                            task: task, target: target, delay: max(.zero, delay + shift), modes: modes, inner)
                    }
                    return action
                })
            // Each delayed perform on its own: two requests made microseconds apart with one delay are due at one
            // instant on the engine, apart on CF (seed 1 case 4539: CF fired them in two iterations).
            for target in 0..<scenario.count(where: { if case .performDelayed = $0 { true } else { false } }) {
                var seen = 0
                variants.append(
                    scenario.mappingActions { action in
                        guard case .performDelayed(let task, let object, let delay, let modes, let inner) = action
                        else { return action }
                        defer { seen += 1 }
                        guard seen == target, delay != .zero || sign > 0 else { return action }
                        return .performDelayed(
                            task: task, target: object, delay: max(.zero, delay + shift), modes: modes, inner)
                    })
            }
            // A task's sleep and an asyncAfter are due their duration after the call that made them, as a delayed
            // perform: all together, then each on its own.
            variants.append(scenario.mappingActions { $0.concurrencyDelayShifted(by: shift) ?? $0 })
            for target in 0..<scenario.count(where: { $0.concurrencyDelayShifted(by: shift) != nil }) {
                var seen = 0
                variants.append(
                    scenario.mappingActions { action in
                        guard let moved = action.concurrencyDelayShifted(by: shift) else { return action }
                        defer { seen += 1 }
                        return seen == target ? moved : action
                    })
            }
            variants.append(scenario.movingOutsideEvents(by: shift))
            // Each outside event on its own: a timer's repeat set off by one event (a reschedule in it) may come
            // in the instant of another (seed 1 case 9231: a stop).
            if scenario.outside.count > 1 {
                for index in scenario.outside.indices {
                    var one = scenario
                    one.outside[index].time = max(.milliseconds(1), scenario.outside[index].time + shift)
                    variants.append(one)
                }
            }
            var timers = scenario
            timers.threads = scenario.threads.map { thread in
                var moved = thread
                moved.items = thread.items.map { item in
                    guard case .timer(let first, let interval, let tolerance) = item.kind else {
                        return item
                    }
                    var shifted = item
                    shifted.kind = .timer(first: first + shift, interval: interval, tolerance: tolerance)
                    return shifted
                }
                return moved
            }
            variants.append(timers)
            // Each run on its own: a nested run's limit and the outer run's date may end at one instant.
            for target in 0..<scenario.runCount {
                var seen = 0
                variants.append(
                    scenario.mappingActions { action in
                        guard case .run(let call) = action else { return action }
                        defer { seen += 1 }
                        return seen == target ? .run(call.shifted(shift)) : action
                    })
            }
            // Each timer on its own: two timers due at one instant (one's repeat on the other's date) fire in
            // an order CF decides by nanoseconds of clock conversion, not by a rule.
            for (thread, spec) in scenario.threads.enumerated() {
                for (index, item) in spec.items.enumerated() {
                    guard case .timer(let first, let interval, let tolerance) = item.kind else { continue }
                    var one = scenario
                    one.threads[thread].items[index].kind = .timer(
                        first: first + shift, interval: interval, tolerance: tolerance)
                    variants.append(one)
                }
            }
        }
        // The outside events also at every sixth of the margin between: the real run drifts from the engine's
        // times by the microseconds each callout and each piece of work costs, so an outside event meets the loop
        // up to a few milliseconds earlier in its timeline, and a phase shorter than the margin (a 2 ms observer
        // between a 6 ms earlier and a 6 ms later instant, seed 89 case 1197: a stop in a run's entry observer)
        // would be stepped over by the two ends alone.
        if !scenario.outside.isEmpty {
            for sign in [1, -1] {
                for sixth in 1..<6 { variants.append(scenario.movingOutsideEvents(by: margin * sixth / 6 * sign)) }
            }
        }
        // Each thread's whole timeline later than the others': two threads acting in one instant (a hand-over
        // reaching a thread as its run's limit ends, or as its own timer fires) are a race on real threads. And
        // each thread's work on its own: a hand-over may reach a thread as work of the same length ends there
        // (seed 3 case 197: U's 1 ms callout for T's send ended as T's next hand-over, 1 ms later, arrived).
        if scenario.threads.count > 1 {
            for index in scenario.threads.indices {
                variants.append(scenario.delayingThread(index, by: margin))
                for sign in [1, -1] {
                    variants.append(
                        scenario.mappingActions(inThread: index) { action in
                            if case .work(let time) = action { return .work(max(.zero, time + margin * sign)) }
                            return action
                        })
                }
            }
        }
        return variants
    }
}

extension Action {
    /// An `await sleep D` or an `asyncafter D` with D moved by `shift` (at least 0), nil for any other action.
    fileprivate func concurrencyDelayShifted(by shift: Duration) -> Action? {
        switch self {
        case .await(.sleep(let time)): .await(.sleep(max(.zero, time + shift)))
        case .asyncAfter(let name, let delay, let inner): .asyncAfter(name, delay: max(.zero, delay + shift), inner)
        default: nil
        }
    }
}

extension RunCall {
    /// The run with its limit or date moved by `shift` (a polling run stays one).
    fileprivate func shifted(_ shift: Duration) -> RunCall {
        switch self {
        case .inMode(let mode, let seconds, let rash) where seconds > 0:
            .inMode(mode, seconds: max(0, seconds + shift.secondsValue), returnAfterSourceHandled: rash)
        case .foundation(let mode, let date): .foundation(mode, before: date.shifted(shift))
        case .foundationUntil(let date): .foundationUntil(date.shifted(shift))
        case .acceptInput(let mode, let date): .acceptInput(mode, before: date.shifted(shift))
        default: self
        }
    }
}

extension Scenario {
    /// Every outside event moved by `shift` (none before 1 ms: an outside event at 0 would race the start).
    fileprivate func movingOutsideEvents(by shift: Duration) -> Scenario {
        var moved = self
        moved.outside = outside.map { event in
            var event = event
            event.time = max(.milliseconds(1), event.time + shift)
            return event
        }
        return moved
    }

    /// The scenario with thread `index`'s timeline `delay` later: its program starts with `work`, its timers'
    /// first dates and the outside events addressed to it move.
    fileprivate func delayingThread(_ index: Int, by delay: Duration) -> Scenario {
        var copy = self
        let name = threads[index].name
        copy.threads[index].program.insert(.work(delay), at: 0)
        copy.threads[index].items = threads[index].items.map { item in
            guard case .timer(let first, let interval, let tolerance) = item.kind else { return item }
            var moved = item
            moved.kind = .timer(first: first + delay, interval: interval, tolerance: tolerance)
            return moved
        }
        copy.outside = outside.map { event in
            guard event.thread == name else { return event }
            var moved = event
            moved.time = event.time + delay
            return moved
        }
        return copy
    }

    /// How many run actions the scenario has, wherever they are.
    fileprivate var runCount: Int { count { if case .run = $0 { true } else { false } } }

    /// How many actions `matches` holds for, wherever they are, in ``mappingActions(_:)``'s order.
    fileprivate func count(where matches: (Action) -> Bool) -> Int {
        var count = 0
        _ = mappingActions { action in
            if matches(action) { count += 1 }
            return action
        }
        return count
    }
}

extension FoundationDate {
    fileprivate func shifted(_ shift: Duration) -> FoundationDate {
        switch self {
        case .fromNow(let delay) where delay > .zero: .fromNow(delay + shift)
        case .sinceStart(let time): .sinceStart(max(.zero, time + shift))
        default: self
        }
    }
}

extension Scenario {
    /// The scenario with `transform` applied to every action, wherever it is (programs, scripts, outside events,
    /// block bodies; inner actions first); with `thread`, only to that thread's program and items' scripts.
    func mappingActions(inThread thread: Int? = nil, _ transform: (Action) -> Action) -> Scenario {
        func map(_ action: Action) -> Action {
            switch action {
            case .performBlock(let name, let modes, let inner):
                transform(.performBlock(name, modes: modes, inner.map(map)))
            case .ifHolds(let condition, let inner): transform(.ifHolds(condition, inner.map(map)))
            case .dealloc(let owner, let inner): transform(.dealloc(owner: owner, inner.map(map)))
            case .performOrdered(let task, let target, let order, let modes, let inner):
                transform(.performOrdered(task: task, target: target, order: order, modes: modes, inner.map(map)))
            case .performOn(let thread, let task, let wait, let inner):
                transform(.performOn(thread: thread, task: task, wait: wait, inner.map(map)))
            case .mainQueue(let name, let inner): transform(.mainQueue(name, inner.map(map)))
            case .mainActorTask(let name, let body): transform(.mainActorTask(name, body.map(map)))
            case .asyncAfter(let name, let delay, let inner): transform(.asyncAfter(name, delay: delay, inner.map(map)))
            case .performDelayed(let task, let target, let delay, let modes, let inner):
                transform(.performDelayed(task: task, target: target, delay: delay, modes: modes, inner.map(map)))
            default: transform(action)
            }
        }
        func steps(_ list: [ScriptStep]) -> [ScriptStep] { list.map { ScriptStep(map($0.action), when: $0.when) } }
        var copy = self
        copy.threads = threads.enumerated().map { index, spec in
            guard thread == nil || thread == index else { return spec }
            var thread = spec
            thread.program = thread.program.map(map)
            thread.items = thread.items.map { item in
                var item = item
                item.script = steps(item.script)
                item.sourceCallouts.schedule = steps(item.sourceCallouts.schedule)
                item.sourceCallouts.cancel = steps(item.sourceCallouts.cancel)
                return item
            }
            return thread
        }
        guard thread == nil else { return copy }
        copy.outside = outside.map { event in
            var event = event
            event.actions = event.actions.map(map)
            return event
        }
        return copy
    }
}
