/// Threads, their items and the script lines of the items' callouts.
extension LoopScriptPrinter.Lines {
    mutating func threads(_ threads: [ThreadSpec]) {
        for thread in threads {
            section()
            append(
                w("thread") + " " + thread.name + (thread.isMain ? " " + w("main") : "")
                    + (thread.isAsyncMain ? " " + w("async") : "")
                    + (thread.startsLater ? " " + w("later") : ""))
            if !thread.commonModes.isEmpty {
                append("  " + w("common") + " " + thread.commonModes.map(\.rawValue).joined(separator: ", "))
            }
            for item in thread.items { itemLines(item) }
            for action in thread.program { actionLines(action, indent: 1) }
        }
    }

    private mutating func itemLines(_ item: ItemSpec) {
        var line = "  "
        switch item.kind {
        case .source0(let order):
            line += w("source0") + " " + item.name + (order != 0 ? " " + w("order") + " \(order)" : "")
            let capacity = item.sourceCallouts.commandCapacity
            if capacity != SourceCallouts.defaultCommandCapacity { line += " " + w("commands") + " \(capacity)" }
        case .port:
            line += w("port") + " " + item.name
        case .timer(let first, let interval, let tolerance):
            line += w("timer") + " " + item.name + " "
            if let call = item.foundationTimer {
                // Foundation's call with its interval (`first`); it repeats when the CF interval is not 0.
                line += w(interval != .zero ? "every" : "interval") + " " + duration(first) + " " + w("foundation")
                line += " " + w(call.rawValue)
            } else {
                line += w("at") + " " + duration(first)
                if interval != .zero { line += " " + w("every") + " " + duration(interval) }
            }
            if tolerance != .zero { line += " " + w("tolerance") + " " + duration(tolerance) }
            if item.timerOrder != 0 { line += " " + w("order") + " \(item.timerOrder)" }
        case .observer(let activities, let repeats, let order):
            line += w("observer") + " " + item.name + " " + w("on") + " " + activityList(activities)
            if order != 0 { line += " " + w("order") + " \(order)" }
            if !repeats { line += " " + w("once") }
        }
        if item.modes != [.default] { line += " " + w("in") + " " + modeList(item.modes) }
        append(line)
        for step in item.sourceCallouts.schedule {
            stepLines(step, callout: w("on") + " " + w("schedule") + ": ")
        }
        for step in item.sourceCallouts.cancel { stepLines(step, callout: w("on") + " " + w("cancel") + ": ") }
        for step in item.script { stepLines(step, callout: "") }
    }

    /// A script line: `[on schedule: | on cancel:] [call N: | first N calls: | on ACTIVITIES:] ACTION`, with the
    /// action's block (and a `say`'s claims) under it.
    private mutating func stepLines(_ step: ScriptStep, callout: String) {
        let prefix: String
        switch step.when {
        case .always: prefix = ""
        case .call(let n): prefix = w("call") + " \(n): "
        case .callsThrough(let n): prefix = w("first") + " \(n) " + w("calls") + ": "
        case .activity(let activity): prefix = w("on") + " " + activityList(activity) + ": "
        }
        let first = lines.count
        actionLines(step.action, indent: 2)
        lines[first] = "    " + callout + prefix + lines[first].dropFirst(4)
    }
}
