/// Parses the `.loop` scenario language into a ``LoopScript``.
///
/// The language — its grammar, every construct with an example, and every diagnostic this parser gives — is
/// described once, in docs/language.md. The words it knows are listed in `ScenarioKeywords`.
///
/// It reports every problem of a file at once, each with its file, line and column, rather than stopping at the
/// first: a lesson's author fixes them in one pass.
///
/// A `say` line is tied to one event of the trace, never to a time alone: it is shown from that event on (until
/// the next line's event), so it never describes what has not happened yet on screen. `say "…" at TIME` is the
/// first event at TIME or later, `say "…" after EVENT` the first event matching EVENT (written and matched as an
/// `expect` line is: `after 0.370 timer tick`, `after worker: sleep`), `say "…" at step N` the N-th event. A line
/// whose event never happens is never shown.
public enum ScenarioParser {
    /// Parses `source`; `file` names it in diagnostics.
    /// - Throws: every problem found, each with its line and column.
    public static func parse(_ source: String, file: String = "<input>") throws(ScenarioDiagnostics) -> LoopScript {
        let parser = ScenarioParserState(file: file)
        // A byte-order mark, which some editors write at the start of a UTF-8 file, is no part of the text.
        if source.unicodeScalars.first == "\u{FEFF}" {
            return try parser.parse(String(source.unicodeScalars.dropFirst()))
        }
        return try parser.parse(source)
    }
}

/// The parser's working state: the block tree, the symbol table and the diagnostics found so far.
final class ScenarioParserState {
    final class Node {
        let line: ScenarioLine
        var children: [Node] = []
        init(line: ScenarioLine) { self.line = line }
    }

    /// An item name used by an action, checked once every item is known.
    struct Reference {
        var thread: String
        var name: String
        var allowed: Set<ItemClass>
        var what: String
        var line: ScenarioLine
        var column: Int
    }

    enum ItemClass: String {
        case source0 = "version-0 source"
        case port
        case timer
        case observer
    }

    let file: String
    /// The first diagnostics by position, and how many there are (bounded memory for any input).
    var diagnostics = DiagnosticCollector()
    /// Lines that already have an error: follow-on complaints about the same line are noise.
    var linesWithErrors: Set<Int> = []
    var lineTexts: [Int: String] = [:]
    var items: [String: [String: ItemClass]] = [:]
    var references: [Reference] = []
    var threadNames: [String] = []
    /// The same names, for lookups in O(1) (a file may declare thousands of threads).
    var threadNameSet: Set<String> = []
    var threadReferences: [(name: String, line: ScenarioLine, column: Int)] = []
    var flagsSet: Set<String> = []
    var flagsRead: [(name: String, line: ScenarioLine, column: Int)] = []
    /// The pool model: queues declared (and the line of each), queue names used by actions, operations added and
    /// the operation names used, detached threads, and the threads `expect` lines name.
    var queues: [QueueSpec] = []
    var queueLines: [String: Int] = [:]
    var queueNameTokens: [(name: String, line: ScenarioLine, column: Int)] = []
    var queueUses: [(name: String, line: ScenarioLine, column: Int)] = []
    var operationDefinitions: [String: OperationDefinition] = [:]
    var operationOrder: [String] = []
    var operationUses: [OperationReference] = []
    var detachedTasks: Set<String> = []
    /// How many names the ranges of the file have stood for so far (bounded: see `maxExpandedNames`).
    var expandedNames = 0
    var expectedThreads: [(name: String, line: ScenarioLine, column: Int)] = []
    /// The text of the `say` action just parsed in the current block, which a `say zh "…"` on the next line
    /// translates; nil after any other action.
    var previousNote: String?
    /// `say zh "…"` actions, per language, by the English text they translate.
    var noteTranslations: [Language: [String: String]] = [:]

    init(file: String) {
        self.file = file
    }

    // MARK: - Diagnostics

    /// Records a problem. The message is built only if the diagnostic is kept (see ``DiagnosticCollector``), and
    /// every value interpolated into it is shown terminal-safe and bounded (see ``DiagnosticMessage``).
    func error(_ line: ScenarioLine, _ column: Int, _ message: @autoclosure () -> DiagnosticMessage) {
        linesWithErrors.insert(line.number)
        diagnostics.add(file: file, line: line.number, column: column, message: message, sourceLine: line.text)
    }

    func error(_ line: ScenarioLine, at token: ScenarioToken?, _ message: @autoclosure () -> DiagnosticMessage) {
        error(line, token?.column ?? (line.text.count + 1), message())
    }

    // MARK: - Entry

