import Foundation
import SnapshotSupport
import Testing

@testable import LoopEngine

/// editors/loop.tmLanguage.json colours every word of the language: the parser's own list (`ScenarioKeywords`)
/// and every event kind an `expect` line names, each as a whole word.
@Suite("the TextMate grammar")
struct TextMateGrammarTests {
    /// The grammar's keyword patterns, compiled (TextMate's Oniguruma and ICU agree on these: alternations,
    /// escapes, look-arounds).
    static func keywordPatterns() throws -> [NSRegularExpression] {
        let url = Snapshot.packageRoot.appendingPathComponent("editors/loop.tmLanguage.json")
        let grammar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(grammar["scopeName"] as? String == "source.loop")
        let repository = try #require(grammar["repository"] as? [String: Any])
        let keywords = try #require(repository["keywords"] as? [String: Any])
        let patterns = try #require(keywords["patterns"] as? [[String: Any]])
        return try patterns.map { try NSRegularExpression(pattern: try #require($0["match"] as? String)) }
    }

    /// True when some pattern matches `word` whole.
    static func colours(_ word: String, _ patterns: [NSRegularExpression]) -> Bool {
        let whole = NSRange(word.startIndex..., in: word)
        return patterns.contains { $0.firstMatch(in: word, range: whole)?.range == whole }
    }

    @Test("every keyword of ScenarioKeywords.all is coloured as a whole word")
    func everyKeyword() throws {
        let patterns = try Self.keywordPatterns()
        let missing = ScenarioKeywords.all.sorted().filter { !Self.colours($0, patterns) }
        #expect(missing == [])
    }

    @Test("every event kind, activity and run result is coloured")
    func everyEvent() throws {
        let patterns = try Self.keywordPatterns()
        let words = LoopEvent.Kind.allCases.map(\.rawValue) + ["all"] + RunResult.allCases.map(\.description)
        #expect(words.filter { !Self.colours($0, patterns) } == [])
    }

    @Test("a keyword inside a longer word is not coloured (RunLoop.run's run, a range's names)")
    func wholeWordsOnly() throws {
        let patterns = try Self.keywordPatterns()
        for text in ["RunLoop.runner", "runs", "p1..4", "timers", "x.run"] {
            let range = NSRange(text.startIndex..., in: text)
            let partial = patterns.compactMap { $0.firstMatch(in: text, range: range) }
                .filter { $0.range != range }
            #expect(partial.isEmpty, "\(text)")
        }
    }
}
