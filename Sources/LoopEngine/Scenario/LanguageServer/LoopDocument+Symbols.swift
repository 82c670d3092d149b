/// The names a file declares and where, for go-to-definition, hover and completion: read from the lexer's tokens
/// (`ScenarioLexer`), so a file with errors still has its names.
extension LoopDocument {
    /// What a name stands for.
    package enum SymbolKind: String, Sendable {
        case thread, queue, owner, weakReference = "weak reference", mode, operation, task, block, flag
        case source0, port, timer, observer
    }

    /// A declared name: where it is declared, and the thread it belongs to (for items).
    package struct Symbol: Equatable, Sendable {
        package var name: String
        package var kind: SymbolKind
        /// The parser's 1-based line and column of the name where it is declared.
        package var line: Int
        package var column: Int
        /// The declaring token (a range's, `p1..4`, for each of its names).
        package var token: String
        package var thread: String?
    }

    /// The most names a file's index holds (a range of 1,000 names counts 1,000): completion and look-ups stay
    /// cheap on any file.
    package static let maxSymbols = 10_000

    /// Every declared name of `text`, in the order of the file; the first declaration of a name comes first.
    /// Read once per version of the file (`LoopDocument.init`), not per request.
    static func scanSymbols(_ text: String) -> [Symbol] {
        let (lines, _) = ScenarioLexer.lines(of: text) { _, _, _, _ in }
        var symbols: [Symbol] = []
        var seen: Set<String> = []
        var thread: String?
        // The indentation of the lines directly under the current thread: its items and its `common` lines.
        var threadChildIndent: Int?
        func add(_ name: String, _ kind: SymbolKind, _ token: ScenarioToken, _ line: ScenarioLine) {
            guard symbols.count < maxSymbols else { return }
            let key = "\(kind.rawValue) \(thread ?? "") \(name)"
            guard seen.insert(key).inserted else { return }
            symbols.append(
                Symbol(
                    name: name, kind: kind, line: line.number, column: token.column, token: token.text,
                    thread: itemKinds.contains(kind) ? thread : nil))
        }
        for line in lines where symbols.count < maxSymbols {
            var tokens = line.tokens[...]
            if line.indent == 0 {
                thread = nil
                threadChildIndent = nil
                guard let first = tokens.first else { continue }
                if first.isWord("thread"), let name = tokens.dropFirst().first, name.isWord {
                    thread = name.text
                    add(name.text, .thread, name, line)
                } else if first.isWord("queue"), let name = tokens.dropFirst().first, name.isWord {
                    add(name.text, .queue, name, line)
                } else if first.isWord("owner"), let name = tokens.dropFirst().first, name.isWord {
                    add(name.text, .owner, name, line)
                    let rest = Array(tokens.dropFirst(2))
                    if rest.count >= 2, rest[0].isWord("weak"), rest[1].isWord {
                        add(rest[1].text, .weakReference, rest[1], line)
                    }
                }
                continue
            }
            if thread != nil, threadChildIndent == nil { threadChildIndent = line.indent }
            let underThread = thread != nil && line.indent == threadChildIndent
            // A callout's condition (`call 2:`, `on afterWaiting:`) comes before its action.
            if let first = tokens.first, ScenarioKeywords.conditions.contains(first.text),
                let colon = tokens.firstIndex(where: { $0.isPunctuation(":") })
            {
                tokens = tokens[(colon + 1)...]
            }
            guard let first = tokens.first, first.isWord else { continue }
            let second = tokens.dropFirst().first
            if underThread, let kind = SymbolKind(rawValue: first.text), itemKinds.contains(kind),
                let name = second, name.isWord
            {
                for expanded in names(name.text) { add(expanded, kind, name, line) }
                addModes(after: "in", tokens, line, add)
                continue
            }
            switch first.text {
            case "common":
                addModes(after: "common", tokens, line, add)
            case "operation", "detach", "block", "mainqueue", "perform", "set":
                let kind: SymbolKind =
                    switch first.text {
                    case "operation": .operation
                    case "block", "mainqueue": .block
                    case "set": .flag
                    default: .task
                    }
                if let name = second, name.isWord {
                    for expanded in names(name.text) { add(expanded, kind, name, line) }
                }
            case "async":
                let rest = Array(tokens.dropFirst())
                let name = rest.first?.isWord("workItem") == true ? rest.dropFirst().first : rest.first
                if let name, name.isWord {
                    for expanded in names(name.text) { add(expanded, .operation, name, line) }
                }
            case "run":
                if let mode = second, mode.isWord { add(mode.text, .mode, mode, line) }
            default:
                break
            }
        }
        return symbols
    }

