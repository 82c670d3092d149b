import LoopEngine
import Testing

/// `RunLoopCore.snapshot()` on both backends: what a callout sees of its loop is the same on real threads as on
/// the virtual clock, where every state can be reached exactly; only the real kernel cannot count a port's
/// unread messages.
@Suite("loop snapshots")
struct SnapshotTests {
    @Test(
        "a snapshot taken in a callout shows the run, the modes and their items, on either clock",
        arguments: Backend.allCases)
    func snapshotInsideACalloutOnEitherClock(backend: Backend) throws {
        let h = backend.makeHarness()
        h.loop.addCommonMode("Tracking")
        h.port("P", in: "Tracking")
        let source = h.source("S", order: 2)
        h.timer("T", at: 500, every: 100)
        h.observer("O", .beforeWaiting, order: 7)
        h.loop.perform("B", modes: ["Tracking"]) {}
        var taken: RunLoopCore.Snapshot?
        let probe = h.source("probe", order: 1) {
            source.signal()
            taken = h.loop.snapshot()
        }
        probe.signal()
        let before = h.loop.clock.now
        h.run(.default, 0.01)
        let after = h.loop.clock.now
        h.settle()
        let state = try #require(taken)
        #expect(state.loop == "T")
        #expect(state.runs.count == 1)
        let run = try #require(state.runs.first)
        #expect(run.mode == .default)
        #expect(run.iteration == 1)
        // The run's limit is 10 ms after it began: exactly at 10 ms on the virtual clock, between the instants
        // read around the call on the real one.
        let deadline = try #require(run.deadline)
        #expect(deadline >= before + .milliseconds(10) && deadline <= after + .milliseconds(10))
        #expect(!run.stopRequested && !run.ignoresWakeUps && !state.isSleeping)
        #expect(state.commonModes == [.default, "Tracking"])
        #expect(state.modes.map(\.name) == ["Tracking", .default])
        #expect(state.pendingBlocks == ["B"])
        let defaultMode = try #require(state.modes.last)
        #expect(defaultMode.sources.map(\.name) == ["S", "probe"])
        #expect(defaultMode.sources.map(\.isSignalled) == [true, false])
        #expect(defaultMode.timers.map(\.name) == ["T"])
        #expect(defaultMode.timers.first?.nextFire == .zero + .milliseconds(500))
        #expect(defaultMode.timers.first?.fireCount == 0)
        #expect(defaultMode.observers.map(\.name) == ["O"])
        let tracking = try #require(state.modes.first)
        #expect(tracking.sources.map(\.name) == ["P"])
        // A port's unread messages: the virtual kernel counts them, epoll cannot (nil: unknown).
        #expect(tracking.sources.first?.pendingMessages == (backend == .virtual ? 0 : nil))
    }

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
