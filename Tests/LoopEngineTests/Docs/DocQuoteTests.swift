import Foundation
import SnapshotSupport
import Testing

/// A scenario quoted in the README or in docs/ is marked `<!-- quoted from examples/NAME.loop -->` on the line
/// before its code block; the block must be a run of consecutive lines of that file, so a lesson that changes
/// cannot leave a stale copy behind.
@Suite("scenarios quoted in the README and docs/ match their files")
struct DocQuoteTests {
    struct Quote: CustomTestStringConvertible, Sendable {
        var document: String
        var line: Int
        var file: String
        var lines: [String]
        var testDescription: String { "\(document):\(line) quotes \(file)" }
    }

    static let marker = "<!-- quoted from "

    static func quotes(in document: String) -> [Quote] {
        let url = Snapshot.packageRoot.appendingPathComponent(document)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var quotes: [Quote] = []
        for (index, line) in lines.enumerated() where line.hasPrefix(marker) && line.hasSuffix(" -->") {
            let file = String(line.dropFirst(marker.count).dropLast(4))
            var block: [String] = []
            if index + 1 < lines.count, lines[index + 1].hasPrefix("```") {
                block = Array(lines[(index + 2)...].prefix { !$0.hasPrefix("```") })
            }
            quotes.append(Quote(document: document, line: index + 1, file: file, lines: block))
        }
        return quotes
    }

    static let documents: [String] = {
        let docs =
            (try? FileManager.default.contentsOfDirectory(
                atPath: Snapshot.packageRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md", "examples/README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    static let allQuotes = documents.flatMap(quotes(in:))

    @Test("the README quotes at least one lesson")
    func readmeQuotesALesson() {
        #expect(Self.allQuotes.contains { $0.document == "README.md" && !$0.lines.isEmpty })
    }

    @Test("each quoted block is a run of consecutive lines of the file it names", arguments: allQuotes)
    func quoteMatchesItsFile(_ quote: Quote) throws {
        #expect(!quote.lines.isEmpty, "the marker must be followed by a code block")
        let url = Snapshot.packageRoot.appendingPathComponent(quote.file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let fileLines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let found = fileLines.indices.contains { start in
            fileLines[start...].starts(with: quote.lines)
        }
        #expect(found, "\(quote.document):\(quote.line): the block is not in \(quote.file) as written")
    }
}