    /// The kinds of name an item declaration gives.
    static let itemKinds: Set<SymbolKind> = [.source0, .port, .timer, .observer]

    /// Adds the modes listed after `word` on `tokens` (`in default, Tracking`).
    private static func addModes(
        after word: String, _ tokens: ArraySlice<ScenarioToken>, _ line: ScenarioLine,
        _ add: (String, SymbolKind, ScenarioToken, ScenarioLine) -> Void
    ) {
        guard var index = tokens.firstIndex(where: { $0.isWord(word) }) else { return }
        index += 1
        while index < tokens.endIndex, tokens[index].isWord {
            let mode = tokens[index]
            if !["common", "nothing"].contains(mode.text) { add(mode.text, .mode, mode, line) }
            index += 1
            guard index < tokens.endIndex, tokens[index].isPunctuation(",") else { break }
            index += 1
        }
    }

    /// The names a declared word stands for: itself, or each name of a range (`p1..4`: p1, p2, p3, p4; at most
    /// 1,000, as the parser allows).
    static func names(_ word: String) -> [String] {
        guard let dots = word.firstRange(of: "..") else { return [word] }
        let head = word[..<dots.lowerBound]
        let digits = head.reversed().prefix { $0.isASCII && $0.isNumber }
        let prefix = head.dropLast(digits.count)
        guard let low = Int(String(digits.reversed())), let high = Int(word[dots.upperBound...]), low <= high,
            high - low < 1000
        else { return [word] }
        return (low...high).map { "\(prefix)\($0)" }
    }

    /// The token under a protocol position, with its line's tokens and its index among them.
    func token(at position: Position) -> (line: ScenarioLine, index: Int)? {
        guard let place = place(of: position), place.line <= lines.count else { return nil }
        let text = String(lines[place.line - 1])
        let (scanned, _) = ScenarioLexer.lines(of: text) { _, _, _, _ in }
        guard var line = scanned.first else { return nil }
        line.number = place.line
        for (index, token) in line.tokens.enumerated() {
            let end = token.column + Self.length(of: token, in: line.text)
            if place.column >= token.column && place.column < end { return (line, index) }
        }
        // The end of a word (where an editor puts the cursor after typing it) counts as the word.
        for (index, token) in line.tokens.enumerated().reversed() where token.isWord {
            if place.column == token.column + Self.length(of: token, in: line.text) { return (line, index) }
        }
        return nil
    }

    /// How many characters `token` takes in its line's text.
    static func length(of token: ScenarioToken, in text: String) -> Int {
        switch token.kind {
        case .string:
            let characters = Array(text)
            var index = token.column
            while index < characters.count && characters[index] != "\"" {
                index += characters[index] == "\\" ? 2 : 1
            }
            return min(index + 1, characters.count) - (token.column - 1)
        default:
            return token.text.count
        }
    }

    /// The declaration `name` stands for, as seen from `thread` (an item of that thread first).
    func declaration(of name: String, thread: String?, in symbols: [Symbol]) -> Symbol? {
        symbols.first { $0.name == name && $0.thread != nil && $0.thread == thread }
            ?? symbols.first { $0.name == name }
    }
}
