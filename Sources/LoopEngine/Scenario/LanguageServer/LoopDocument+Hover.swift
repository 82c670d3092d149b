/// What hover shows: for a name, what it is, where it is declared and the rule of its kind; for a word of the
/// language, the rows of docs/language.md that explain it (`LanguageReference`), word for word.
extension LoopDocument {
    /// How many rows one hover shows at most (`say` has four).
    static let maxHoverEntries = 4

    /// The hover's Markdown at `position`, or nil when there is nothing to say there.
    package func hover(at position: Position) -> (text: String, range: Range)? {
        guard let (line, index) = token(at: position) else { return nil }
        let token = line.tokens[index]
        guard token.isWord else { return nil }
        let range = tokenRange(line: line.number, column: token.column)
        let thread = enclosingThread(line: line.number, symbols: symbols)
        let keywordPlace = index == firstActionIndex(line)
        if !(keywordPlace && ScenarioKeywords.all.contains(token.text)),
            let symbol = declaration(of: token.text, thread: thread, in: symbols)
        {
            return (describe(symbol), range)
        }
        let entries = Self.entries(for: token.text, line: line, index: index, keywordPlace: keywordPlace)
        if !entries.isEmpty {
            return (entries.prefix(Self.maxHoverEntries).map(Self.describe).joined(separator: "\n\n---\n\n"), range)
        }
        // An event an `expect`, `say … after` or `claims` line names (`sleep`, `runStart`): what the page says of it.
        let events = LanguageReference.events.filter { $0.kinds.contains(token.text) }
        guard !events.isEmpty else { return nil }
        let text = events.prefix(Self.maxHoverEntries).map {
            "\($0.text)\n\n(docs/language.md, \(LanguageReference.expectations))"
        }
        return (text.joined(separator: "\n\n---\n\n"), range)
    }

    /// The index of the line's first action word: after a callout's condition (`call 2: stop`), else 0.
    func firstActionIndex(_ line: ScenarioLine) -> Int {
        guard let first = line.tokens.first, ScenarioKeywords.conditions.contains(first.text),
            let colon = line.tokens.firstIndex(where: { $0.isPunctuation(":") })
        else { return 0 }
        return colon + 1
    }

    /// The rows that explain `word` where it is: the line's construct for a word that starts it (the top level's
    /// rows for a line at the top level, the others for one under it), else the line's rows that hold the word,
    /// else any row the word starts or is in.
    static func entries(
        for word: String, line: ScenarioLine, index: Int, keywordPlace: Bool
    ) -> [LanguageReference.Entry] {
        let topLevel = "The top level"
        if keywordPlace {
            let rows = LanguageReference.entries(introducedBy: word)
            let placed = rows.filter { ($0.section == topLevel) == (line.indent == 0) }
            return placed.isEmpty ? rows : placed
        }
        let lead = line.tokens.first(where: \.isWord)?.text
        if let lead {
            let rows = LanguageReference.entries(introducedBy: lead).filter {
                $0.innerWords.contains(word) || $0.leadWords.contains(word)
            }
            if !rows.isEmpty { return rows }
        }
        let rows = LanguageReference.entries(introducedBy: word)
        if !rows.isEmpty { return rows }
        // On a line that names events (a narration's anchor, a claim, an expected step), a word only an action's
        // row mentions (`sleep` in `await sleep D`) is an event: hover then shows the Expectations list's words.
        let namesEvents = lead.map { !ScenarioKeywords.actions.contains($0) || ["say", "note", "ask"].contains($0) }
        if namesEvents ?? true, LanguageReference.events.contains(where: { $0.kinds.contains(word) }) { return [] }
        return LanguageReference.entries(mentioning: word)
    }

    /// One row as Markdown: the construct, what it does, its example and where the page has it.
    static func describe(_ entry: LanguageReference.Entry) -> String {
        var text = "\(entry.construct): \(entry.meaning)"
        if let example = entry.example { text += "\n\n`\(example)`" }
        return text + "\n\n(docs/language.md, \(entry.section))"
    }

    /// A name: its kind, its thread, its declaration's line, and the rule of its kind (the row of its keyword).
    func describe(_ symbol: Symbol) -> String {
        var text = "\(symbol.kind.rawValue) `\(symbol.name)`"
        if let thread = symbol.thread { text += " of thread `\(thread)`" }
        text += ", line \(symbol.line)"
        if symbol.line <= lines.count {
            let declaration = lines[symbol.line - 1].drop { $0 == " " }
            text += ":\n\n```loop\n\(declaration)\n```"
        }
        let keyword: String? =
            switch symbol.kind {
            case .thread, .queue, .owner, .operation, .source0, .port, .timer, .observer: symbol.kind.rawValue
            case .block: "block"
            case .flag: "set"
            case .task: "perform"
            case .weakReference: "owner"
            case .mode: nil
            }
        if let keyword, let rule = LanguageReference.entries(introducedBy: keyword).first {
            text += "\n\n" + Self.describe(rule)
        }
        return text
    }

    /// The thread whose block holds `line`: the last thread declared above it, when no other top-level line
    /// comes between.
    func enclosingThread(line: Int, symbols: [Symbol]) -> String? {
        var thread: String?
        for symbol in symbols where symbol.kind == .thread && symbol.line <= line { thread = symbol.name }
        return thread
    }
}
