import LoopEngine

/// Shrinks a failing fuzz case (greedy delta debugging over the typed scenario): it tries one simplification at a
/// time — drop the second thread (with every hand-over to it), an item (with every action naming it), an outside
/// event, a program action, a script step, a schedule or cancel step, an action inside a block or an outside event; make a condition unconditional, drop a mode, reset an order; shorten
/// a time by one grid step, make a repeating timer one-shot, send one message — and keeps the first that is still
/// a valid case (`isValid`) and still fails (`fails`), then starts over. Each kept step makes the scenario
/// strictly smaller (``size``), and at most `maxTests` candidates are run, so it always ends.
struct FuzzShrinker {
    var maxTests = 300
    /// Turns a candidate into the scenario to test (FuzzValidator: parsed back, not on a timing edge), or nil.
    var isValid: (Scenario) -> Scenario?
    var fails: (Scenario) -> Bool

    /// The smallest failing scenario found and how many candidates were tested.
    func shrink(_ start: Scenario) -> (scenario: Scenario, tests: Int) {
        var current = start
        var tests = 0
        var improved = true
        while improved && tests < maxTests {
            improved = false
            for candidate in Self.candidates(current) where Self.size(candidate) < Self.size(current) {
                guard tests < maxTests else { break }
                guard let valid = isValid(candidate), Self.size(valid) < Self.size(current) else { continue }
                tests += 1
                if fails(valid) {
                    current = valid
                    improved = true
                    break
                }
            }
        }
        return (current, tests)
    }

    // MARK: - Size

    /// Nodes plus time in grid steps: every simplification lowers it.
    static func size(_ scenario: Scenario) -> Int {
        let grid = FuzzGenerator.grid.nanosecondsClamped
        func time(_ duration: Duration) -> Int { Int(min(abs(duration.nanosecondsClamped) / max(grid, 1), 1000)) + 1 }
        func actions(_ list: [Action]) -> Int { list.reduce(0) { $0 + action($1) } }
        func action(_ action: Action) -> Int {
            switch action {
            case .work(let d): 1 + time(d)
            case .send(_, let count): count
            case .setNextFireDate(_, let d): 1 + time(d)
            case .performBlock(_, let modes, let inner): 1 + modes.count + actions(inner)
            case .ifHolds(_, let inner), .dealloc(_, let inner), .performOn(_, _, _, let inner),
                .mainQueue(_, let inner), .mainActorTask(_, let inner):
                1 + actions(inner)
            case .asyncAfter(_, let delay, let inner): 1 + time(delay) + actions(inner)
            case .await(.sleep(let d)): 1 + time(d)
            case .performOrdered(_, _, _, let modes, let inner): 1 + modes.count + actions(inner)
            case .performDelayed(_, _, let delay, let modes, let inner): 1 + time(delay) + modes.count + actions(inner)
            case .run(let call): 2 + run(call)
            default: 1
            }
        }
        func run(_ call: RunCall) -> Int {
            switch call {
            case .inMode(_, let seconds, let rash): time(.nanoseconds(Int64(abs(seconds) * 1e9))) + (rash ? 1 : 0)
            case .foundation(_, let date), .foundationUntil(let date), .acceptInput(_, let date): dateSize(date)
            default: 1
            }
        }
        func dateSize(_ date: FoundationDate) -> Int {
            switch date {
            case .fromNow(let d), .sinceStart(let d): time(d)
            default: 1
            }
        }
        var total = 0
        for thread in scenario.threads {
            total += thread.commonModes.count + actions(thread.program)
            for item in thread.items {
                total += 2 + item.modes.count
                switch item.kind {
                case .source0(let order): total += order != 0 ? 1 : 0
                case .port: break
                case .timer(let first, let interval, _): total += time(first) + (interval != .zero ? time(interval) : 0)
                case .observer(_, let repeats, let order): total += (repeats ? 0 : 1) + (order != 0 ? 1 : 0)
                }
                let steps = item.script + item.sourceCallouts.schedule + item.sourceCallouts.cancel
                for step in steps { total += (step.when == .always ? 0 : 1) + action(step.action) }
            }
        }
        for event in scenario.outside { total += time(event.time) + actions(event.actions) }
        return total
    }

