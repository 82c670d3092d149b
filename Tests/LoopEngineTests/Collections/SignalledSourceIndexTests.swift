import Testing

@testable import LoopEngine

/// A version-0 pass used to walk every source of the mode to find the signalled ones, as CF does: 100,000 sources
/// cost 2.7 ms an iteration even with none signalled (issue 38). Each mode now notes its signalled sources.
@Suite("a version-0 pass reads the signalled sources, not all of them")
struct SignalledSourceIndexTests {
    @Test("of 20,000 sources the pass reads the two signalled, performs them by order, and then reads none")
    func passReadsSignalledOnly() throws {
        let harness = VirtualHarness()
        let log = Rules.CallLog()
        var sources: [LoopSource] = []
        for index in 0..<20_000 {
            let source = LoopSource(name: "s\(index)", order: index == 7 ? 0 : 1) { log.append("s\(index)") }
            harness.loop.add(source, to: .default)
            sources.append(source)
        }
        let mode = try #require(harness.loop.modes[.default])
        #expect(mode.takeSignalledSources0().isEmpty)
        sources[19_000].signal()
        sources[7].signal()
        sources[19_000].signal()
        #expect(Set(mode.takeSignalledSources0().map(\.name)) == ["s19000", "s7"])
        _ = harness.run(.default, 0)
        #expect(log.entries == ["s7", "s19000"])
        #expect(mode.takeSignalledSources0().isEmpty)
    }

    @Test("a source signalled before it joins a mode, or while in another mode, is performed when that mode runs")
    func signalledBeforeJoining() throws {
        let harness = VirtualHarness()
        let log = Rules.CallLog()
        let early = LoopSource(name: "early") { log.append("early") }
        let shared = LoopSource(name: "shared") { log.append("shared") }
        harness.loop.add(shared, to: ModeName("Other"))
        early.signal()
        shared.signal()
        harness.loop.add(early, to: .default)
        harness.loop.add(shared, to: .default)
        let mode = try #require(harness.loop.modes[.default])
        #expect(Set(mode.takeSignalledSources0().map(\.name)) == ["early", "shared"])
        _ = harness.run(.default, 0)
        #expect(log.entries == ["early", "shared"])
        let other = try #require(harness.loop.modes[ModeName("Other")])
        #expect(other.takeSignalledSources0().isEmpty)
    }
}
