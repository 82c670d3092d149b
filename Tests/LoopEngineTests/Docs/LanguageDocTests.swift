import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// docs/language.md is the one description of the `.loop` language: every word the parser knows must be
/// explained there, in code (a code span or a code block), so a word added to the parser without its
/// documentation fails here.
@Suite("docs/language.md documents the whole language")
struct LanguageDocTests {
    /// The words written in code in docs/language.md: code spans and code blocks, split at anything that cannot
    /// be part of a word (a dot can: `RunLoop.run`).
    static let documentedWords: Set<String> = {
        let url = Snapshot.packageRoot.appendingPathComponent("docs/language.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var code = ""
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock {
                code += line + "\n"
                continue
            }
            // Inline code spans: the odd pieces between backticks.
            for (index, piece) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            where index % 2 == 1 {
                code += piece + "\n"
            }
        }
        let wordCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_."))
        return Set(
            code.unicodeScalars.split { !wordCharacters.contains($0) }.map { String(String.UnicodeScalarView($0)) }
                .flatMap { word in [word, word.trimmingCharacters(in: CharacterSet(charactersIn: "."))] })
    }()

    static func missing(_ words: some Sequence<String>) -> [String] {
        words.filter { !documentedWords.contains($0) }.sorted()
    }

    @Test("every keyword the parser accepts is written in code in docs/language.md")
    func everyKeywordIsDocumented() {
        #expect(!Self.documentedWords.isEmpty, "docs/language.md is missing or has no code")
        #expect(Self.missing(ScenarioKeywords.all) == [])
    }

    @Test("every activity, event, result, priority and profile the parser reads is documented")
    func everyNamedValueIsDocumented() {
        #expect(Self.missing(LoopEvent.Kind.activities.map(\.rawValue) + ["all"]) == [])
        #expect(Self.missing(LoopEvent.Kind.allCases.map(\.rawValue)) == [])
        #expect(Self.missing(RunResult.allCases.map(\.description)) == [])
        #expect(Self.missing(QueuePriority.allCases.map(\.description)) == [])
        #expect(Self.missing(PlatformProfile.allCases.map(\.rawValue)) == [])
    }

    /// The words the parser's sources look for (`cursor.accept("for")`, `token.isWord("thread")`): read from the
    /// files, since a word the list lacks would only trip the cursor's assertion on the path that asks for it.
    static let acceptedInSources: Set<String> = {
        let folder = Snapshot.packageRoot.appendingPathComponent("Sources/LoopEngine/Scenario/Parser")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var words: Set<String> = []
        for file in files where file.hasSuffix(".swift") {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else {
                continue
            }
            for call in [".accept(\"", ".isWord(\""] {
                for piece in text.components(separatedBy: call).dropFirst() {
                    words.insert(String(piece.prefix { $0 != "\"" }))
                }
            }
        }
        return words
    }()

    @Test("every word the parser looks for is one of ScenarioKeywords")
    func everyAcceptedWordIsAKeyword() {
        #expect(Self.acceptedInSources.count > 20)
        #expect(Self.acceptedInSources.subtracting(ScenarioKeywords.all).sorted() == [])
    }
}
