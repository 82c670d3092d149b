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
        var what: Expected
        var line: ScenarioLine
        var column: Int
        /// The thread whose loop `add … on THREAD` hands the item to (nil: the acting thread's own loop).
        var handedTo: String? = nil
    }

    typealias ItemClass = ScenarioItemKind
    typealias Expected = ScenarioProblem.Expected

    let file: String
    /// The first diagnostics by position, and how many there are (bounded memory for any input).
    var diagnostics = DiagnosticCollector()
    /// Lines that already have an error: follow-on complaints about the same line are noise, so only a line's
    /// first error is reported.
    var linesWithErrors: Set<Int> = []
    var items: [String: [String: ItemClass]] = [:]
    var references: [Reference] = []
    var threadNames: [String] = []
    /// The same names, for lookups in O(1) (a file may declare thousands of threads).
    var threadNameSet: Set<String> = []
    var threadReferences: [(name: String, line: ScenarioLine, column: Int)] = []
    var flagsSet: Set<String> = []
    /// The owners declared (`owner vc weak weakSelf`), and what each of their names stands for.
    var owners: [OwnerSpec] = []
    var ownerReferenceNames: [String: (owner: String, weak: Bool)] = [:]
    /// Threads declared `later`, and the `start` actions naming a thread.
    var laterThreads: Set<String> = []
    var startUses: [(name: String, line: ScenarioLine, column: Int)] = []
    var flagsRead: [(name: String, line: ScenarioLine, column: Int)] = []
    /// The pool model: queues declared (and the line of each), queue names used by actions, operations added and
    /// the operation names used, detached threads, and the threads `expect` lines name.
    var queues: [QueueSpec] = []
    var queueLines: [String: Int] = [:]
    var queueNameTokens: [(name: String, line: ScenarioLine, column: Int)] = []
    var queueUses: [(name: String, line: ScenarioLine, column: Int)] = []
    /// What each action did with a queue, for the dispatch-queue checks (`validateDispatch`).
    var queueActionUses: [(queue: String, use: QueueUse, line: ScenarioLine, column: Int)] = []
    var operationDefinitions: [String: OperationDefinition] = [:]
    var operationOrder: [String] = []
    var operationUses: [OperationReference] = []
    var detachedTasks: Set<String> = []
    /// How many names the ranges of the file have stood for so far (bounded: see `maxExpandedNames`).
    var expandedNames = 0
    /// The mode names the file has named so far (bounded: see `maxModes`).
    var modeNames: Set<ModeName> = []
    var expectedThreads: [(name: String, line: ScenarioLine, column: Int)] = []
    /// The text of the `say` action just parsed in the current block, which a `say zh "…"` on the next line
    /// translates; nil after any other action.
    var previousNote: String?
    /// `say zh "…"` actions, per language, by the English text they translate.
    var noteTranslations: [Language: [String: String]] = [:]
    /// The `say` lines with claims under them, top-level and actions, in the order parsed.
    var sayClaims: [SayClaims] = []
    /// What the lint checks once the file is read (`Lint/ScenarioParserState+Lint.swift`).
    var lint = LintRecord()

    init(file: String) {
        self.file = file
    }

    /// The threads declared `main`.
    var mainThreads: Set<String> = []
    /// Where `mainqueue` is used: valid once some thread of the file is the main thread.
    var mainQueueUses: [(line: ScenarioLine, column: Int)] = []
    /// The line numbers of the lines directly in a `mainactor` body: the only places an `await` may be.
    var taskBodyLines: Set<Int> = []

    // MARK: - Diagnostics

    /// Records a problem. The problem (and its message) is built only if the diagnostic is kept (see
    /// ``DiagnosticCollector``); its wording is `ScenarioProblem+Wording.swift`'s, which shows every value from
    /// the file terminal-safe and bounded (see ``DiagnosticMessage``).
    func error(_ line: ScenarioLine, _ column: Int, _ problem: @autoclosure () -> ScenarioProblem) {
        guard linesWithErrors.insert(line.number).inserted else { return }
        diagnostics.add(file: file, line: line.number, column: column, problem: problem, sourceLine: line.text)
    }

    func error(_ line: ScenarioLine, at token: ScenarioToken?, _ problem: @autoclosure () -> ScenarioProblem) {
        error(line, token?.column ?? (line.text.count + 1), problem())
    }

    // MARK: - Entry

    func parse(_ source: String) throws(ScenarioDiagnostics) -> LoopScript {
        // Every run of bad characters counts (each is a problem of its own, not a knock-on of the first).
        let (lines, header) = ScenarioLexer.lines(of: source) { number, column, text, problem in
            linesWithErrors.insert(number)
            diagnostics.add(file: file, line: number, column: column, problem: problem, sourceLine: text)
        }
        let roots = tree(lines)
        var name: String?
        var profile = PlatformProfile.linux
        var until: Duration?
        var iterationCost: Duration?
        var threads: [ThreadSpec] = []
        var outside: [(node: Node, time: Duration, thread: String?, column: Int)] = []
        var narration: [Narration] = []
        var questions: [Question] = []
        var expectations: [Expectation] = []

        // Owners first, then threads, so actions know every owner and `at` blocks and `perform … on` every thread.
        for node in roots where node.line.tokens[0].isWord("owner") { parseOwner(node) }
        for node in roots where node.line.tokens[0].isWord("thread") {
            if let thread = parseThread(node) { threads.append(thread) }
        }
        for node in roots where node.line.tokens[0].isWord("queue") { parseQueue(node) }
        for node in roots {
            var cursor = TokenCursor(node.line)
            guard let keyword = cursor.next() else { continue }
            let word = keyword.isWord ? keyword.text : ""
            guard ScenarioKeywords.topLevel.contains(word) else {
                error(node.line, at: keyword, .unknownTopLevel(found: keyword.text))
                continue
            }
            switch word {
            case "thread", "queue", "owner":
                continue
            case "scenario":
                if name != nil { error(node.line, at: keyword, .scenarioAlreadyNamed) }
                name = expectString(&cursor, what: .scenarioTitle)
                finish(&cursor)
                rejectChildren(node, of: "scenario")
            case "profile":
                if let word = expectWord(&cursor, what: .profile) {
                    if let value = PlatformProfile(rawValue: word.text) {
                        profile = value
                    } else {
                        error(node.line, at: word, .unknownProfile(word.text))
                    }
                }
                finish(&cursor)
                rejectChildren(node, of: "profile")
            case "until":
                until = expectDuration(&cursor, what: .runLength)
                finish(&cursor)
                rejectChildren(node, of: "until")
            case "iteration":
                if let value = parseIterationCost(&cursor, node.line) {
                    if iterationCost != nil { error(node.line, at: keyword, .iterationCostAlreadyGiven) }
                    iterationCost = value
                }
                finish(&cursor)
                rejectChildren(node, of: "iteration cost")
            case "at":
                guard let time = expectDuration(&cursor, what: .timeSinceStart) else { continue }
                var thread: String?
                var column = keyword.column
                if cursor.accept("on") {
                    if let word = expectWord(&cursor, what: .addressedThread) {
                        thread = word.text
                        column = word.column
                    }
                }
                finish(&cursor)
                outside.append((node, time, thread, column))
            case "say":
                let item = parseNarration(&cursor, node.line)
                if let item { narration.append(item) }
                finish(&cursor)
                parseSayClaims(node, anchor: item.map { .narration($0.anchor) }, text: item?.text)
            case "ask":
                if let question = parseQuestion(&cursor, node.line) { questions.append(question) }
                finish(&cursor)
                rejectChildren(node, of: "ask")
            case "expect":
                if let expectation = parseExpectation(&cursor, node) { expectations.append(expectation) }
            default:
                assertionFailure("the top-level keyword '\(word)' of ScenarioKeywords has no case here")
            }
        }
        if threads.isEmpty && diagnostics.isEmpty {
            error(ScenarioLine(number: 1, indent: 0, tokens: [], text: Self.firstLine(of: source)), 1, .noThread)
        }
        if threads.filter(\.isMain).count > 1 {
            for node in roots
            where node.line.tokens[0].isWord("thread") && node.line.tokens.last?.isWord("main") == true {
                error(node.line, at: node.line.tokens.last, .severalMainThreads)
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
                error(node.line, node.line.tokens[0].column, .outsideEventWithoutThread)
                continue
            }
            let actions = parseActions(node.children, thread: target, context: .outside)
            events.append(OutsideEvent(at: time, thread: target, actions))
        }
        validateStarts()
        validate(threads)
        validatePool()
        lintNames(threads)
        if !diagnostics.isEmpty { throw diagnostics.sorted }
        let scenario = Scenario(
            name: name ?? Self.defaultName(file), profile: profile, threads: threads, outside: events,
            queues: queues, iterationCost: iterationCost ?? VirtualWorld.defaultIterationCost, owners: owners)
        var script = LoopScript(
            scenario: scenario, narration: narration, expectations: expectations, until: until, header: header)
        script.noteTranslations = noteTranslations
        script.questions = questions
        script.sayClaims = sayClaims
        script.warnings = lintModes(scenario)
        return script
    }

    /// The most an iteration may cost: a loop that took longer than this between two callouts would hide every
    /// timer and time limit behind its own bookkeeping.
    static let maximumIterationCost: Duration = .seconds(1)

    /// `iteration cost DURATION` (after the keyword `iteration`): what one iteration costs on the virtual clock.
    func parseIterationCost(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Duration? {
        guard cursor.accept("cost") else {
            error(line, at: cursor.peek, .iterationWithoutCost)
            return nil
        }
        guard let value = expectDuration(&cursor, what: .iterationCost) else { return nil }
        guard value <= Self.maximumIterationCost else {
            error(line, at: cursor.last, .iterationCostTooHigh)
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
        // How many lines have each indentation: of two siblings that disagree, the rarer indentation is off.
        var indentCounts: [Int: Int] = [:]
        for line in lines { indentCounts[line.indent, default: 0] += 1 }
        for line in lines {
            if let indent = tooDeep, line.indent > indent { continue }
            tooDeep = nil
            while let top = stack.last, line.indent <= top.indent { stack.removeLast() }
            if stack.count >= Self.maxNesting {
                error(line, line.indent + 1, .nestedTooDeep(limit: Self.maxNesting))
                tooDeep = line.indent
                continue
            }
            let node = Node(line: line)
            if stack.isEmpty {
                if line.indent > 0 && !roots.isEmpty {
                    error(line, line.indent + 1, .indentedWithoutBlock)
                } else if line.indent > 0 {
                    error(line, line.indent + 1, .firstLineIndented)
                }
                roots.append(node)
            } else {
                let parent = stack.count - 1
                if let expected = stack[parent].childIndent, expected != line.indent,
                    !linesWithErrors.contains(line.number)
                {
                    let siblings = stack[parent].node.children
                    if siblings.count == 1, let first = siblings.first?.line,
                        indentCounts[line.indent, default: 0] > indentCounts[expected, default: 0]
                    {
                        // The first line of the block is the odd one: say so there, and go on with this one's.
                        error(first, first.indent + 1, .indentationOff(found: expected, expected: line.indent))
                        stack[parent].childIndent = line.indent
                    } else {
                        error(line, line.indent + 1, .indentationMismatch(expected: expected))
                    }
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

    /// Reports lines indented under `node`, a line that takes no block (`line` names it: its keyword).
    func rejectChildren(_ node: Node, of line: String) {
        if let first = node.children.first {
            error(first.line, first.line.indent + 1, .takesNoBlock(line))
        }
    }
}