    // MARK: - Candidates

    /// Every one-step simplification of `scenario`, the ones that remove most first.
    static func candidates(_ scenario: Scenario) -> [Scenario] {
        guard let thread = scenario.threads.first else { return [] }
        var out: [Scenario] = []
        func with(_ change: (inout ThreadSpec) -> Void) -> Scenario {
            var copy = scenario
            change(&copy.threads[0])
            return copy
        }
        // The second thread, with every hand-over to it.
        for other in scenario.threads.dropFirst() {
            var copy = scenario
            copy.threads.removeAll { $0.name == other.name }
            copy = copy.removingActions { $0.reaches(other.name) }
            out.append(copy)
        }
        // Whole items, with everything that names them.
        for item in thread.items {
            var copy = with { $0.items.removeAll { $0.name == item.name } }
            copy = copy.removingActions { $0.names(item.name) }
            out.append(copy)
        }
        for index in scenario.outside.indices {
            var copy = scenario
            copy.outside.remove(at: index)
            out.append(copy)
        }
        for index in thread.program.indices { out.append(with { $0.program.remove(at: index) }) }
        for (i, item) in thread.items.enumerated() {
            for j in item.script.indices { out.append(with { $0.items[i].script.remove(at: j) }) }
            for j in item.sourceCallouts.schedule.indices {
                out.append(with { $0.items[i].sourceCallouts.schedule.remove(at: j) })
            }
            for j in item.sourceCallouts.cancel.indices {
                out.append(with { $0.items[i].sourceCallouts.cancel.remove(at: j) })
            }
        }
        for (i, event) in scenario.outside.enumerated() where event.actions.count > 1 {
            for j in event.actions.indices {
                var copy = scenario
                copy.outside[i].actions.remove(at: j)
                out.append(copy)
            }
        }
        // Inside actions (block bodies), and each action made simpler.
        out += scenario.actionVariants()
        for (i, item) in thread.items.enumerated() {
            for (j, step) in item.script.enumerated() where step.when != .always {
                out.append(with { $0.items[i].script[j].when = .always })
            }
            if item.modes.count > 1 {
                for m in item.modes.indices { out.append(with { $0.items[i].modes.remove(at: m) }) }
            }
            switch item.kind {
            case .source0(let order) where order != 0: out.append(with { $0.items[i].kind = .source0(order: 0) })
            case .observer(let activities, let repeats, let order):
                if order != 0 {
                    out.append(
                        with { $0.items[i].kind = .observer(activities: activities, repeats: repeats, order: 0) })
                }
                if !repeats {
                    out.append(
                        with { $0.items[i].kind = .observer(activities: activities, repeats: true, order: order) })
                }
            case .timer(let first, let interval, let tolerance) where item.foundationTimer != nil:
                // The plain timer it is; a one-shot; a shorter interval (which a repeating one repeats by).
                out.append(with { $0.items[i] = item.loweringFoundationTimer(profile: scenario.profile) })
                if interval != .zero {
                    out.append(with { $0.items[i].kind = .timer(first: first, interval: .zero, tolerance: tolerance) })
                }
                if first > FuzzGenerator.grid {
                    let shorter = first - FuzzGenerator.grid
                    out.append(
                        with {
                            $0.items[i].kind = .timer(
                                first: shorter, interval: interval != .zero ? shorter : .zero, tolerance: tolerance)
                        })
                }
            case .timer(let first, let interval, let tolerance):
                if interval != .zero {
                    out.append(with { $0.items[i].kind = .timer(first: first, interval: .zero, tolerance: tolerance) })
                    if interval > FuzzGenerator.grid {
                        out.append(
                            with {
                                $0.items[i].kind = .timer(
                                    first: first, interval: interval - FuzzGenerator.grid, tolerance: tolerance)
                            })
                    }
                }
                if first > .zero {
                    let earlier = max(.zero, first - FuzzGenerator.grid)
                    out.append(
                        with { $0.items[i].kind = .timer(first: earlier, interval: interval, tolerance: tolerance) })
                }
            default: break
            }
        }
        if !thread.commonModes.isEmpty { out.append(with { $0.commonModes = [] }) }
        for (i, event) in scenario.outside.enumerated() where event.time > FuzzGenerator.grid {
            var copy = scenario
            copy.outside[i].time = event.time - FuzzGenerator.grid
            out.append(copy)
        }
        return out
    }
}

