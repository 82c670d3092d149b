/// The parser: a version-0 source's schedule and cancel callouts (`on schedule: …`, `on cancel: …` under the
/// source) and its command queue (`commands N`, `post CMD to SOURCE`), docs/cfrunloop.md §18.
extension ScenarioParserState {
    /// The messages of this part of the language, each in one place.
    enum SourceCalloutProblem {
        static let portHasNone = ScenarioProblem.portHasNoCallouts
        static func capacity(_ value: Int) -> ScenarioProblem { .commandCapacity(value) }
        static let expectedTo = ScenarioProblem.postWithoutTo
    }

    /// Which callout a script line of an item belongs to: `on schedule:` and `on cancel:` lines are the
    /// source's callouts, every other line its perform (or the item's one callout).
    enum SourceCalloutLine { case perform, schedule, cancel }

    func sourceCalloutLine(_ node: Node) -> SourceCalloutLine {
        let tokens = node.line.tokens
        guard tokens.count >= 3, tokens[0].isWord, tokens[0].text == "on", tokens[1].isWord,
            tokens[2].isPunctuation(":")
        else { return .perform }
        switch tokens[1].text {
        case "schedule": return .schedule
        case "cancel": return .cancel
        default: return .perform
        }
    }

    /// Splits an item's lines into its perform script and its schedule and cancel scripts. Only a source0 has
    /// the two callouts; on a port they are an error.
    func parseSourceScripts(_ nodes: [Node], thread: String, kind: ItemClass) -> ([Node], SourceCallouts) {
        var performNodes: [Node] = []
        var callouts = SourceCallouts()
        for node in nodes {
            let which = kind == .source0 || kind == .port ? sourceCalloutLine(node) : .perform
            if which == .perform {
                performNodes.append(node)
                continue
            }
            if kind == .port {
                error(node.line, at: node.line.tokens[1], SourceCalloutProblem.portHasNone)
                continue
            }
            var cursor = TokenCursor(node.line)
            cursor.index = 3
            previousNote = nil
            // `on schedule: call 2: …`: the callout's own calls, counted apart from the perform's.
            var when = ScriptStep.When.always
            let tokens = node.line.tokens
            if let colon = tokens[3...].firstIndex(where: { $0.isPunctuation(":") }), colon > 3 {
                when = parseCondition(Array(tokens[3..<colon]), node.line, isObserver: false) ?? .always
                cursor.index = colon + 1
            }
            let steps = parseAction(&cursor, node, thread: thread, context: .callout(isMain: false)).map {
                ScriptStep($0, when: when)
            }
            if which == .schedule { callouts.schedule += steps } else { callouts.cancel += steps }
        }
        return (performNodes, callouts)
    }

    /// `commands N` after a source0's name: its queue's capacity.
    func parseCommandCapacity(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Int? {
        guard let value = expectInteger(&cursor, line, what: .commandCapacity) else { return nil }
        guard (1...SourceCallouts.maxCommandCapacity).contains(value) else {
            error(line, at: cursor.last, SourceCalloutProblem.capacity(value))
            return nil
        }
        return value
    }

    /// `wakeup [on THREAD]`: this loop, or another thread's (the client of a custom source wakes the source's
    /// loop).
    func parseWakeUp(_ cursor: inout TokenCursor, _ line: ScenarioLine, thread: String) -> [Action] {
        guard cursor.accept("on") else { return [.wakeUp] }
        guard let target = expectWord(&cursor, what: .wakeupThread) else { return [] }
        if !threadNameSet.contains(target.text) { threadReferences.append((target.text, line, target.column)) }
        return target.text == thread ? [.wakeUp] : [.wakeUpThread(target.text)]
    }

    /// `post CMD to SOURCE`: a client adds a command to a source0's queue.
    func parsePost(_ cursor: inout TokenCursor, _ line: ScenarioLine, thread: String) -> [Action] {
        guard let command = expectWord(&cursor, what: .commandName) else { return [] }
        guard cursor.accept("to") else {
            error(line, at: cursor.peek, SourceCalloutProblem.expectedTo)
            return []
        }
        guard let names = references(&cursor, line, thread: thread, allowed: [.source0], what: .source0)
        else { return [] }
        return names.map { .post(command: command.text, source: $0) }
    }
}
