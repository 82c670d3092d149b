/// The parser: callout scripts and actions.
extension ScenarioParserState {
    enum Context: Equatable {
        case program(isMain: Bool)
        case callout(isMain: Bool)
        case outside

        var isMain: Bool {
            switch self {
            case .program(let isMain), .callout(let isMain): isMain
            case .outside: false
            }
        }
    }

    func isMainThread(_ thread: String) -> Bool { mainThreads.contains(thread) }

    /// A callout's lines: `[condition:] action`.
    func parseScript(_ nodes: [Node], thread: String, isObserver: Bool) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        previousNote = nil
        for node in nodes {
            var cursor = TokenCursor(node.line)
            var when = ScriptStep.When.always
            if let colon = node.line.tokens.firstIndex(where: { $0.isPunctuation(":") }), colon > 0 {
                when = parseCondition(Array(node.line.tokens[..<colon]), node.line, isObserver: isObserver) ?? .always
                cursor.index = colon + 1
            }
            for action in parseAction(&cursor, node, thread: thread, context: .callout(isMain: false)) {
                steps.append(ScriptStep(action, when: when))
            }
        }
        return steps
    }

    func parseCondition(_ tokens: [ScenarioToken], _ line: ScenarioLine, isObserver: Bool) -> ScriptStep.When? {
        var cursor = TokenCursor(line)
        cursor.tokens = tokens
        guard let first = cursor.next() else { return nil }
        let word = first.isWord ? first.text : ""
        switch ScenarioKeywords.conditions.contains(word) ? word : "" {
        case "call":
            guard let number = expectInteger(&cursor, line, what: .callNumber) else { return nil }
            if number < 1 { error(line, at: first, .callsCountedFromOne) }
            finish(&cursor)
            return .call(number)
        case "first":
            guard let number = expectInteger(&cursor, line, what: .callCount) else {
                return nil
            }
            if number < 1 { error(line, at: first, .callsCountedFromOne) }
            if !cursor.accept("calls") && !cursor.accept("call") {
                error(line, at: cursor.peek, .callsWordMissing)
            }
            finish(&cursor)
            return .callsThrough(number)
        case "on":
            if !isObserver {
                error(line, at: first, .activityConditionOutsideObserver)
                return nil
            }
            let activities = parseActivities(&cursor, line)
            finish(&cursor)
            return activities.map { .activity($0) }
        default:
            error(line, at: first, .unknownCondition)
            return nil
        }
    }

    func parseActions(_ nodes: [Node], thread: String, context: Context) -> [Action] {
        var actions: [Action] = []
        previousNote = nil
        for node in nodes {
            var cursor = TokenCursor(node.line)
            actions += parseAction(&cursor, node, thread: thread, context: context)
        }
        return actions
    }

    /// One action line (and its block, for `block`, `mainqueue` and `perform`).
    func parseAction(_ cursor: inout TokenCursor, _ node: Node, thread: String, context: Context) -> [Action] {
        let line = node.line
        guard let keyword = cursor.next() else {
            error(line, line.text.count + 1, .actionMissingAfterColon)
            return []
        }
        let takesClaims = keyword.isWord("say") || keyword.isWord("note")
        if !ScenarioKeywords.takingBlocks.contains(keyword.text) && !takesClaims {
            rejectChildren(node, of: keyword.text)
        }
        var result: [Action] = []
        defer { finish(&cursor) }
        let word = keyword.isWord ? keyword.text : ""
        guard ScenarioKeywords.actions.contains(word) else {
            error(line, at: keyword, .unknownAction(keyword.text))
            return []
        }
        switch word {
        case "work":
            if let duration = expectDuration(&cursor, what: .workDuration) {
                result = [.work(duration)]
            }
        case "signal":
            // A port may be signalled too: CF takes the signal and ignores it (the trace says so).
            if let names = references(&cursor, line, thread: thread, allowed: [.source0, .port], what: .source0OrPort) {
                result = names.map { .signal($0) }
            }
        case "send":
            let firstReference = references.count
            if let names = references(&cursor, line, thread: thread, allowed: [.port], what: .port) {
                var count = 1
                if let value = cursor.peekInteger {
                    _ = cursor.next()
                    count = value
                    if count < 1 { error(line, at: cursor.last, .sendNoMessage) }
                    if !cursor.accept("times") && !cursor.accept("time") {
                        error(line, at: cursor.peek, .sendTimesMissing)
                    }
                }
                result = parseSendTarget(
                    &cursor, line, thread: thread, names: names, count: count, firstReference: firstReference)
            }
        case "start":
            result = parseStart(&cursor, line)
        case "wakeup":
            result = parseWakeUp(&cursor, line, thread: thread)
        case "wake":
            if !cursor.accept("up") { error(line, at: cursor.peek, .wakeWithoutUp) }
            result = parseWakeUp(&cursor, line, thread: thread)
        case "stop":
            if cursor.accept("mode") {
                if let mode = expectMode(&cursor, line, allowCommon: false) { result = [.stopMode(mode)] }
            } else {
                result = [.stop]
            }
        case "add", "remove":
            let preposition = keyword.text == "add" ? "to" : "from"
            if let names = references(
                &cursor, line, thread: thread, allowed: [.source0, .port, .timer, .observer], what: .item)
            {
                if !cursor.accept(preposition) {
                    error(line, at: cursor.peek, .modePrepositionMissing(preposition))
                } else if let mode = expectMode(&cursor, line, allowCommon: true) {
                    if keyword.text == "add", let token = cursor.last {
                        lint.additions.append(.init(mode: mode, items: names, line: line, column: token.column))
                    }
                    result = parseItemTarget(
                        &cursor, line, thread: thread, names: names, adding: keyword.text == "add", mode: mode)
                }
            }
        case "post":
            result = parsePost(&cursor, line, thread: thread)
        case "invalidate":
            if let names = references(
                &cursor, line, thread: thread, allowed: [.source0, .port, .timer, .observer], what: .item)
            {
                result = names.map { .invalidate($0) }
            }
        case "fire":
            if let names = references(&cursor, line, thread: thread, allowed: [.timer], what: .timer) {
                result = names.map { .fire($0) }
            }
        case "reschedule":
            if let names = references(&cursor, line, thread: thread, allowed: [.timer], what: .timer) {
                if !cursor.accept("in") {
                    error(line, at: cursor.peek, .rescheduleWithoutIn)
                } else if let delay = expectDuration(&cursor, what: .rescheduleDelay, allowNegative: true) {
                    result = names.map { .setNextFireDate($0, after: delay) }
                }
            }
        case "block":
            guard let name = expectWord(&cursor, what: .blockName) else { return [] }
            var modes: [ModeName] = [.default]
            if cursor.accept("in") { modes = parseModeList(&cursor, line, allowCommon: true) }
            result = [
                .performBlock(
                    name.text, modes: modes, parseActions(node.children, thread: thread, context: inner(context)))
            ]
        case "mainqueue":
            guard let name = expectWord(&cursor, what: .mainQueueBlockName) else { return [] }
            // DispatchQueue.main.async from any thread: the main thread's loop runs the block.
            mainQueueUses.append((line, keyword.column))
            result = [.mainQueue(name.text, parseActions(node.children, thread: thread, context: inner(context)))]
        case "mainactor":
            guard let name = expectWord(&cursor, what: .mainActorTaskName) else { return [] }
            // Task { @MainActor in … }: its jobs are main-queue items (docs/concurrency.md).
            mainQueueUses.append((line, keyword.column))
            taskBodyLines.formUnion(node.children.map(\.line.number))
            result = [.mainActorTask(name.text, parseActions(node.children, thread: thread, context: inner(context)))]
        case "await":
            result = parseAwait(&cursor, line, keyword)
        case "asyncafter":
            guard let delay = expectDuration(&cursor, what: .asyncAfterDelay) else { return [] }
            guard let name = expectWord(&cursor, what: .asyncAfterBlockName) else { return [] }
            mainQueueUses.append((line, keyword.column))
            result = [
                .asyncAfter(
                    name.text, delay: delay, parseActions(node.children, thread: thread, context: inner(context)))
            ]
        case "common":
            if let mode = expectMode(&cursor, line, allowCommon: false) { result = [.addCommonMode(mode)] }
        case "set", "clear":
            result = parseAssignment(keyword, &cursor, line)
        case "if":
            result = parseIf(&cursor, node, thread: thread, context: context)
        case "dealloc":
            result = parseDealloc(&cursor, node, thread: thread, context: context)
        case "perform":
            guard let task = expectWord(&cursor, what: .taskName) else { return [] }
            if let next = cursor.peek, next.isWord("target") || next.isWord("order") || next.isWord("afterDelay") {
                result = parseOrderedPerform(task, keyword: keyword, &cursor, node, thread: thread, context: context)
                break
            }
            guard cursor.accept("on") else {
                error(line, at: cursor.peek, .performWithoutOn)
                return []
            }
            guard let target = expectWord(&cursor, what: .performThread) else { return [] }
            if !threadNameSet.contains(target.text) { threadReferences.append((target.text, line, target.column)) }
            let wait = cursor.accept("wait")
            if context == .outside {
                error(line, at: keyword, .performFromOutside)
            }
            let body = parseActions(node.children, thread: target.text, context: .callout(isMain: false))
            result = [.performOn(thread: target.text, task: task.text, wait: wait, body)]
        case let word where ScenarioKeywords.poolActions.contains(word):
            result = parsePoolAction(keyword, &cursor, node, thread: thread, context: context)
        case "cancelPerform", "cancelPerforms":
            result = parseCancelPerform(keyword, &cursor, line)
        case "cancelPrevious":
            result = parseCancelPrevious(keyword, &cursor, line, context: context)
        case "say", "note":
            result = parseNote(&cursor, line, previous: previousNote)
            // Claims under a translation are about the note it translates.
            let said = previousNote
            parseSayClaims(node, anchor: said.map { .note($0) }, text: said)
        case "query":
            result = parseQueryAction(&cursor, line, thread: thread)
        case "run", "CFRunLoopRun", "RunLoop.run", "RunLoop.acceptInput", "while":
            if context == .outside {
                error(line, at: keyword, .runFromOutside)
            }
            if let call = parseRun(keyword, &cursor, line) {
                result = [.run(call)]
                noteRun(call.mode, keyword, line)
            }
        default:
            assertionFailure("the action '\(word)' of ScenarioKeywords has no case here")
        }
        if word != "say" && word != "note" { previousNote = nil }
        return result
    }

    private func inner(_ context: Context) -> Context {
        context == .outside ? .outside : .callout(isMain: context.isMain)
    }

    func parseRun(_ keyword: ScenarioToken, _ cursor: inout TokenCursor, _ line: ScenarioLine) -> RunCall? {
        switch keyword.text {
        case "CFRunLoopRun":
            return .untilStopped
        case "RunLoop.run":
            if cursor.accept("until") { return parseDate(&cursor, line).map { .foundationUntil($0) } }
            guard let mode = cursor.peek?.isWord == true ? expectMode(&cursor, line, allowCommon: true) : nil else {
                return .foundationForever
            }
            if let until = cursor.peek, until.isWord("until") {
                _ = cursor.next()
                guard mode == .default else {
                    error(line, at: until, .runUntilInOtherMode(mode))
                    return nil
                }
                return parseDate(&cursor, line).map { .foundationUntil($0) }
            }
            guard cursor.accept("before") else {
                error(line, at: cursor.peek, .runLoopRunWithoutBefore)
                return nil
            }
            return parseDate(&cursor, line).map { .foundation(mode, before: $0) }
        case "RunLoop.acceptInput":
            guard let mode = expectMode(&cursor, line, allowCommon: true) else { return nil }
            guard cursor.accept("before") else {
                error(line, at: cursor.peek, .acceptInputWithoutBefore)
                return nil
            }
            return parseDate(&cursor, line).map { .acceptInput(mode, before: $0) }
        case "while":
            guard let condition = parseCondition(&cursor, line, endingAt: "RunLoop.run") else { return nil }
            // `while not FLAG`: the flag is the last word of the condition.
            if case .not(.isSet(let reference)) = condition, let token = cursor.last {
                flagsRead.append((reference.key, line, token.column))
            }
            _ = cursor.accept("RunLoop.run")
            let mode = cursor.peek == nil ? .default : expectMode(&cursor, line, allowCommon: true)
            if case .not(.isSet(.flag(let flag))) = condition { return mode.map { .whileNot(flag: flag, mode: $0) } }
            return mode.map { .whileHolds(condition, mode: $0) }
        default:
            guard let mode = expectMode(&cursor, line, allowCommon: true) else { return nil }
            if cursor.accept("forever") {
                return .inMode(
                    mode, seconds: 1.0e10, returnAfterSourceHandled: cursor.accept("returnAfterSourceHandled"))
            }
            guard cursor.accept("for") else {
                error(line, at: cursor.peek, .runWithoutFor(mode))
                return nil
            }
            // `inf` and `nan` are the seconds CF is given as they are: both mean no time limit there.
            let special: Double? = cursor.accept("inf") ? .infinity : cursor.accept("nan") ? .nan : nil
            guard
                let seconds = special
                    ?? expectDuration(&cursor, what: .runTimeLimit, allowNegative: true)?
                    .secondsValue
            else { return nil }
            let rash = cursor.accept("returnAfterSourceHandled")
            return .inMode(mode, seconds: seconds, returnAfterSourceHandled: rash)
        }
    }

    /// A Foundation date: `250ms` or `-100ms` (from the call; negative: in the past), `now`, `at 2s` (since the
    /// scenario start), `distantPast` or `distantFuture`.
    func parseDate(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> FoundationDate? {
        if cursor.accept("distantFuture") { return .distantFuture }
        if cursor.accept("distantPast") { return .distantPast }
        if cursor.accept("now") { return .fromNow(.zero) }
        if cursor.accept("at") {
            return expectDuration(&cursor, what: .dateSinceStart).map { .sinceStart($0) }
        }
        if let token = cursor.peek, token.isWord, token.text == "nil" {
            // Swift's Foundation takes a `Date` here, not `Date?` (docs/cfrunloop.md §9.5).
            error(line, at: token, .nilDate)
            return nil
        }
        guard let token = cursor.peek, case .number = token.kind else {
            error(line, at: cursor.peek, .expectedDate)
            return nil
        }
        _ = cursor.next()
        return duration(token, line).map { .fromNow($0) }
    }
}
