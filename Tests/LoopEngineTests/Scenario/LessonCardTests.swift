import Foundation
import SnapshotSupport
import Testing

@testable import LoopEngine

@Suite("a lesson's header comment read as its card")
struct LessonCardTests {
    static let sample = """
        # A port keeps the loop alive: the mode is not empty, so the loop
        # sleeps. It uses no CPU, e.g. while idle.
        #
        # Watch for: one pass, then
        # sleep.
        #
        # Not modelled: the kernel's own queue.
        #
        # Try: remove the port.
        #
        # Topics: ports, threads, sleep
        #
        # [zh]
        # 端口让运行循环
        # 保持活着。
        #
        # 看点：先跑一遍，然后睡眠。

        scenario "x"
        # not part of the header
        """

    @Test("the parts are split at empty comment lines and labelled by Watch for, Try and Topics")
    func partsAreSplit() {
        let card = LessonCard(source: Self.sample)
        #expect(
            card.words[.en]
                == LessonCard.Words(
                    teaches: [
                        "A port keeps the loop alive: the mode is not empty, so the loop sleeps. It uses no CPU, e.g. while idle."
                    ],
                    watchFor: "one pass, then sleep.", tryThis: "remove the port.",
                    notes: ["Not modelled: the kernel's own queue."]))
        #expect(card.topics == [.ports, .threads])
        #expect(card.unknownTopics == ["sleep"])
    }

    @Test(
        "a translation's lines join without spaces between Chinese characters, and missing parts fall back to English")
    func translationFallsBack() {
        let card = LessonCard(source: Self.sample)
        #expect(
            card.words(in: .zh)
                == LessonCard.Words(
                    teaches: ["端口让运行循环保持活着。"], watchFor: "先跑一遍，然后睡眠。", tryThis: "remove the port.",
                    notes: ["Not modelled: the kernel's own queue."]))
        #expect(card.words(in: .en) == card.words[.en])
    }

    @Test("the first sentence ends at a full stop outside code, not at an abbreviation")
    func firstSentence() {
        #expect(
            LessonCard(source: Self.sample).words[.en]?.firstSentence
                == "A port keeps the loop alive: the mode is not empty, so the loop sleeps.")
        #expect(LessonCard.firstSentence(of: "Run `a.b` first. Then more.") == "Run `a.b` first.")
        #expect(LessonCard.firstSentence(of: "端口让线程活着。然后睡。") == "端口让线程活着。")
        #expect(LessonCard.firstSentence(of: "No stop") == "No stop")
    }

    @Test("a file without a header has an empty card, and the card reads the parser's header the same way")
    func emptyAndParsed() throws {
        #expect(LessonCard(source: "scenario \"x\"\n# late\n").isEmpty)
        let script = try ScenarioParser.parse(Self.sample + "\nthread T\n  run default for 1s\n", file: "sample.loop")
        #expect(script.card == LessonCard(source: Self.sample))
    }

    @Test("a header is read up to a bound, however long the comment")
    func headerIsBounded() {
        let long = String(repeating: "# line\n#\n", count: 10_000)
        let card = LessonCard(source: long)
        #expect(card.words[.en]?.teaches.count == LessonCard.maximumHeaderLines / 2)
    }

    @Test("a locale name picks a language loopviz has words in")
    func localeNames() {
        #expect(Language(locale: "zh_CN.UTF-8") == .zh)
        #expect(Language(locale: "en_GB") == .en)
        #expect(Language(locale: "C") == nil)
        #expect(Language(locale: "") == nil)
    }

    static let lessons: [String] = {
        let folder = Snapshot.packageRoot.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".loop") }.sorted()
    }()

    @Test("every lesson's card says what it teaches, what to watch for and what to try", arguments: lessons)
    func everyLessonHasACard(_ name: String) throws {
        let url = Snapshot.packageRoot.appendingPathComponent("examples").appendingPathComponent(name)
        let card = LessonCard(source: try String(contentsOf: url, encoding: .utf8))
        let words = try #require(card.words[.en])
        #expect(!words.teaches.isEmpty, "\(name): no paragraph of what it teaches")
        #expect(words.watchFor != nil, "\(name): no `Watch for:` paragraph")
        #expect(words.tryThis != nil, "\(name): no `Try:` paragraph")
        #expect(card.unknownTopics.isEmpty, "\(name): unknown topics \(card.unknownTopics)")
        for (language, translated) in card.words where language != .en {
            #expect(
                translated.watchFor != nil && translated.tryThis != nil, "\(name): its [\(language)] card lacks a part")
        }
    }
}
