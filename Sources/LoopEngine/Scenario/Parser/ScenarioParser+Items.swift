/// The parser: threads and their items.
extension ScenarioParserState {
    func parseThread(_ node: Node) -> ThreadSpec? {
        var cursor = TokenCursor(node.line)
        _ = cursor.next()
        guard let nameToken = expectWord(&cursor, what: .threadName) else { return nil }
        let name = nameToken.text
        let isMain = cursor.accept("main")
        let later = !isMain && cursor.accept("later")
        // `thread NAME main async`: the program is an `async` `main` (docs/concurrency.md, "The async main").
        var isAsyncMain = false
        if let token = cursor.peek, token.isWord("async") {
            _ = cursor.next()
            if isMain { isAsyncMain = true } else { error(node.line, at: token, .asyncWithoutMain) }
        }
        finish(&cursor)
        if threadNameSet.contains(name) {
            error(node.line, at: nameToken, .duplicateThread(name))
            return nil
        }
        threadNames.append(name)
        threadNameSet.insert(name)
        if isMain { mainThreads.insert(name) }
        if later { laterThreads.insert(name) }
        items[name] = [:]
        var spec = ThreadSpec(name: name, isMain: isMain, items: [], program: [], startsLater: later)
        spec.isAsyncMain = isAsyncMain
        var programNodes: [Node] = []
        for child in node.children {
            let first = child.line.tokens[0]
            switch first.isWord ? first.text : "" {
            case let word where ScenarioKeywords.items.contains(word):
                spec.items += parseItems(child, thread: name)
            case "common" where programNodes.isEmpty:
                var cursor = TokenCursor(child.line)
                _ = cursor.next()
                spec.commonModes += parseModeList(&cursor, child.line, allowCommon: false)
                finish(&cursor)
                rejectChildren(child, of: "common")
            default:
                programNodes.append(child)
            }
        }
        // An async main's body is a main-actor task's: `await` may be a line of it.
        if isAsyncMain { taskBodyLines.formUnion(programNodes.map(\.line.number)) }
        spec.program = parseActions(programNodes, thread: name, context: .program(isMain: isMain))
        if node.children.isEmpty {
            error(node.line, at: nameToken, .threadWithoutContent(name))
        }
        return spec
    }

    /// The kind of item an item line's keyword (one of ``ScenarioKeywords/items``) declares.
    static func itemKind(_ keyword: String) -> ItemClass {
        switch keyword {
        case "source0": .source0
        case "port": .port
        case "timer": .timer
        default: .observer
        }
    }

    /// An item line: one item, or one per name of a range (`port p1..128`), each with the same clauses and
    /// script.
    func parseItems(_ node: Node, thread: String) -> [ItemSpec] {
        var cursor = TokenCursor(node.line)
        let keyword = cursor.next()!
        guard let nameToken = expectWord(&cursor, what: .name(of: Self.itemKind(keyword.text))) else { return [] }
        guard let names = expandRange(nameToken, node.line) else { return [] }
        for name in names {
            if items[thread]?[name] != nil {
                error(node.line, at: nameToken, .duplicateItem(name, thread: thread))
                break
            }
        }
        if Self.reserved.contains(nameToken.text) {
            error(node.line, at: nameToken, .keywordAsName(nameToken.text))
        }
        guard let item = parseItem(&cursor, node, keyword: keyword, names: names, thread: thread) else { return [] }
        if names.count == 1 { return [item] }
        return names.map { name in
            var copy = item
            copy.name = name
            return copy
        }
    }