    func parse(_ source: String) throws(ScenarioDiagnostics) -> LoopScript {
        let (lines, header) = ScenarioLexer.lines(of: source) { number, column, text, message in
            linesWithErrors.insert(number)
            diagnostics.add(file: file, line: number, column: column, message: message, sourceLine: text)
        }
        let roots = tree(lines)
        var name: String?
        var profile = PlatformProfile.linux
        var until: Duration?
        var iterationCost: Duration?
        var threads: [ThreadSpec] = []
        var outside: [(node: Node, time: Duration, thread: String?, column: Int)] = []
        var narration: [Narration] = []
        var expectations: [Expectation] = []

        // Threads first, so `at` blocks and `perform … on` know every thread.
        for node in roots where node.line.tokens[0].isWord("thread") {
            if let thread = parseThread(node) { threads.append(thread) }
        }
        for node in roots where node.line.tokens[0].isWord("queue") { parseQueue(node) }
        for node in roots {
            var cursor = TokenCursor(node.line)
            guard let keyword = cursor.next() else { continue }
            let word = keyword.isWord ? keyword.text : ""
            guard ScenarioKeywords.topLevel.contains(word) else {
                error(
                    node.line, at: keyword,
                    "expected scenario, profile, until, iteration cost, thread, queue, at, say or expect; "
                        + "found '\(keyword.text)'")
                continue
            }
            switch word {
            case "thread", "queue":
                continue
            case "scenario":
                if name != nil { error(node.line, at: keyword, "the scenario is already named") }
                name = expectString(&cursor, what: "the scenario's title in quotes")
                finish(&cursor)
                rejectChildren(node, of: "scenario")
            case "profile":
                if let word = expectWord(&cursor, what: "a profile: linux or darwin") {
                    if let value = PlatformProfile(rawValue: word.text) {
                        profile = value
                    } else {
                        error(node.line, at: word, "unknown profile '\(word.text)'; expected linux or darwin")
                    }
                }
                finish(&cursor)
                rejectChildren(node, of: "profile")
            case "until":
                until = expectDuration(&cursor, what: "how long to run, e.g. 2s")
                finish(&cursor)
                rejectChildren(node, of: "until")
            case "iteration":
                if let value = parseIterationCost(&cursor, node.line) {
                    if iterationCost != nil { error(node.line, at: keyword, "the iteration cost is already given") }
                    iterationCost = value
                }
                finish(&cursor)
                rejectChildren(node, of: "iteration cost")
            case "at":
                guard let time = expectDuration(&cursor, what: "a time since the start, e.g. 250ms") else { continue }
                var thread: String?
                var column = keyword.column
                if cursor.accept("on") {
                    if let word = expectWord(&cursor, what: "the thread the actions address") {
                        thread = word.text
                        column = word.column
                    }
                }
                finish(&cursor)
                outside.append((node, time, thread, column))
            case "say":
                if let item = parseNarration(&cursor, node.line) { narration.append(item) }
                finish(&cursor)
                rejectChildren(node, of: "say")
            case "expect":
                if let expectation = parseExpectation(&cursor, node) { expectations.append(expectation) }
            default:
                assertionFailure("the top-level keyword '\(word)' of ScenarioKeywords has no case here")
            }
        }
        if threads.isEmpty && diagnostics.isEmpty {
            error(
                ScenarioLine(number: 1, indent: 0, tokens: [], text: Self.firstLine(of: source)), 1,
                "a scenario needs at least one thread: `thread main` followed by its items and program")
        }
        if threads.filter(\.isMain).count > 1 {
            for node in roots
            where node.line.tokens[0].isWord("thread") && node.line.tokens.last?.isWord("main") == true {
                error(node.line, at: node.line.tokens.last, "only one thread can be the main thread")
            }
        }
        var events: [OutsideEvent] = []
        for (node, time, thread, column) in outside {
            let target: String
            if let thread {
                target = thread
                if !threadNameSet.contains(thread) { threadReferences.append((thread, node.line, column)) }
            } else if threadNames.count == 1 {
                target = threadNames[0]
            } else {
                error(node.line, node.line.tokens[0].column, "say which thread this addresses: `at … on THREAD`")
                continue
            }
            let actions = parseActions(node.children, thread: target, context: .outside)
            events.append(OutsideEvent(at: time, thread: target, actions))
        }
        validate(threads)
        validatePool()
        if !diagnostics.isEmpty { throw diagnostics.sorted }
        let scenario = Scenario(
            name: name ?? Self.defaultName(file), profile: profile, threads: threads, outside: events,
            queues: queues, iterationCost: iterationCost ?? VirtualWorld.defaultIterationCost)
        var script = LoopScript(
            scenario: scenario, narration: narration, expectations: expectations, until: until, header: header)
        script.noteTranslations = noteTranslations
        return script
    }

    /// The most an iteration may cost: a loop that took longer than this between two callouts would hide every
    /// timer and time limit behind its own bookkeeping.
    static let maximumIterationCost: Duration = .seconds(1)

