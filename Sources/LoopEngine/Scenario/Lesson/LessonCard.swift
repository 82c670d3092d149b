/// What a lesson says about itself: its header comment, read as a card the UI can show (what it teaches, what to
/// watch for, what to try) and the topics a lesson picker files it under. The header is the comment block a
/// lesson starts with; docs/language.md ("Lesson cards") defines its format.
package struct LessonCard: Equatable, Sendable {
    /// The card's words in one language.
    package struct Words: Equatable, Sendable {
        /// What the lesson teaches, a paragraph per element.
        package var teaches: [String] = []
        /// The `Watch for:` paragraph, without its label.
        package var watchFor: String?
        /// The `Try:` paragraph, without its label.
        package var tryThis: String?
        /// Paragraphs after the first label that carry none (what is not modelled, what is not here yet).
        package var notes: [String] = []

        package var isEmpty: Bool { teaches.isEmpty && watchFor == nil && tryThis == nil && notes.isEmpty }

        /// The first sentence of what the lesson teaches: a picker's one line.
        package var firstSentence: String? {
            guard let first = teaches.first else { return nil }
            return LessonCard.firstSentence(of: first)
        }
    }

    /// What a lesson can be about; a picker filters on these.
    package enum Topic: String, CaseIterable, Sendable, Hashable {
        case modes, timers, sources, ports, observers, blocks, stop, threads, perform, pool, dates, queries, nested
    }

    /// The card's words by language; English (`.en`) is the lesson's own and is there whenever the header is.
    package var words: [Language: Words] = [:]
    package var topics: [Topic] = []
    /// Words of the `Topics:` line that are not topics, in order, so a check can name them.
    package var unknownTopics: [String] = []

    /// The card's words in `language`, part by part falling back to English where the translation has none.
    package func words(in language: Language) -> Words {
        let english = words[.en] ?? Words()
        guard language != .en, let translated = words[language] else { return english }
        return Words(
            teaches: translated.teaches.isEmpty ? english.teaches : translated.teaches,
            watchFor: translated.watchFor ?? english.watchFor,
            tryThis: translated.tryThis ?? english.tryThis,
            notes: translated.notes.isEmpty ? english.notes : translated.notes)
    }

    /// True when the lesson has no header comment at all.
    package var isEmpty: Bool { words.values.allSatisfy(\.isEmpty) && topics.isEmpty && unknownTopics.isEmpty }
}

extension LessonCard {
    /// The labels that open a part, per language; English labels are accepted in every section.
    static let watchLabels = ["Watch for:", "看点：", "看点:"]
    static let tryLabels = ["Try:", "试试：", "试试:"]
    static let topicsLabel = "Topics:"
    /// Header lines read at most: a header is a short comment, and a file of comments must not make a huge card.
    static let maximumHeaderLines = 200

    /// The card of a lesson's `source`: its leading comment lines (blank lines between them allowed), read as
    /// `init(header:)` reads them.
    package init(source: String) {
        var header: [String] = []
        for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingSpaces()
            if line.isEmpty { continue }
            guard line.hasPrefix("#"), header.count < Self.maximumHeaderLines else { break }
            header.append(Substring(line).dropFirst().trimmingSpaces())
        }
        self.init(header: header)
    }

    /// The card of a header (the comment lines without their `#`, as `LoopScript.header` holds them), split into
    /// paragraphs at empty lines, with a line `[LANG]` starting the section of a translation.
    package init(header: [String]) {
        var language = Language.en
        var paragraph: [String] = []
        var sections: [Language: [String]] = [:]
        var order: [Language] = []
        func endParagraph() {
            guard !paragraph.isEmpty else { return }
            if sections[language] == nil { order.append(language) }
            sections[language, default: []].append(LessonCard.joined(paragraph))
            paragraph = []
        }
        for rawLine in header.prefix(Self.maximumHeaderLines) {
            let line = Substring(rawLine).trimmingSpaces()
            if line.isEmpty {
                endParagraph()
            } else if line.hasPrefix("["), line.hasSuffix("]"),
                let tagged = Language(rawValue: String(line.dropFirst().dropLast()))
            {
                endParagraph()
                language = tagged
            } else {
                paragraph.append(line)
            }
        }
        endParagraph()
        for language in order { words[language] = parseWords(sections[language] ?? []) }
    }

    /// Sorts a section's paragraphs into parts; the `Topics:` line is taken out wherever it is.
    private mutating func parseWords(_ paragraphs: [String]) -> Words {
        var result = Words()
        var sawLabel = false
        for paragraph in paragraphs {
            if let rest = Self.strip(paragraph, labels: [Self.topicsLabel]) {
                readTopics(rest)
            } else if let rest = Self.strip(paragraph, labels: Self.watchLabels) {
                result.watchFor = rest
                sawLabel = true
            } else if let rest = Self.strip(paragraph, labels: Self.tryLabels) {
                result.tryThis = rest
                sawLabel = true
            } else if sawLabel {
                result.notes.append(paragraph)
            } else {
                result.teaches.append(paragraph)
            }
        }
        return result
    }

    private mutating func readTopics(_ list: String) {
        for word in list.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let name = word.lowercased()
            if let topic = Topic(rawValue: name) {
                if !topics.contains(topic) { topics.append(topic) }
            } else {
                unknownTopics.append(String(word))
            }
        }
    }

    private static func strip(_ paragraph: String, labels: [String]) -> String? {
        for label in labels where paragraph.hasPrefix(label) {
            return String(paragraph.dropFirst(label.count)).trimmingSpaces()
        }
        return nil
    }

    /// A paragraph's lines as one text: a space between words, none where a line break falls between two wide
    /// (CJK) characters, since Chinese has no spaces between words.
    static func joined(_ lines: [String]) -> String {
        var text = ""
        for line in lines {
            if let last = text.unicodeScalars.last, let first = line.unicodeScalars.first,
                !(DisplayWidth.isWide(last.value) && DisplayWidth.isWide(first.value))
            {
                text += " "
            }
            text += line
        }
        return text
    }

    /// Words whose full stop ends no sentence.
    static let abbreviations = ["e.g.", "i.e.", "etc.", "vs."]

    /// Up to the first `. ` (or `。`) outside back-quotes, or the whole paragraph.
    static func firstSentence(of paragraph: String) -> String {
        var inCode = false
        var index = paragraph.startIndex
        while index < paragraph.endIndex {
            let character = paragraph[index]
            let next = paragraph.index(after: index)
            if character == "`" {
                inCode.toggle()
            } else if !inCode, character == "。" {
                return String(paragraph[..<next])
            } else if !inCode, character == ".", next == paragraph.endIndex || paragraph[next] == " ",
                !Self.abbreviations.contains(where: { paragraph[..<next].hasSuffix($0) })
            {
                return String(paragraph[..<next])
            }
            index = next
        }
        return paragraph
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String { Substring(self).trimmingSpaces() }
}
