/// A script with every line number set to 0: what two texts of one script share when their layout differs (a
/// printed or formatted file has its lines elsewhere). `loopviz fmt` writes a file only when its result, read back,
/// is the same script in this sense; the printer's round trip is tested by it.
extension LoopScript {
    package var withoutLines: LoopScript {
        var script = self
        script.expectations = expectations.map { expectation in
            var expectation = expectation
            expectation.line = 0
            expectation.steps = expectation.steps.map(\.withoutLine)
            return expectation
        }
        script.narration = narration.map { line in
            var line = line
            line.anchor = line.anchor.withoutLines
            return line
        }
        script.questions = questions.map { question in
            var question = question
            question.line = 0
            question.anchor = question.anchor.withoutLines
            question.choices = question.choices.map(\.withoutLine)
            return question
        }
        script.sayClaims = sayClaims.map { claims in
            var claims = claims
            claims.line = 0
            if case .narration(let anchor) = claims.anchor { claims.anchor = .narration(anchor.withoutLines) }
            claims.claims = claims.claims.map { NarrationClaim($0.reach, $0.step.withoutLine) }
            return claims
        }
        // The lint's warnings are about the script, not part of it, and each names where it points.
        script.warnings = []
        return script
    }
}

extension LoopScript {
    /// True when `other` is this script, line numbers aside. A `run … for nan` holds a NaN, which is equal to
    /// nothing, itself included: both sides have it replaced by a value no file can write (-infinity) first.
    package func isSame(as other: LoopScript) -> Bool {
        withoutLines.withoutNaN == other.withoutLines.withoutNaN
    }

    private var withoutNaN: LoopScript {
        var script = self
        func clean(_ actions: [Action]) -> [Action] { actions.map(\.withoutNaN) }
        func clean(_ steps: [ScriptStep]) -> [ScriptStep] {
            steps.map { ScriptStep($0.action.withoutNaN, when: $0.when) }
        }
        script.scenario.threads = scenario.threads.map { thread in
            var thread = thread
            thread.program = clean(thread.program)
            thread.items = thread.items.map { item in
                var item = item
                item.script = clean(item.script)
                item.sourceCallouts.schedule = clean(item.sourceCallouts.schedule)
                item.sourceCallouts.cancel = clean(item.sourceCallouts.cancel)
                return item
            }
            return thread
        }
        script.scenario.outside = scenario.outside.map { event in
            var event = event
            event.actions = clean(event.actions)
            return event
        }
        return script
    }
}

extension Action {
    fileprivate var withoutNaN: Action {
        func clean(_ actions: [Action]) -> [Action] { actions.map(\.withoutNaN) }
        switch self {
        case .run(.inMode(let mode, let seconds, let rash)) where seconds.isNaN:
            return .run(.inMode(mode, seconds: -.infinity, returnAfterSourceHandled: rash))
        case .performBlock(let name, let modes, let inner): return .performBlock(name, modes: modes, clean(inner))
        case .mainQueue(let name, let inner): return .mainQueue(name, clean(inner))
        case .mainActorTask(let name, let body): return .mainActorTask(name, clean(body))
        case .asyncAfter(let name, let delay, let inner): return .asyncAfter(name, delay: delay, clean(inner))
        case .performOn(let thread, let task, let wait, let inner):
            return .performOn(thread: thread, task: task, wait: wait, clean(inner))
        case .performOrdered(let task, let target, let order, let modes, let inner):
            return .performOrdered(task: task, target: target, order: order, modes: modes, clean(inner))
        case .performDelayed(let task, let target, let delay, let modes, let inner):
            return .performDelayed(task: task, target: target, delay: delay, modes: modes, clean(inner))
        case .detach(let task, let inner): return .detach(task: task, clean(inner))
        case .ifHolds(let condition, let inner): return .ifHolds(condition, clean(inner))
        case .dealloc(let owner, let inner): return .dealloc(owner: owner, clean(inner))
        default: return self
        }
    }
}

extension Expectation.Step {
    fileprivate var withoutLine: Expectation.Step {
        var step = self
        step.line = 0
        return step
    }
}

extension Narration.Anchor {
    fileprivate var withoutLines: Narration.Anchor {
        if case .after(let step) = self { return .after(step.withoutLine) }
        return self
    }
}
