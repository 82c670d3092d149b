import LoopEngine

/// Prints a scenario as `.loop` text, so that a fuzz case (a typed ``Scenario``) can be saved, read and replayed
/// by every other command. It covers what the fuzzer generates: threads (`later` too), an owner, a source's schedule
/// and cancel callouts and commands, ordered performs, no queues, no `expect` section;
/// `ScenarioParser.parse(loopText)` gives the same scenario back (FuzzTests checks the round trip).
extension Scenario {
    var loopText: String {
        var lines = ["scenario \(Self.quoted(name))"]
        if profile != .linux { lines.append("profile \(profile.rawValue)") }
        if iterationCost != VirtualWorld.defaultIterationCost {
            lines.append("iteration cost \(Self.duration(iterationCost))")
        }
        for owner in owners {
            lines.append("owner \(owner.name)" + (owner.weakName.map { " weak \($0)" } ?? ""))
        }
        let words = OwnerWords(owners: owners)
        for thread in threads {
            lines.append("")
            lines.append("thread \(thread.name)\(thread.isMain ? " main" : "")\(thread.startsLater ? " later" : "")")
            if !thread.commonModes.isEmpty {
                lines.append("  common " + thread.commonModes.map(\.rawValue).joined(separator: ", "))
            }
            for item in thread.items { lines += Self.itemLines(item, words) }
            for action in thread.program { lines += Self.actionLines(action, indent: 1, words) }
        }
        for event in outside {
            lines.append("")
            lines.append("at \(Self.duration(event.time)) on \(event.thread)")
            for action in event.actions { lines += Self.actionLines(action, indent: 1, words) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func itemLines(_ item: ItemSpec, _ words: OwnerWords) -> [String] {
        var line = "  "
        switch item.kind {
        case .source0(let order):
            line += "source0 \(item.name)" + (order != 0 ? " order \(order)" : "")
            let capacity = item.sourceCallouts.commandCapacity
            if capacity != SourceCallouts.defaultCommandCapacity { line += " commands \(capacity)" }
        case .port:
            line += "port \(item.name)"
        case .timer(let first, let interval, let tolerance):
            line += "timer \(item.name) at \(duration(first))"
            if interval != .zero { line += " every \(duration(interval))" }
            if tolerance != .zero { line += " tolerance \(duration(tolerance))" }
            if item.timerOrder != 0 { line += " order \(item.timerOrder)" }
        case .observer(let activities, let repeats, let order):
            line += "observer \(item.name) on \(activityList(activities))"
            if order != 0 { line += " order \(order)" }
            if !repeats { line += " once" }
        }
        if item.modes != [.default] { line += " in " + modeList(item.modes) }
        var lines = [line]
        func stepLines(_ step: ScriptStep, callout: String) -> [String] {
            let prefix: String
            switch step.when {
            case .always: prefix = ""
            case .call(let n): prefix = "call \(n): "
            case .callsThrough(let n): prefix = "first \(n) calls: "
            case .activity(let activity): prefix = "on \(activityList(activity)): "
            }
            var body = actionLines(step.action, indent: 2, words)
            body[0] = "    " + callout + prefix + body[0].dropFirst(4)
            return body
        }
        for step in item.sourceCallouts.schedule { lines += stepLines(step, callout: "on schedule: ") }
        for step in item.sourceCallouts.cancel { lines += stepLines(step, callout: "on cancel: ") }
        for step in item.script { lines += stepLines(step, callout: "") }
        return lines
    }

    private static func actionLines(_ action: Action, indent: Int, _ words: OwnerWords) -> [String] {
        let pad = String(repeating: "  ", count: indent)
        func nested(_ head: String, _ inner: [Action]) -> [String] {
            [pad + head] + inner.flatMap { actionLines($0, indent: indent + 1, words) }
        }
        switch action {
        case .work(let time): return [pad + "work \(duration(time))"]
        case .signal(let name): return [pad + "signal \(name)"]
        case .send(let name, let count): return [pad + "send \(name)" + (count != 1 ? " \(count) times" : "")]
        case .wakeUp: return [pad + "wakeup"]
        case .stop: return [pad + "stop"]
        case .stopMode(let mode): return [pad + "stop mode \(mode.rawValue)"]
        case .add(let name, let mode): return [pad + "add \(name) to \(mode.rawValue)"]
        case .remove(let name, let mode): return [pad + "remove \(name) from \(mode.rawValue)"]
        case .invalidate(let name): return [pad + "invalidate \(name)"]
        case .setNextFireDate(let name, let delay): return [pad + "reschedule \(name) in \(duration(delay))"]
        case .performBlock(let name, let modes, let inner):
            return nested("block \(name)" + (modes != [.default] ? " in " + modeList(modes) : ""), inner)
        case .mainQueue(let name, let inner): return nested("mainqueue \(name)", inner)
        case .addCommonMode(let mode): return [pad + "common \(mode.rawValue)"]
        case .run(let call): return [pad + runText(call, words)]
        case .setFlag(let flag): return [pad + "set \(flag)"]
        case .performOn(let thread, let task, let wait, let inner):
            return nested("perform \(task) on \(thread)" + (wait ? " wait" : ""), inner)
        case .note(let text): return [pad + "say \(quoted(text))"]
        case .detach(let task, let inner): return nested("detach \(task)", inner)
        case .addOperation, .cancelOperation, .cancelAll, .setSuspended, .setLimit, .finishOperation,
            .waitUntilAllFinished:
            // The fuzzer generates no queues (pools are compared with OperationQueue, not CFRunLoop).
            return [pad + "# (an operation-queue action: not printed)"]
        case .query(let question): return [pad + "query \(question.words)"]
        case .assign(let reference, let value): return [pad + (value ? "set " : "clear ") + words.text(reference)]
        case .ifHolds(let condition, let inner): return nested("if \(words.text(condition))", inner)
        case .dealloc(let owner, let inner): return nested("dealloc \(owner)", inner)
        case .sendTo(let thread, let port, let count):
            return [pad + "send \(port)" + (count != 1 ? " \(count) times" : "") + " on \(thread)"]
        case .start(let thread): return [pad + "start \(thread)"]
        case .performOrdered(let task, let target, let order, let modes, let inner):
            let head = "perform \(task) target \(target) order \(order)"
            return nested(head + (modes != [.default] ? " in " + modeList(modes) : ""), inner)
        case .cancelPerforms(let task?, let target): return [pad + "cancelPerform \(task) target \(target)"]
        case .cancelPerforms(nil, let target): return [pad + "cancelPerforms target \(target)"]
        case .post(let command, let source): return [pad + "post \(command) to \(source)"]
        case .wakeUpThread(let thread): return [pad + "wakeup on \(thread)"]
        case .performDelayed, .cancelDelayedPerforms, .addOn, .removeOn:
            // Not generated (delayed performs, one item in two loops): see docs/fuzzing.md.
            return [pad + "# (an action the fuzzer does not generate: not printed)"]
        }
    }

    private static func runText(_ call: RunCall, _ words: OwnerWords) -> String {
        switch call {
        case .inMode(let mode, let seconds, let rash):
            let limit = Duration.nanoseconds(Int64((seconds * 1e9).rounded()))
            return "run \(mode.rawValue) for \(duration(limit))" + (rash ? " returnAfterSourceHandled" : "")
        case .untilStopped: return "CFRunLoopRun"
        case .foundation(let mode, let before): return "RunLoop.run \(mode.rawValue) before \(date(before))"
        case .foundationUntil(let limit): return "RunLoop.run until \(date(limit))"
        case .acceptInput(let mode, let before): return "RunLoop.acceptInput \(mode.rawValue) before \(date(before))"
        case .foundationForever: return "RunLoop.run"
        case .whileNot(let flag, let mode): return "while not \(flag) RunLoop.run \(mode.rawValue)"
        case .whileHolds(let condition, let mode): return "while \(words.text(condition)) RunLoop.run \(mode.rawValue)"
        }
    }

    private static func date(_ date: FoundationDate) -> String {
        switch date {
        case .fromNow(let delay): duration(delay)
        case .sinceStart(let time): "at \(duration(time))"
        case .distantPast: "distantPast"
        case .distantFuture: "distantFuture"
        }
    }

    /// Whole milliseconds when it is some, else nanoseconds: always exact.
    static func duration(_ value: Duration) -> String {
        let nanoseconds = value.nanosecondsClamped
        return nanoseconds % 1_000_000 == 0 ? "\(nanoseconds / 1_000_000)ms" : "\(nanoseconds)ns"
    }

    private static func modeList(_ modes: [ModeName]) -> String {
        modes.isEmpty ? "nothing" : modes.map(\.rawValue).joined(separator: ", ")
    }

    private static func activityList(_ activities: Activity) -> String {
        if activities == .allActivities { return "all" }
        return Activity.each.filter { activities.contains($0) }.map(\.description).joined(separator: ", ")
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}

/// How a condition and a flag read in `.loop` text: an owner's property through the owner (`vc.stopped`) or its weak
/// reference (`weakSelf.stopped`), the weak reference alone for "the owner is alive".
private struct OwnerWords {
    let owners: [OwnerSpec]

    func weakName(_ owner: String) -> String {
        owners.first { $0.name == owner }?.weakName ?? owner
    }

    func text(_ reference: FlagReference) -> String {
        switch reference {
        case .flag(let name): name
        case .property(let owner, let name, let weak): "\(weak ? weakName(owner) : owner).\(name)"
        }
    }

    func text(_ condition: Condition) -> String {
        switch condition {
        case .isSet(let reference): text(reference)
        case .ownerAlive(let owner): weakName(owner)
        case .not(let inner): "not " + text(inner)
        case .all(let terms): terms.map(text).joined(separator: " and ")
        }
    }
}