extension Action {
    /// Whether this action (or one inside it) names item `name`.
    func names(_ name: String) -> Bool {
        switch self {
        case .signal(let n), .send(let n, _), .add(let n, _), .remove(let n, _), .invalidate(let n),
            .setNextFireDate(let n, _), .post(_, let n), .fire(let n):
            n == name
        case .query(let question): question.item == name
        default: nested.contains { $0.names(name) }
        }
    }

    /// Whether this action (or one inside it) acts on thread `thread` from another: a hand-over, a start.
    func reaches(_ thread: String) -> Bool {
        switch self {
        case .sendTo(let t, _, _), .start(let t), .wakeUpThread(let t), .performOn(let t, _, _, _): t == thread
        default: nested.contains { $0.reaches(thread) }
        }
    }

    /// One-step simplifications of this action: an inner action dropped, a time one grid step shorter, a single
    /// message, a run without returnAfterSourceHandled.
    var variants: [Action] {
        let grid = FuzzGenerator.grid
        switch self {
        case .work(let time) where time > .zero:
            return [.work(time > grid ? time - grid : .zero)]
        case .send(let name, let count) where count > 1: return [.send(name, count: 1)]
        case .setNextFireDate(let name, let delay) where delay != .zero:
            return [.setNextFireDate(name, after: delay > grid ? delay - grid : .zero)]
        case .performBlock(let name, let modes, let inner):
            var out: [Action] = []
            for index in inner.indices {
                var fewer = inner
                fewer.remove(at: index)
                out.append(.performBlock(name, modes: modes, fewer))
            }
            for (index, action) in inner.enumerated() {
                for variant in action.variants {
                    var simpler = inner
                    simpler[index] = variant
                    out.append(.performBlock(name, modes: modes, simpler))
                }
            }
            if modes.count > 1 { out.append(.performBlock(name, modes: [modes[0]], inner)) }
            return out
        case .mainQueue(let name, let inner):
            return inner.indices.map { index in
                var fewer = inner
                fewer.remove(at: index)
                return .mainQueue(name, fewer)
            }
        case .mainActorTask(let name, let body):
            // An `await` dropped, or one sleep shortened by a grid step (a sleep of 0 stays a sleep).
            var out: [Action] = body.indices.map { index in
                var fewer = body
                fewer.remove(at: index)
                return .mainActorTask(name, fewer)
            }
            for (index, action) in body.enumerated() {
                guard case .await(.sleep(let time)) = action, time > .zero else { continue }
                var shorter = body
                shorter[index] = .await(.sleep(time > grid ? time - grid : .zero))
                out.append(.mainActorTask(name, shorter))
            }
            return out
        case .asyncAfter(let name, let delay, let inner):
            var out: [Action] = inner.indices.map { index in
                var fewer = inner
                fewer.remove(at: index)
                return .asyncAfter(name, delay: delay, fewer)
            }
            if delay > .zero { out.append(.asyncAfter(name, delay: delay > grid ? delay - grid : .zero, inner)) }
            return out
        case .run(.inMode(let mode, let seconds, let rash)):
            var out: [Action] = []
            if rash { out.append(.run(.inMode(mode, seconds: seconds, returnAfterSourceHandled: false))) }
            if seconds > 0 {
                let shorter = max(0, seconds - grid.secondsValue)
                out.append(.run(.inMode(mode, seconds: shorter, returnAfterSourceHandled: rash)))
            }
            return out
        case .run(.foundation(let mode, .fromNow(let delay))) where delay > .zero:
            return [.run(.foundation(mode, before: .fromNow(delay > grid ? delay - grid : .zero)))]
        case .run(.acceptInput(let mode, .fromNow(let delay))) where delay > .zero:
            return [.run(.acceptInput(mode, before: .fromNow(delay > grid ? delay - grid : .zero)))]
        case .run(.foundationUntil(.fromNow(let delay))) where delay > .zero:
            return [.run(.foundationUntil(.fromNow(delay > grid ? delay - grid : .zero)))]
        default: return []
        }
    }
}

