/// Go-to-definition and completion.
extension LoopDocument {
    /// Where the name at `position` is declared (an item of the line's thread first), or nil for a word that
    /// names nothing the file declares.
    package func definition(at position: Position) -> Range? {
        guard let (line, index) = token(at: position) else { return nil }
        let token = line.tokens[index]
        guard token.isWord else { return nil }
        let thread = enclosingThread(line: line.number, symbols: symbols)
        guard let symbol = declaration(of: token.text, thread: thread, in: symbols) else { return nil }
        return tokenRange(line: symbol.line, column: symbol.column)
    }

    /// One completion: the word, and whether it is a word of the language or a name of the file.
    package struct Completion: Equatable, Sendable {
        package var label: String
        package var symbol: SymbolKind?
    }

    /// The most completions one request returns.
    package static let maxCompletions = 1_000

    /// What may be written at `position`: at the start of a line, the words that start a line there (the top
    /// level's at no indentation, items and actions under it); elsewhere, the file's names, then every word of
    /// the language. Each label once; the editor filters them by what is typed.
    package func completions(at position: Position) -> [Completion] {
        let place = place(of: position)
        var startsLine = true
        var indented = false
        if let place, place.line <= lines.count {
            let before = lines[place.line - 1].prefix(place.column - 1)
            indented = before.first == " "
            let words = before.split(separator: " ")
            // Still typing the first word (or none yet) of the line.
            startsLine = words.count == 0 || (words.count == 1 && before.last != " ")
        }
        var labels: [Completion] = []
        var seen: Set<String> = []
        func add(_ label: String, _ symbol: SymbolKind?) {
            guard labels.count < Self.maxCompletions, seen.insert(label).inserted else { return }
            labels.append(Completion(label: label, symbol: symbol))
        }
        if startsLine {
            let words =
                indented
                ? ScenarioKeywords.items + ["common"] + ScenarioKeywords.actions + ScenarioKeywords.conditions
                    + ScenarioKeywords.sayClaims
                : ScenarioKeywords.topLevel
            for word in words { add(word, nil) }
            return labels
        }
        for symbol in symbols { add(symbol.name, symbol.kind) }
        for word in ScenarioKeywords.all.sorted() { add(word, nil) }
        return labels
    }
}