    /// The clauses and script of an item line; `names` are the names it stands for (the first names the result).
    private func parseItem(
        _ cursor: inout TokenCursor, _ node: Node, keyword: ScenarioToken, names: [String], thread: String
    ) -> ItemSpec? {
        let name = names[0]
        let nameToken = cursor.last!
        var modes: [ModeName] = [.default]
        var order = 0
        var first: Duration?
        var interval = Duration.zero
        var tolerance = Duration.zero
        var activities: Activity?
        var repeats = true
        var foundation: FoundationTimerCall?
        var capacity = SourceCallouts.defaultCommandCapacity
        var seen: Set<String> = []
        var modesColumn = nameToken.column
        let kind = Self.itemKind(keyword.text)
        let allowedClauses = ScenarioKeywords.itemClauses[keyword.text] ?? []
        while let clause = cursor.next() {
            guard clause.isWord, allowedClauses.contains(clause.text) else {
                // Only what may still come: a clause already given is not expected again.
                error(
                    node.line, at: clause,
                    .unexpectedItemClause(
                        clause.text, item: keyword.text, stillAllowed: allowedClauses.filter { !seen.contains($0) },
                        modesGiven: seen.contains("in")))
                break
            }
            if !seen.insert(clause.text).inserted {
                error(node.line, at: clause, .givenTwice(clause.text))
            }
            switch clause.text {
            case "order":
                if let value = expectInteger(&cursor, node.line, what: .itemOrder) { order = value }
            case "in":
                modesColumn = cursor.peek?.column ?? modesColumn
                modes = parseModeList(&cursor, node.line, allowCommon: true, allowNothing: true)
            case "at":
                // Negative: a fire date before the start, which CF reads as "now" when the timer is created.
                first = expectDuration(&cursor, what: .firstFire, allowNegative: true)
            case "every":
                // Zero or negative: CF stores an interval of 0, a one-shot timer (docs/cfrunloop.md §9.5).
                if let value = expectDuration(&cursor, what: .repeatInterval, allowNegative: true) {
                    interval = value
                }
            case "tolerance":
                tolerance = expectDuration(&cursor, what: .tolerance) ?? .zero
            case "on":
                activities = parseActivities(&cursor, node.line)
            case "commands":
                capacity = parseCommandCapacity(&cursor, node.line) ?? capacity
            case "interval":
                // A Foundation timer's `timeInterval` with `repeats: false`.
                if let value = expectDuration(&cursor, what: .repeatInterval, allowNegative: true) { first = value }
            case "foundation":
                foundation = parseFoundationCall(&cursor, node.line, at: clause)
            default:
                repeats = false
            }
        }
        for each in names { items[thread]?[each] = kind }
        for mode in modes {
            lint.declarations.append(.init(mode: mode, items: names, line: node.line, column: modesColumn))
        }
        var (scriptNodes, callouts) = parseSourceScripts(node.children, thread: thread, kind: kind)
        callouts.commandCapacity = capacity
        let script = parseScript(scriptNodes, thread: thread, isObserver: kind == .observer)
        switch kind {
        case .source0:
            var item = ItemSpec.source0(name, order: order, modes: modes, script)
            item.sourceCallouts = callouts
            return item
        case .port:
            return .port(name, modes: modes, script)
        case .timer:
            if seen.contains("foundation") || seen.contains("interval") {
                return foundationTimer(
                    name, foundation, seen: seen, interval: seen.contains("every") ? interval : first,
                    tolerance: tolerance, modes: modes, script, node.line, at: nameToken)
            }
            guard let first else {
                if !seen.contains("at") {
                    error(node.line, at: nameToken, .timerWithoutFirstFire(name))
                }
                return nil
            }
            return .timer(
                name, first: first, every: interval, tolerance: tolerance, order: order, modes: modes, script)
        case .observer:
            guard let activities else {
                if seen.contains("on") { return nil }
                error(node.line, at: nameToken, .observerWithoutActivities(name))
                return nil
            }
            return .observer(name, activities, repeats: repeats, order: order, modes: modes, script)
        }
    }

    /// The call after `foundation`: `init` or `scheduled`.
    private func parseFoundationCall(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, at clause: ScenarioToken
    ) -> FoundationTimerCall? {
        if cursor.accept("init") { return .initializer }
        if cursor.accept("scheduled") { return .scheduled }
        error(line, at: cursor.peek ?? clause, .foundationTimerForm)
        _ = cursor.next()
        return nil
    }

    /// A `timer` line naming its Foundation call: `every D` (`repeats: true`) or `interval D` (`repeats:
    /// false`), no `at` (the call dates it) nor `order` (Foundation's is 0), and `foundation scheduled` is in the
    /// default mode only, as `scheduledTimer` adds it there.
    private func foundationTimer(
        _ name: String, _ call: FoundationTimerCall?, seen: Set<String>, interval: Duration?, tolerance: Duration,
        modes: [ModeName], _ script: [ScriptStep], _ line: ScenarioLine, at nameToken: ScenarioToken
    ) -> ItemSpec? {
        guard let call else {
            if !seen.contains("foundation") { error(line, at: nameToken, .foundationTimerForm) }
            return nil
        }
        let wellFormed =
            seen.contains("every") != seen.contains("interval") && !seen.contains("at") && !seen.contains("order")
            && (call == .initializer || modes == [.default])
        guard wellFormed, let interval else {
            error(line, at: nameToken, .foundationTimerForm)
            return nil
        }
        return .foundationTimer(
            name, call, interval: interval, repeats: seen.contains("every"), tolerance: tolerance, modes: modes,
            script)
    }

    static let reserved: Set<String> = [
        "default", "common", "nothing", "main", "on", "in", "at", "every", "order", "once", "to", "from", "for",
    ]
}
