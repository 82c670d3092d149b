import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The filter's index keeps exactly the events ``EventFilter/matches(_:)`` keeps, one by one, and finds what a
/// scan of the whole trace finds.
@Suite("the filter's index agrees with a scan of every event")
struct FilterIndexTests {
    /// A lesson's trace as the UI computes it first.
    static func trace(_ name: String) throws -> LoopTrace {
        let url = Snapshot.packageRoot.appendingPathComponent("examples").appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        return Session(script: try ScenarioParser.parse(text, file: "examples/\(name)")).trace
    }

    /// The events `filter` keeps, found by looking at each.
    static func scanned(_ filter: EventFilter, _ trace: LoopTrace) -> [Int32] {
        trace.indices.filter { filter.matches(trace[$0]) }.map(Int32.init)
    }

    static func index(_ filter: EventFilter, _ trace: LoopTrace) -> FilterIndex {
        var index = FilterIndex(filter)
        index.update(to: trace, identity: 1)
        return index
    }

    /// Queries made from what the trace holds: each thread, kind, item and mode, words of its details (any case),
    /// terms of one field as alternatives, of several fields together, and words nothing holds.
    static func queries(_ trace: LoopTrace) -> [String] {
        let threads = Set(trace.map(\.loop)).sorted()
        let kinds = Set(trace.map(\.kind.rawValue)).sorted()
        let items = Set(trace.compactMap(\.name)).sorted()
        let modes = Set(trace.compactMap(\.mode)).sorted()
        // A word with a colon would read as a field (`before:`): those are left out.
        let words = Set(trace.compactMap(\.detail).flatMap { $0.split(separator: " ").map(String.init) })
            .filter { !$0.contains(":") }.sorted()
        var queries = threads.map { "thread:\($0)" } + kinds.map { "kind:\($0)" } + items.map { "item:\($0)" }
        queries += modes.map { "mode:\($0)" } + words.prefix(12).map { $0.uppercased() }
        if kinds.count > 1 { queries.append("kind:\(kinds[0]) kind:\(kinds[1])") }
        if let thread = threads.first, let kind = kinds.last { queries.append("thread:\(thread) kind:\(kind)") }
        if let item = items.first, let mode = modes.first { queries.append("item:\(item) mode:\(mode)") }
        if let word = words.first, let thread = threads.last { queries.append("\(word) \(thread.prefix(2))") }
        queries += ["e", "timer port", "nothing-has-this", "kind:sleep until", "mode:nomode", "item:noitem"]
        return queries
    }

    @Test("on every lesson's trace, each query's index keeps the events a scan keeps", arguments: ExampleFiles.lessons)
    func lessons(_ name: String) throws {
        let trace = try Self.trace(name)
        #expect(!trace.isEmpty)
        for query in Self.queries(trace) {
            let filter = try #require(try EventFilter.parse(query))
            #expect(Self.index(filter, trace).kept == Self.scanned(filter, trace), "\(name): \(query)")
        }
    }

    @Test("randomized filters on the default lesson: the same events, and * and # find what a scan finds")
    func randomized() throws {
        let trace = Session(script: try ScenarioParser.parse(DefaultLesson.text)).trace
        let threads = Set(trace.map(\.loop)).sorted() + ["nobody"]
        let items = Set(trace.compactMap(\.name)).sorted() + ["none"]
        let modes = Set(trace.compactMap(\.mode)).sorted() + ["nomode"]
        let words = ["e", "tim", "SLEEP", "port", "until", "wake", "Main", "x", "1", "("]
        var random = SeededRandom(seed: 37)
        for _ in 0..<200 {
            var terms: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0: terms.append("thread:" + threads.randomElement(using: &random)!)
                case 1: terms.append("kind:" + LoopEvent.Kind.allCases.randomElement(using: &random)!.rawValue)
                case 2: terms.append("item:" + items.randomElement(using: &random)!)
                case 3: terms.append("mode:" + modes.randomElement(using: &random)!)
                default: terms.append(words.randomElement(using: &random)!)
                }
            }
            let filter = try #require(try EventFilter.parse(terms.joined(separator: " ")))
            let index = Self.index(filter, trace)
            let kept = Self.scanned(filter, trace)
            #expect(index.kept == kept, "\(filter.typed)")
            for start in stride(from: 0, through: trace.count, by: max(1, trace.count / 17)) {
                let forward = kept.first { $0 >= start }.map(Int.init)
                let backward = kept.last { $0 < start }.map(Int.init)
                #expect(index.search(from: start, forward: true) == forward, "\(filter.typed) * from \(start)")
                #expect(index.search(from: start, forward: false) == backward, "\(filter.typed) # from \(start)")
                #expect(Array(index.last(3, before: start)) == Array(kept.filter { $0 < start }.suffix(3)))
            }
        }
    }

    @Test("an index grown with the trace equals one made at once; another trace is indexed again")
    func incremental() throws {
        let trace = Session(script: try ScenarioParser.parse(DefaultLesson.text)).trace
        let filter = try #require(try EventFilter.parse("kind:timer kind:sleep"))
        var grown = FilterIndex(filter)
        for count in stride(from: 0, through: trace.count, by: 7) + [trace.count] {
            grown.update(to: trace.firstEvents(count), identity: 1)
            #expect(grown.kept == Self.scanned(filter, trace.firstEvents(count)))
        }
        #expect(grown.kept == Self.index(filter, trace).kept)
        let other = trace.firstEvents(trace.count / 2)
        grown.update(to: other, identity: 2)
        #expect(grown.kept == Self.scanned(filter, other) && grown.isCurrent(for: other, identity: 2))
    }

    @Test("* finds a match 5,000 events away in one key, and the filtered log shows it from there")
    func farMatch() throws {
        let count = 5_001
        let trace = LoopTrace(
            (0..<count).map { index in
                LoopEvent(
                    time: .zero + .milliseconds(index), loop: "T", depth: 1, mode: "default", iteration: index,
                    kind: index == count - 1 ? .timer : .beforeTimers)
            })
        let index = Self.index(EventFilter(typed: "kind:timer", kinds: [.timer]), trace)
        #expect(index.search(from: 0, forward: true) == count - 1)
        #expect(index.search(from: count - 1, forward: false) == nil)
        #expect(Array(index.last(10, before: count)) == [Int32(count - 1)])
    }
}

/// SplitMix64: the same filters on every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
