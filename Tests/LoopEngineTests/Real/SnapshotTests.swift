import LoopEngine
import Testing

/// `RunLoopCore.snapshot()` on the virtual clock, where every state can be reached exactly.
@Suite("loop snapshots")
struct SnapshotTests {
    @Test("a snapshot taken in a callout shows the runs, the modes and their items as the loop sees them")
    func snapshotInsideACallout() throws {
        let h = VirtualHarness()
        h.loop.addCommonMode("Tracking")
        let port = h.port("P", in: "Tracking")
        h.world.at(h.ms(5)) {
            port.send()
            port.send()
        }
        let source = h.source("S", order: 2)
        h.timer("T", at: 50, every: 100)
        h.observer("O", .beforeWaiting, order: 7)
        h.loop.perform("B", modes: ["Tracking"]) {}
        var taken: RunLoopCore.Snapshot?
        let probe = h.source("probe", order: 1) {
            source.signal()
            taken = h.loop.snapshot()
        }
        probe.signal()
        h.run(.default, 0.01)
        let state = try #require(taken)
        #expect(state.loop == "T")
        let run = try #require(state.runs.first)
        #expect(state.runs.count == 1)
        #expect(run.mode == .default)
        #expect(run.iteration == 1)
        #expect(run.deadline == h.ms(10))
        #expect(!run.stopRequested)
        #expect(!run.ignoresWakeUps)
        #expect(!state.isSleeping)
        #expect(state.commonModes == [.default, "Tracking"])
        // Name order, as `allModes`: upper case sorts first.
        #expect(state.modes.map(\.name) == ["Tracking", .default])
        #expect(state.pendingBlocks == ["B"])
        let defaultMode = try #require(state.modes.last)
        #expect(defaultMode.isCommon)
        #expect(defaultMode.sources.map(\.name) == ["S", "probe"])
        #expect(defaultMode.sources.map(\.isSignalled) == [true, false])
        let timer = try #require(defaultMode.timers.first)
        #expect(defaultMode.timers.count == 1)
        #expect(timer.name == "T")
        #expect(timer.nextFire == h.ms(50))
        #expect(timer.interval == .milliseconds(100))
        #expect(!timer.isFiring)
        #expect(timer.fireCount == 0)
        #expect(defaultMode.observers.map(\.name) == ["O"])
        let tracking = try #require(state.modes.first)
        #expect(tracking.sources.map(\.name) == ["P"])
        // Sent at 5 ms, after this snapshot (taken at 0): nothing pending yet.
        #expect(tracking.sources.first?.pendingMessages == 0)
    }

    @Test("a snapshot counts port messages nobody has read yet (the virtual kernel can tell)")
    func pendingMessages() {
        let h = VirtualHarness()
        let port = h.port("P")
        port.send()
        port.send()
        #expect(h.loop.snapshot().modes.first?.sources.first?.pendingMessages == 2)
        #expect(h.loop.snapshot().runs.isEmpty)
    }
}
