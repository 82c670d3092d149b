/// What hover says about a construct: the rows of docs/language.md's tables, word for word. The page is the one
/// description of the language; `LanguageReference/document` holds its tables (headings and rows, nothing
/// else), and `LanguageReferenceTests` fails when they are not the page's as it is today
/// (`RECORD_SNAPSHOTS=1` writes them again).
package enum LanguageReference {
    /// One row of a table: the construct as the page writes it (`timer NAME at DURATION [every DURATION] …`),
    /// what it does, its example, and the section it is in.
    package struct Entry: Equatable, Sendable {
        package var section: String
        package var construct: String
        package var meaning: String
        package var example: String?
        /// The first word of each code span of the construct (`wakeup` / `wake up`: wakeup, wake).
        package var leadWords: [String]
        /// The other words of the language the construct's code spans hold (`query limitDate M`: limitDate).
        package var innerWords: [String]
    }

    /// The part of the page hover reads: its headings and table rows, outside code blocks, up to the error
    /// catalogue (whose rows are messages, not constructs).
    package static func excerpt(of markdown: String) -> String {
        var kept: [Substring] = []
        var inCode = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard !inCode else { continue }
            if line == "## Errors" { break }
            if line.hasPrefix("#") || (line.hasPrefix("|") && !line.hasPrefix("| ---")) { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    /// Every row of `document` that explains a construct (a table's first row, its head, is left out).
    package static let entries: [Entry] = parse(document)

    static func parse(_ excerpt: String) -> [Entry] {
        var entries: [Entry] = []
        var section = ""
        var head: [String]?
        for line in excerpt.split(separator: "\n") {
            if line.hasPrefix("#") {
                section = String(line.drop { $0 == "#" || $0 == " " })
                head = nil
                continue
            }
            // The first row of each table is its head (`| item | what it is | example |`).
            guard let columns = head else {
                head = Self.cells(line)
                continue
            }
            let cells = Self.cells(line)
            guard cells.count >= 2 else { continue }
            // A last column headed `example` is the example; every other column after the first says what the
            // construct does (`| question | the call | what it answers |`: both).
            let hasExample = columns.last == "example" && cells.count >= 3
            let meaning = cells[1..<(hasExample ? cells.count - 1 : cells.count)].joined(separator: "; ")
            let spans = Self.codeSpans(cells[0])
            let firstWords = spans.compactMap { Self.words(of: $0).first }
            guard !firstWords.isEmpty else { continue }
            let inner = spans.flatMap { Self.words(of: $0).dropFirst() }.filter {
                ScenarioKeywords.all.contains($0) && $0.first!.isLowercase
            }
            let example = hasExample ? Self.codeSpans(cells[cells.count - 1]).first : nil
            entries.append(
                Entry(
                    section: section, construct: cells[0], meaning: meaning, example: example, leadWords: firstWords,
                    innerWords: inner))
        }
        return entries
    }

    /// The cells of a table row, `\|` read as `|`.
    static func cells(_ row: Substring) -> [String] {
        var cells: [String] = []
        var cell = ""
        var characters = row.dropFirst().makeIterator()
        while let character = characters.next() {
            if character == "\\" {
                if let next = characters.next() { cell.append(next == "|" ? "|" : "\\\(next)") }
            } else if character == "|" {
                cells.append(String(cell.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))
                cell = ""
            } else {
                cell.append(character)
            }
        }
        return cells
    }

    /// The text of each `` `code span` `` of a cell.
    static func codeSpans(_ cell: String) -> [String] {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
    }

    /// The words of a code span, as the lexer reads words (`RunLoop.run`, `CFRunLoopRun`).
    static func words(of span: String) -> [String] {
        span.split { !(LoopDocument.isWordCharacter($0)) }.map(String.init).filter { $0.first?.isLetter == true }
    }

    /// The rows a construct's first word introduces (`timer`: the item), in the page's order.
    package static func entries(introducedBy word: String) -> [Entry] {
        entries.filter { $0.leadWords.contains(word) }
    }

    /// The rows whose construct holds `word` after its first word (`limitDate`: `query limitDate M`).
    package static func entries(mentioning word: String) -> [Entry] {
        entries.filter { $0.innerWords.contains(word) }
    }
}