    /// `iteration cost DURATION` (after the keyword `iteration`): what one iteration costs on the virtual clock.
    func parseIterationCost(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Duration? {
        guard cursor.accept("cost") else {
            error(line, at: cursor.peek, "expected 'cost' and a duration: `iteration cost 1500ns` (0s: none)")
            return nil
        }
        guard let value = expectDuration(&cursor, what: "what one iteration costs, e.g. 1500ns or 2us (0s: none)")
        else { return nil }
        guard value <= Self.maximumIterationCost else {
            error(line, at: cursor.last, "an iteration cost of more than 1s would hide every timer; use e.g. 2us")
            return nil
        }
        return value
    }

    static func defaultName(_ file: String) -> String {
        let last = file.split(separator: "/").last.map(String.init) ?? file
        return last.hasSuffix(".loop") ? String(last.dropLast(5)) : last
    }

    /// The first line of `source` (without its line break), read no further than that line.
    static func firstLine(of source: String) -> String {
        let bytes = source.utf8.prefix { $0 != UInt8(ascii: "\n") }
        let line = String(Substring(bytes))
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    // MARK: - Blocks

    /// Builds the block tree from indentation. Siblings must share one indentation.
    func tree(_ lines: [ScenarioLine]) -> [Node] {
        var roots: [Node] = []
        var stack: [(indent: Int, node: Node, childIndent: Int?)] = []
        // The indentation of a block nested too deep: it and the lines under it are left out.
        var tooDeep: Int?
        for line in lines {
            if let indent = tooDeep, line.indent > indent { continue }
            tooDeep = nil
            while let top = stack.last, line.indent <= top.indent { stack.removeLast() }
            if stack.count >= Self.maxNesting {
                error(
                    line, line.indent + 1,
                    "blocks nest more than \(Self.maxNesting) deep here; expected at most \(Self.maxNesting) levels")
                tooDeep = line.indent
                continue
            }
            let node = Node(line: line)
            if stack.isEmpty {
                if line.indent > 0 && !roots.isEmpty {
                    error(line, line.indent + 1, "this line is indented but no block is open above it")
                } else if line.indent > 0 {
                    error(line, line.indent + 1, "the first line must not be indented")
                }
                roots.append(node)
            } else {
                let parent = stack.count - 1
                if let expected = stack[parent].childIndent, expected != line.indent,
                    !linesWithErrors.contains(line.number)
                {
                    error(line, line.indent + 1, "indentation does not match the lines above (\(expected) spaces)")
                }
                if stack[parent].childIndent == nil { stack[parent].childIndent = line.indent }
                stack[parent].node.children.append(node)
            }
            stack.append((line.indent, node, nil))
        }
        return roots
    }

    /// How deep blocks may nest (each level is a recursion of the parser and of the engine): far more than any
    /// lesson needs, far less than a stack holds.
    static let maxNesting = 100

    func rejectChildren(_ node: Node, of what: String) {
        if let first = node.children.first {
            error(first.line, first.line.indent + 1, "'\(what)' takes no indented block")
        }
    }

    // MARK: - Threads and items

    func parseThread(_ node: Node) -> ThreadSpec? {
        var cursor = TokenCursor(node.line)
        _ = cursor.next()
        guard let nameToken = expectWord(&cursor, what: "the thread's name") else { return nil }
        let name = nameToken.text
        let isMain = cursor.accept("main")
        finish(&cursor)
        if threadNameSet.contains(name) {
            error(node.line, at: nameToken, "duplicate thread '\(name)'")
            return nil
        }
        threadNames.append(name)
        threadNameSet.insert(name)
        if isMain { mainThreads.insert(name) }
        items[name] = [:]
        var spec = ThreadSpec(name: name, isMain: isMain, items: [], program: [])
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
        spec.program = parseActions(programNodes, thread: name, context: .program(isMain: isMain))
        if node.children.isEmpty {
            error(node.line, at: nameToken, "thread '\(name)' has no items and no program; indent them under it")
        }
        return spec
    }

    /// An item line: one item, or one per name of a range (`port p1..128`), each with the same clauses and
    /// script.
    func parseItems(_ node: Node, thread: String) -> [ItemSpec] {
        var cursor = TokenCursor(node.line)
        let keyword = cursor.next()!
        guard let nameToken = expectWord(&cursor, what: "the \(keyword.text)'s name, or a range such as p1..10")
        else { return [] }
        guard let names = expandRange(nameToken, node.line) else { return [] }
        for name in names {
            if items[thread]?[name] != nil {
                error(node.line, at: nameToken, "duplicate item '\(name)' on thread \(thread)")
                break
            }
        }
        if Self.reserved.contains(nameToken.text) {
            error(node.line, at: nameToken, "'\(nameToken.text)' is a keyword; choose another name")
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
        var seen: Set<String> = []
        let kind: ItemClass
        switch keyword.text {
        case "source0": kind = .source0
        case "port": kind = .port
        case "timer": kind = .timer
        default: kind = .observer
        }
        let allowedClauses = ScenarioKeywords.itemClauses[keyword.text] ?? []
        while let clause = cursor.next() {
            guard clause.isWord, allowedClauses.contains(clause.text) else {
                // Only what may still come: a clause already given is not expected again.
                let left = allowedClauses.filter { !seen.contains($0) }
                let expected =
                    left.isEmpty
                    ? "nothing more"
                    : "\(left.count > 1 ? "one of " : "")\(left.map { "'\($0)'" }.joined(separator: ", "))"
                let modes =
                    seen.contains("in") ? " (several modes are separated by commas: `in default, tracking`)" : ""
                let article = keyword.text.first.map { "aeiou".contains($0) } == true ? "an" : "a"
                error(
                    node.line, at: clause,
                    "unexpected '\(clause.text)' in \(article) \(keyword.text); expected \(expected)\(modes)")
                break
            }
            if !seen.insert(clause.text).inserted {
                error(node.line, at: clause, "'\(clause.text)' is given twice")
            }
            switch clause.text {
            case "order":
                if let value = expectInteger(&cursor, node.line, what: "an order (an integer)") { order = value }
            case "in":
                modes = parseModeList(&cursor, node.line, allowCommon: true, allowNothing: true)
            case "at":
                // Negative: a fire date before the start, which CF reads as "now" when the timer is created.
                first = expectDuration(
                    &cursor, what: "the first fire time since the start, e.g. 100ms", allowNegative: true)
            case "every":
                if let value = expectDuration(&cursor, what: "the repeat interval, e.g. 100ms") {
                    if value <= .zero {
                        error(
                            node.line, at: clause,
                            "a repeat interval must be positive; leave out 'every' for a one-shot timer")
                    }
                    interval = value
                }
            case "tolerance":
                tolerance = expectDuration(&cursor, what: "a tolerance, e.g. 10ms") ?? .zero
            case "on":
                activities = parseActivities(&cursor, node.line)
            default:
                repeats = false
            }
        }
        for each in names { items[thread]?[each] = kind }
        let script = parseScript(node.children, thread: thread, isObserver: kind == .observer)
        switch kind {
        case .source0:
            return .source0(name, order: order, modes: modes, script)
        case .port:
            return .port(name, modes: modes, script)
        case .timer:
            guard let first else {
                if !seen.contains("at") {
                    error(node.line, at: nameToken, "timer '\(name)' needs its first fire time: `at 100ms`")
                }
                return nil
            }
            return .timer(
                name, first: first, every: interval, tolerance: tolerance, order: order, modes: modes, script)
        case .observer:
            guard let activities else {
                if seen.contains("on") { return nil }
                error(
                    node.line, at: nameToken,
                    "observer '\(name)' needs its activities: `on entry, beforeWaiting` or `on all`")
                return nil
            }
            return .observer(name, activities, repeats: repeats, order: order, modes: modes, script)
        }
    }

    static let reserved: Set<String> = [
        "default", "common", "nothing", "main", "on", "in", "at", "every", "order", "once", "to", "from", "for",
    ]

    // MARK: - Scripts and actions

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
    var mainThreads: Set<String> = []
    /// Where `mainqueue` is used: valid once some thread of the file is the main thread.
    var mainQueueUses: [(line: ScenarioLine, column: Int)] = []

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
            guard let number = expectInteger(&cursor, line, what: "a call number, e.g. `call 2:`") else { return nil }
            if number < 1 { error(line, at: first, "calls are counted from 1") }
            finish(&cursor)
            return .call(number)
        case "first":
            guard let number = expectInteger(&cursor, line, what: "a number of calls, e.g. `first 3 calls:`") else {
                return nil
            }
            if number < 1 { error(line, at: first, "calls are counted from 1") }
            if !cursor.accept("calls") && !cursor.accept("call") {
                error(line, at: cursor.peek, "expected 'calls' after the number")
            }
            finish(&cursor)
            return .callsThrough(number)
        case "on":
            if !isObserver {
                error(line, at: first, "`on ACTIVITY:` conditions are for observers only")
                return nil
            }
            let activities = parseActivities(&cursor, line)
            finish(&cursor)
            return activities.map { .activity($0) }
        default:
            error(line, at: first, "expected a condition before ':' — `call N`, `first N calls` or `on ACTIVITY`")
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
            error(line, line.text.count + 1, "expected an action after ':'")
            return []
        }
        if !ScenarioKeywords.takingBlocks.contains(keyword.text) { rejectChildren(node, of: keyword.text) }
        var result: [Action] = []
        defer { finish(&cursor) }
        let word = keyword.isWord ? keyword.text : ""
        guard ScenarioKeywords.actions.contains(word) else {
            error(line, at: keyword, "unknown action '\(keyword.text)'")
            return []
        }
        switch word {
        case "work":
            if let duration = expectDuration(&cursor, what: "how long the work takes, e.g. 20ms") {
                result = [.work(duration)]
            }
        case "signal":
            // A port may be signalled too: CF takes the signal and ignores it (the trace says so).
            if let names = references(
                &cursor, line, thread: thread, allowed: [.source0, .port], what: "a version-0 source or a port")
            {
                result = names.map { .signal($0) }
            }
        case "send":
            if let names = references(&cursor, line, thread: thread, allowed: [.port], what: "a port") {
                var count = 1
                if let value = cursor.peekInteger {
                    _ = cursor.next()
                    count = value
                    if count < 1 { error(line, at: cursor.last, "send at least one message") }
                    if !cursor.accept("times") && !cursor.accept("time") {
                        error(line, at: cursor.peek, "expected 'times' after the count, e.g. `send P 3 times`")
                    }
                }
                result = names.map { .send($0, count: count) }
            }
        case "wakeup":
            result = [.wakeUp]
        case "wake":
            if !cursor.accept("up") { error(line, at: cursor.peek, "expected 'up': `wake up`") }
            result = [.wakeUp]
        case "stop":
            if cursor.accept("mode") {
                if let mode = expectMode(&cursor, line, allowCommon: false) { result = [.stopMode(mode)] }
            } else {
                result = [.stop]
            }
        case "add", "remove":
            let preposition = keyword.text == "add" ? "to" : "from"
            if let names = references(
                &cursor, line, thread: thread, allowed: [.source0, .port, .timer, .observer], what: "an item")
            {
                if !cursor.accept(preposition) {
                    error(line, at: cursor.peek, "expected '\(preposition)' and a mode")
                } else if let mode = expectMode(&cursor, line, allowCommon: true) {
                    result = names.map { keyword.text == "add" ? .add($0, mode) : .remove($0, mode) }
                }
            }
        case "invalidate":
            if let names = references(
                &cursor, line, thread: thread, allowed: [.source0, .port, .timer, .observer], what: "an item")
            {
                result = names.map { .invalidate($0) }
            }
        case "reschedule":
            if let names = references(&cursor, line, thread: thread, allowed: [.timer], what: "a timer") {
                if !cursor.accept("in") {
                    error(line, at: cursor.peek, "expected 'in' and a delay: `reschedule T in 20ms`")
                } else if let delay = expectDuration(
                    &cursor, what: "a delay from now, e.g. 20ms (negative: a date in the past)", allowNegative: true)
                {
                    result = names.map { .setNextFireDate($0, after: delay) }
                }
            }
        case "block":
            guard let name = expectWord(&cursor, what: "the block's name") else { return [] }
            var modes: [ModeName] = [.default]
            if cursor.accept("in") { modes = parseModeList(&cursor, line, allowCommon: true) }
            result = [
                .performBlock(
                    name.text, modes: modes, parseActions(node.children, thread: thread, context: inner(context)))
            ]
        case "mainqueue":
            guard let name = expectWord(&cursor, what: "the main-queue block's name") else { return [] }
            // DispatchQueue.main.async from any thread: the main thread's loop runs the block.
            mainQueueUses.append((line, keyword.column))
            result = [.mainQueue(name.text, parseActions(node.children, thread: thread, context: inner(context)))]
        case "common":
            if let mode = expectMode(&cursor, line, allowCommon: false) { result = [.addCommonMode(mode)] }
        case "set":
            if let flag = expectWord(&cursor, what: "a flag's name") {
                flagsSet.insert(flag.text)
                result = [.setFlag(flag.text)]
            }
        case "perform":
            guard let task = expectWord(&cursor, what: "the task's name") else { return [] }
            guard cursor.accept("on") else {
                error(line, at: cursor.peek, "expected 'on' and a thread: `perform upload on worker [wait]`")
                return []
            }
            guard let target = expectWord(&cursor, what: "the thread to perform on") else { return [] }
            if !threadNameSet.contains(target.text) { threadReferences.append((target.text, line, target.column)) }
            let wait = cursor.accept("wait")
            if context == .outside {
                error(line, at: keyword, "perform from outside: let a thread of the scenario perform it")
            }
            let body = parseActions(node.children, thread: target.text, context: .callout(isMain: false))
            result = [.performOn(thread: target.text, task: task.text, wait: wait, body)]
        case let word where ScenarioKeywords.poolActions.contains(word):
            result = parsePoolAction(keyword, &cursor, node, thread: thread, context: context)
        case "say", "note":
            result = parseNote(&cursor, line, previous: previousNote)
        case "run", "CFRunLoopRun", "RunLoop.run", "RunLoop.acceptInput", "while":
            if context == .outside {
                error(line, at: keyword, "an outside event cannot run this thread's loop; only its program can")
            }
            if let call = parseRun(keyword, &cursor, line) { result = [.run(call)] }
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
                    error(
                        line, at: until,
                        "run(until:) always runs the default mode; for \(mode) use `RunLoop.run \(mode) before …`")
                    return nil
                }
                return parseDate(&cursor, line).map { .foundationUntil($0) }
            }
            guard cursor.accept("before") else {
                error(
                    line, at: cursor.peek,
                    "expected 'before' and a limit: `RunLoop.run default before 1s` (or `RunLoop.run until 1s`)")
                return nil
            }
            return parseDate(&cursor, line).map { .foundation(mode, before: $0) }
        case "RunLoop.acceptInput":
            guard let mode = expectMode(&cursor, line, allowCommon: true) else { return nil }
            guard cursor.accept("before") else {
                error(line, at: cursor.peek, "expected 'before' and a limit: `RunLoop.acceptInput default before 1s`")
                return nil
            }
            return parseDate(&cursor, line).map { .acceptInput(mode, before: $0) }
        case "while":
            guard cursor.accept("not"), let flag = expectWord(&cursor, what: "the flag that ends the loop") else {
                error(line, at: cursor.peek, "expected `while not FLAG RunLoop.run [MODE]`")
                return nil
            }
            guard cursor.accept("RunLoop.run") else {
                error(line, at: cursor.peek, "expected 'RunLoop.run': `while not \(flag.text) RunLoop.run`")
                return nil
            }
            flagsRead.append((flag.text, line, flag.column))
            let mode = cursor.peek == nil ? .default : expectMode(&cursor, line, allowCommon: true)
            return mode.map { .whileNot(flag: flag.text, mode: $0) }
        default:
            guard let mode = expectMode(&cursor, line, allowCommon: true) else { return nil }
            if cursor.accept("forever") {
                return .inMode(
                    mode, seconds: 1.0e10, returnAfterSourceHandled: cursor.accept("returnAfterSourceHandled"))
            }
            guard cursor.accept("for") else {
                error(line, at: cursor.peek, "expected 'for' and a time limit: `run \(mode) for 200ms` (or 'forever')")
                return nil
            }
            // `inf` and `nan` are the seconds CF is given as they are: both mean no time limit there.
            let special: Double? = cursor.accept("inf") ? .infinity : cursor.accept("nan") ? .nan : nil
            guard
                let seconds = special
                    ?? expectDuration(
                        &cursor, what: "a time limit, e.g. 200ms (0s polls once), inf or nan", allowNegative: true)?
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
            return expectDuration(&cursor, what: "a time since the start, e.g. `at 300ms`").map { .sinceStart($0) }
        }
        guard let token = cursor.peek, case .number = token.kind else {
            error(
                line, at: cursor.peek,
                "expected a date: a time from now (250ms, -100ms), now, `at 2s` (since the start), distantPast or "
                    + "distantFuture")
            return nil
        }
        return expectDuration(&cursor, what: "a time from now", allowNegative: true).map { .fromNow($0) }
    }

    // MARK: - Narration and expectations

    /// The language tag of a `say` line (`say zh "…"`): `.en` when there is none, nil (and an error) when the word
    /// before the text is not a language.
    func parseLanguage(_ cursor: inout TokenCursor) -> Language? {
        guard let token = cursor.peek, token.isWord, cursor.peekSecond?.kind == .string else { return .en }
        _ = cursor.next()
        guard let language = Language(rawValue: token.text) else {
            error(
                cursor.line, at: token,
                "unknown language '\(token.text)'; expected zh or en before the text (or no tag: English)")
            return nil
        }
        return language
    }

    /// A `say` action: a note in the trace, or (`say zh "…"`) the translation of the `say` action right before it,
    /// which is no action of its own: the trace, and so every step number, is the same in every language.
    func parseNote(_ cursor: inout TokenCursor, _ line: ScenarioLine, previous: String?) -> [Action] {
        let language = parseLanguage(&cursor)
        guard let text = expectString(&cursor, what: "the text in quotes"), let language else {
            previousNote = nil
            return []
        }
        guard language != .en else {
            previousNote = text
            return [.note(text)]
        }
        guard let previous else {
            error(
                line, at: line.tokens.first,
                "`say \(language.rawValue) \"…\"` in a program or a callout translates the `say \"…\"` right before it; "
                    + "put it on the next line after one")
            return []
        }
        noteTranslations[language, default: [:]][previous] = text
        previousNote = previous
        return []
    }

    func parseNarration(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Narration? {
        let language = parseLanguage(&cursor)
        guard let text = expectString(&cursor, what: "the narration in quotes"), let language else { return nil }
        if cursor.accept("after") {
            guard let event = parseEventPattern(&cursor, line) else { return nil }
            return Narration(anchor: .after(event), text: text, language: language)
        }
        guard cursor.accept("at") else {
            error(
                line, at: cursor.peek,
                "expected 'at' and a time or a step, or 'after' and an event: `say \"…\" at 250ms`, "
                    + "`say \"…\" after timer tick`")
            return nil
        }
        if cursor.accept("step") {
            guard let step = expectInteger(&cursor, line, what: "a step number (the n-th event, from 1)") else {
                return nil
            }
            if step < 1 { error(line, at: cursor.last, "steps are counted from 1") }
            return Narration(anchor: .step(step), text: text, language: language)
        }
        guard let time = expectDuration(&cursor, what: "a time since the start, e.g. 250ms") else { return nil }
        return Narration(anchor: .time(time), text: text, language: language)
    }

    /// An event as an `expect` line names it: `[TIME] [THREAD:] KIND [NAME]` (`0.370 timer tick`, `worker: sleep`).
    /// `say … after` names its event the same way, and matches it the same way.
    func parseEventPattern(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Expectation.Step? {
        var time: Duration?
        var resolution = Duration.nanoseconds(1)
        if case .number(let value, let unit) = cursor.peek?.kind {
            let token = cursor.next()!
            time = unit.isEmpty ? .secondsValue(value) : duration(token, line)
            resolution = Self.resolution(of: token.text, unit: unit)
        }
        var thread: String?
        if let word = cursor.peek, word.isWord, cursor.peekSecond?.isPunctuation(":") == true {
            thread = word.text
            _ = cursor.next()
            _ = cursor.next()
            expectedThreads.append((word.text, line, word.column))
        }
        guard let kindToken = expectWord(&cursor, what: "an event such as entry, timer T or result timedOut")
        else { return nil }
        if kindToken.text == "returned" {
            let value = expectWord(&cursor, what: "true or false: what run(mode:before:) returned")
            if let value, value.text != "true" && value.text != "false" {
                error(line, at: value, "run(mode:before:) returns true or false, not '\(value.text)'")
            }
            return Expectation.Step(
                time: time, resolution: resolution, thread: thread, kind: .note, returned: value?.text == "true",
                line: line.number)
        }
        guard let kind = LoopEvent.Kind(rawValue: kindToken.text) else {
            error(line, at: kindToken, "unknown event '\(kindToken.text)'")
            return nil
        }
        var name: String?
        if let token = cursor.peek, token.isWord {
            name = token.text
            _ = cursor.next()
            if kind == .result && RunResult.allCases.allSatisfy({ $0.description != token.text }) {
                error(
                    line, at: token,
                    "unknown result '\(token.text)'; expected finished, stopped, timedOut or handledSource")
            }
        }
        return Expectation.Step(
            time: time, resolution: resolution, thread: thread, kind: kind, name: name, line: line.number)
    }

    func parseExpectation(_ cursor: inout TokenCursor, _ node: Node) -> Expectation? {
        let line = node.line
        let mode: Expectation.Mode
        if cursor.accept("exactly") {
            mode = .exactly
        } else if cursor.accept("in") {
            if !cursor.accept("order") { error(line, at: cursor.peek, "expected 'order': `expect in order`") }
            mode = .inOrder
        } else {
            error(line, at: cursor.peek, "expected `expect exactly` or `expect in order`")
            return nil
        }
        finish(&cursor)
        if node.children.isEmpty { error(line, at: line.tokens[0], "an expect section needs indented lines") }
        var steps: [Expectation.Step] = []
        for child in node.children {
            rejectChildren(child, of: "an expected step")
            var cursor = TokenCursor(child.line)
            guard let step = parseEventPattern(&cursor, child.line) else { continue }
            finish(&cursor)
            steps.append(step)
        }
        return Expectation(mode: mode, steps: steps, line: line.number)
    }

    /// The last digit an expected time was written to: `0.120` (seconds, three decimals) 1 ms, `0.1200015`
    /// 100 ns, `250ms` 1 ms, `1.5ms` 100 µs. The time matches an event at any instant it is the start of
    /// (see ``Expectation/Step/resolution``).
    static func resolution(of text: String, unit: String) -> Duration {
        let number = text.dropLast(unit.count)
        let decimals = number.firstIndex(of: ".").map { number.distance(from: $0, to: number.endIndex) - 1 } ?? 0
        let scale: Double
        switch unit {
        case "ms": scale = 1e-3
        case "us", "µs": scale = 1e-6
        case "ns": scale = 1e-9
        case "m", "min": scale = 60
        default: scale = 1
        }
        let seconds = scale / pow10(min(decimals, 9))
        return max(.secondsValue(seconds), .nanoseconds(1))
    }

    private static func pow10(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<max(exponent, 0) { value *= 10 }
        return value
    }

    // MARK: - Validation

    func validate(_ threads: [ThreadSpec]) {
        // A range names many items at one column: one complaint there is enough.
        var reported: Set<[Int]> = []
        for reference in references where !reported.contains([reference.line.number, reference.column]) {
            guard let known = items[reference.thread] else { continue }
            guard let kind = known[reference.name] else {
                // The hint is built only for a diagnostic that is kept: never once per reference.
                func hint() -> DiagnosticMessage {
                    known.isEmpty
                        ? "thread \(reference.thread) has no items" : "known: \(Self.nameList(known.keys.sorted()))"
                }
                error(
                    reference.line, reference.column,
                    "unknown item '\(reference.name)' on thread \(reference.thread) (\(hint()))")
                reported.insert([reference.line.number, reference.column])
                continue
            }
            if !reference.allowed.contains(kind) {
                var message: DiagnosticMessage =
                    "'\(reference.name)' is a \(kind.rawValue), but this needs \(reference.what)"
                if kind == .source0 && reference.allowed == [.port] { message += "; version-0 sources are `signal`led" }
                error(reference.line, reference.column, message)
                reported.insert([reference.line.number, reference.column])
            }
        }
        if mainThreads.isEmpty {
            for (line, column) in mainQueueUses {
                error(line, column, "only the main thread services the main queue; mark a thread `main`")
            }
        }
        for (name, line, column) in threadReferences where !threadNameSet.contains(name) {
            error(line, column, "unknown thread '\(name)' (known: \(Self.nameList(threadNames)))")
        }
        for (name, line, column) in expectedThreads where !isTraceThread(name) {
            error(line, column, "unknown thread '\(name)' (known: \(traceThreadNames()))")
        }
        for (name, line, column) in flagsRead where !flagsSet.contains(name) {
            error(
                line, column, "flag '\(name)' is never set, so this loop could never end; add `set \(name)` somewhere")
        }
    }

    /// An item named by an action, or the items of a range (`send p1..128`), each checked once every item is
    /// known.
    func references(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, thread: String, allowed: Set<ItemClass>, what: String
    ) -> [String]? {
        guard let token = expectWord(&cursor, what: what) else { return nil }
        guard let names = expandRange(token, line) else { return nil }
        for name in names {
            references.append(
                Reference(thread: thread, name: name, allowed: allowed, what: what, line: line, column: token.column))
        }
        return names
    }

    // MARK: - Small pieces

    /// Names for a hint: each shown safely, at most 8 of them, then how many more.
    static func nameList(_ names: some Collection<String>) -> DiagnosticMessage {
        var list: DiagnosticMessage = ""
        for (index, name) in names.prefix(8).enumerated() {
            list += index == 0 ? "" : ", "
            list = "\(list)\(name)"
        }
        if names.count > 8 { list += ", … (\(names.count - 8) more)" }
        return list
    }

    func expectWord(_ cursor: inout TokenCursor, what: String) -> ScenarioToken? {
        guard let token = cursor.peek, token.isWord else {
            error(cursor.line, at: cursor.peek, "expected \(what)")
            return nil
        }
        return cursor.next()
    }

    func expectString(_ cursor: inout TokenCursor, what: String) -> String? {
        guard let token = cursor.peek, token.kind == .string else {
            error(cursor.line, at: cursor.peek, "expected \(what)")
            return nil
        }
        return cursor.next()?.text
    }

    func expectInteger(_ cursor: inout TokenCursor, _ line: ScenarioLine, what: String) -> Int? {
        guard let value = cursor.peekInteger else {
            error(line, at: cursor.peek, "expected \(what)")
            return nil
        }
        _ = cursor.next()
        return value
    }

    func expectDuration(_ cursor: inout TokenCursor, what: String, allowNegative: Bool = false) -> Duration? {
        guard let token = cursor.peek, case .number = token.kind else {
            error(cursor.line, at: cursor.peek, "expected \(what)")
            return nil
        }
        _ = cursor.next()
        guard let value = duration(token, cursor.line) else { return nil }
        if value < .zero && !allowNegative {
            error(cursor.line, at: token, "a duration cannot be negative here")
            return nil
        }
        return value
    }

    /// `250ms`, `1.5s`, `40us`, `2m`: a number directly followed by its unit.
    func duration(_ token: ScenarioToken, _ line: ScenarioLine) -> Duration? {
        guard case .number(let value, let unit) = token.kind else { return nil }
        let scale: Double
        switch unit {
        case "s": scale = 1
        case "ms": scale = 1e-3
        case "us", "µs": scale = 1e-6
        case "ns": scale = 1e-9
        case "m", "min": scale = 60
        case "":
            error(line, at: token, "'\(token.text)' needs a unit: \(token.text)ms or \(token.text)s")
            return nil
        default:
            error(line, at: token, "unknown unit '\(unit)' in '\(token.text)'; use ns, us, ms, s or m (min)")
            return nil
        }
        let seconds = value * scale
        guard seconds.magnitude < 1e9 else {
            error(line, at: token, "'\(token.text)' is too long; the limit is about 30 years")
            return nil
        }
        return .secondsValue(seconds)
    }

    func expectMode(_ cursor: inout TokenCursor, _ line: ScenarioLine, allowCommon: Bool) -> ModeName? {
        guard let token = expectWord(&cursor, what: "a mode name") else { return nil }
        if token.text == "common" && !allowCommon {
            error(line, at: token, "'common' stands for all common modes and cannot be used here")
            return nil
        }
        return ModeName(token.text)
    }

    func parseModeList(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, allowCommon: Bool, allowNothing: Bool = false
    ) -> [ModeName] {
        if allowNothing && cursor.accept("nothing") { return [] }
        var modes: [ModeName] = []
        var listed: Set<ModeName> = []
        repeat {
            guard let mode = expectMode(&cursor, line, allowCommon: allowCommon) else { break }
            if !listed.insert(mode).inserted { error(line, at: cursor.last, "mode '\(mode)' is listed twice") }
            modes.append(mode)
        } while cursor.acceptPunctuation(",")
        return modes
    }

    func parseActivities(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Activity? {
        var activities: Activity = []
        repeat {
            guard
                let token = expectWord(
                    &cursor,
                    what: "an activity: entry, beforeTimers, beforeSources, beforeWaiting, afterWaiting, exit or all")
            else {
                return nil
            }
            guard let activity = Activity(name: token.text) else {
                error(
                    line, at: token,
                    "unknown activity '\(token.text)'; expected entry, beforeTimers, beforeSources, beforeWaiting, afterWaiting, exit or all"
                )
                return nil
            }
            activities.formUnion(activity)
        } while cursor.acceptPunctuation(",")
        return activities
    }

    /// Reports anything left on the line.
    func finish(_ cursor: inout TokenCursor) {
        if let extra = cursor.peek, !linesWithErrors.contains(cursor.line.number) {
            error(cursor.line, at: extra, "unexpected '\(extra.text)' at the end of the line")
            cursor.index = cursor.tokens.count
        }
    }
}

/// Reads the tokens of one line left to right.
struct TokenCursor {
    let line: ScenarioLine
    var tokens: [ScenarioToken]
    var index = 0

    init(_ line: ScenarioLine) {
        self.line = line
        self.tokens = line.tokens
    }

    var peek: ScenarioToken? { index < tokens.count ? tokens[index] : nil }
    var peekSecond: ScenarioToken? { index + 1 < tokens.count ? tokens[index + 1] : nil }
    var last: ScenarioToken? { index > 0 && index <= tokens.count ? tokens[index - 1] : nil }

    /// The next token as an integer (a number without unit or fraction).
    var peekInteger: Int? {
        guard case .number(let value, let unit) = peek?.kind, unit.isEmpty, value.rounded() == value,
            value.magnitude < 1e15
        else { return nil }
        return Int(value)
    }

    mutating func next() -> ScenarioToken? {
        guard index < tokens.count else { return nil }
        index += 1
        return tokens[index - 1]
    }

    /// Takes `word` if it comes next. The language has no words beyond ``ScenarioKeywords``.
    mutating func accept(_ word: String) -> Bool {
        assert(ScenarioKeywords.all.contains(word), "'\(word)' is not in ScenarioKeywords")
        guard peek?.isWord(word) == true else { return false }
        index += 1
        return true
    }

    mutating func acceptPunctuation(_ mark: String) -> Bool {
        guard peek?.isPunctuation(mark) == true else { return false }
        index += 1
        return true
    }
}
