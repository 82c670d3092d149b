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
    /// catalogue (whose rows are messages, not constructs), and the lists of the Expectations section (what each
    /// event of the trace is).
    package static func excerpt(of markdown: String) -> String {
        var kept: [Substring] = []
        var inCode = false
        var inExpectations = false
        var inItem = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard !inCode else { continue }
            if line == "## Errors" { break }
            if line.hasPrefix("## ") { inExpectations = line == "## \(expectations)" }
            // A list item and the lines that go on with it (indented under it).
            inItem = inExpectations && (line.hasPrefix("- ") || (inItem && line.hasPrefix("  ")))
            if line.hasPrefix("#") || (line.hasPrefix("|") && !line.hasPrefix("| ---")) || inItem {
                kept.append(line)
            }
        }
        return kept.joined(separator: "\n")
    }

    /// The section whose lists say what the trace's events are.
    static let expectations = "Expectations"

    /// One item of the Expectations section's lists, whole, and the event kinds and activities it names in code.
    package struct Event: Equatable, Sendable {
        package var text: String
        package var kinds: [String]
    }

    /// The Expectations section's list items that name an event kind or an activity.
    package static let events: [Event] = {
        var items: [String] = []
        var section = ""
        for line in document.split(separator: "\n") {
            if line.hasPrefix("#") { section = String(line.drop { $0 == "#" || $0 == " " }) }
            guard section == expectations else { continue }
            if line.hasPrefix("- ") {
                items.append(String(line.dropFirst(2)))
            } else if line.hasPrefix("  "), !items.isEmpty {
                items[items.count - 1] += " " + line.drop { $0 == " " }
            }
        }
        return items.compactMap { text in
            let kinds = codeSpans(text).filter {
                LoopEvent.Kind(rawValue: $0) != nil || (Activity(name: $0) != nil && $0 != "all") || $0 == "returned"
            }
            return kinds.isEmpty ? nil : Event(text: text, kinds: kinds)
        }
    }()

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
            // The Expectations section's lists are `events`, not rows.
            guard line.hasPrefix("|") else { continue }
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
