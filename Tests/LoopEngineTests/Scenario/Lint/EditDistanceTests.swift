import Testing

@testable import LoopEngine

@Suite("edit distance: how far a typo is from the word meant")
struct EditDistanceTests {
    @Test(
        "the distance counts insertions, deletions, substitutions and swaps of neighbours, one each",
        arguments: [
            ("timer", "timer", 0), ("timr", "timer", 1), ("timers", "timer", 1), ("tinmer", "timer", 1),
            ("tiemr", "timer", 1), ("rendr", "render", 1), ("Trackng", "Tracking", 1), ("ca", "abc", 3),
            ("", "abc", 3), ("abc", "", 3), ("kitten", "sitting", 3),
        ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(EditDistance.between(a, b) == expected)
    }

    @Test("words longer than the bound are not compared")
    func longWords() {
        let long = String(repeating: "a", count: EditDistance.maxLength + 1)
        #expect(EditDistance.between(long, "a") == nil)
        #expect(EditDistance.nearest(to: long, among: ["a"]) == nil)
    }

    @Test("a hint looks at the first maxCandidates known words only, however many a file declares")
    func boundedCandidates() {
        let many = Array(repeating: "zzzz", count: EditDistance.maxCandidates)
        #expect(EditDistance.nearest(to: "tik", among: ["tick"] + many) == "tick")
        #expect(EditDistance.nearest(to: "tik", among: many + ["tick"]) == nil)
    }

    @Test(
        "the nearest known word: another case first, then the closest within 1 (short words) or 2 edits",
        arguments: [
            ("afterwaiting", ["beforeWaiting", "afterWaiting"], "afterWaiting"),
            ("timeout", ["finished", "stopped", "timedOut", "handledSource"], "timedOut"),
            ("timr", ["work", "timer", "signal"], "timer"),
            ("tik", ["tick"], "tick"),
            ("xyz", ["timer", "tick"], nil),
            ("ab", ["cd"], nil),
            ("render", ["render"], nil),
        ] as [(String, [String], String?)])
    func nearest(_ word: String, _ known: [String], _ expected: String?) {
        #expect(EditDistance.nearest(to: word, among: known) == expected)
    }
}