extension Scenario {
    /// The scenario without the actions (at any depth) for which `drop` is true.
    func removingActions(_ drop: (Action) -> Bool) -> Scenario {
        func clean(_ list: [Action]) -> [Action] {
            list.compactMap { action in
                if drop(action) { return nil }
                switch action {
                case .performBlock(let name, let modes, let inner):
                    return .performBlock(name, modes: modes, clean(inner))
                case .ifHolds(let condition, let inner): return .ifHolds(condition, clean(inner))
                case .dealloc(let owner, let inner): return .dealloc(owner: owner, clean(inner))
                case .performOrdered(let task, let target, let order, let modes, let inner):
                    return .performOrdered(task: task, target: target, order: order, modes: modes, clean(inner))
                case .mainQueue(let name, let inner): return .mainQueue(name, clean(inner))
                case .mainActorTask(let name, let body): return .mainActorTask(name, clean(body))
                case .asyncAfter(let name, let delay, let inner): return .asyncAfter(name, delay: delay, clean(inner))
                case .performDelayed(let task, let target, let delay, let modes, let inner):
                    return .performDelayed(task: task, target: target, delay: delay, modes: modes, clean(inner))
                default: return action
                }
            }
        }
        var copy = self
        copy.threads = threads.map { thread in
            var thread = thread
            thread.program = clean(thread.program)
            thread.items = thread.items.map { item in
                var item = item
                func steps(_ list: [ScriptStep]) -> [ScriptStep] {
                    list.compactMap { step in
                        drop(step.action) ? nil : clean([step.action]).first.map { ScriptStep($0, when: step.when) }
                    }
                }
                item.script = steps(item.script)
                item.sourceCallouts.schedule = steps(item.sourceCallouts.schedule)
                item.sourceCallouts.cancel = steps(item.sourceCallouts.cancel)
                return item
            }
            return thread
        }
        copy.outside = outside.compactMap { event in
            var event = event
            event.actions = clean(event.actions)
            return event.actions.isEmpty ? nil : event
        }
        return copy
    }

    /// Every scenario with one action (in the program, a script or an outside event) replaced by one of its
    /// ``Action/variants``.
    func actionVariants() -> [Scenario] {
        var out: [Scenario] = []
        guard let thread = threads.first else { return out }
        for (index, action) in thread.program.enumerated() {
            for variant in action.variants {
                var copy = self
                copy.threads[0].program[index] = variant
                out.append(copy)
            }
        }
        for (i, item) in thread.items.enumerated() {
            for (j, step) in item.script.enumerated() {
                for variant in step.action.variants {
                    var copy = self
                    copy.threads[0].items[i].script[j].action = variant
                    out.append(copy)
                }
            }
        }
        for (i, event) in outside.enumerated() {
            for (j, action) in event.actions.enumerated() {
                for variant in action.variants {
                    var copy = self
                    copy.outside[i].actions[j] = variant
                    out.append(copy)
                }
            }
        }
        return out
    }
}
