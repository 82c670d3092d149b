import Foundation
import SnapshotSupport
import Testing

@testable import LoopEngine

/// Hover explains the language in docs/language.md's words: its tables, held word for word in
/// `LanguageReference.document`, which must be the page's as it is (re-recorded with `RECORD_SNAPSHOTS=1`).
@Suite("the language reference hover reads")
struct LanguageReferenceTests {
    static let generated = "Sources/LoopEngine/Scenario/LanguageServer/LanguageReference+Document.swift"

    @Test(
        "LanguageReference.document is docs/language.md's headings, table rows and Expectations lists as the page has them today"
    )
    func documentIsThePages() throws {
        let page = try String(
            contentsOf: Snapshot.packageRoot.appendingPathComponent("docs/language.md"), encoding: .utf8)
        let excerpt = LanguageReference.excerpt(of: page)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1", excerpt != LanguageReference.document {
            let body = excerpt.split(separator: "\n").map { "        \($0)\n" }.joined()
            let source = """
                // Written by `RECORD_SNAPSHOTS=1 swift test --filter LanguageReferenceTests` from docs/language.md: do not edit.
                extension LanguageReference {
                    /// docs/language.md's headings, table rows and Expectations lists (`excerpt(of:)`), word for word.
                    package static let document = #\"\"\"

                """ + body + "        \"\"\"#\n}\n"
            try Data(source.utf8).write(to: Snapshot.packageRoot.appendingPathComponent(Self.generated))
            Issue.record("re-recorded \(Self.generated): rebuild and run again")
            return
        }
        #expect(
            excerpt == LanguageReference.document,
            "docs/language.md changed: RECORD_SNAPSHOTS=1 swift test --filter LanguageReferenceTests")
    }

    @Test("every word that starts a line (top level, items, actions) has a row of the page to explain it")
    func everyLineWordIsExplained() {
        let words = ScenarioKeywords.topLevel + ScenarioKeywords.items + ScenarioKeywords.actions
        let unexplained = words.filter { LanguageReference.entries(introducedBy: $0).isEmpty }
        #expect(unexplained == [])
    }

    @Test("a row is read as its construct, its meaning, its example and its section; '\\|' is a '|'")
    func rowsAreRead() throws {
        let timer = try #require(LanguageReference.entries(introducedBy: "timer").first)
        #expect(timer.section == "Items")
        #expect(timer.construct == "`timer NAME at DURATION [every DURATION] [tolerance DURATION] [in …]`")
        #expect(
            timer.meaning
                == "a timer, first fired `at` that time from the start; without `every` it fires once; tolerance is ignored on linux"
        )
        #expect(timer.example == "timer tick at 100ms every 200ms in common")
        let queue = try #require(
            LanguageReference.entries(introducedBy: "queue").first { $0.section == "The thread pool" })
        #expect(queue.construct == "`queue Q [limit N|default] [suspended] [idle DURATION]`")
        #expect(LanguageReference.entries(mentioning: "limitDate").map(\.construct) == ["`query limitDate M`"])
    }
}
