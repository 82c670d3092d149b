import LoopEngine
import Testing

extension Rules {
    @Suite("§1 object model")
    struct ObjectModelTests {
        @Test(
            "a new loop has exactly one mode, the default mode, and it is the only common mode",
            arguments: Backend.allCases)
        func newLoopHasOnlyTheDefaultMode(backend: Backend) {
            let h = backend.makeHarness()
            #expect(h.loop.allModes == [.default])
            #expect(h.loop.commonModeNames == [.default])
            #expect(h.loop.currentMode == nil)
            #expect(h.loop.depth == 0)
        }

        @Test(
            "adding an item, queueing a block or a mode's sticky stop creates the named mode",
            arguments: Backend.allCases)
        func modesAreCreatedOnDemand(backend: Backend) {
            let h = backend.makeHarness()
            _ = h.source("A", in: "Mode0")
            _ = h.port("S", in: "Mode1")
            h.makeTimer("T", at: 50, in: ["ModeT"])
            h.observer("O", in: "ModeO")
            h.block("B", ["ModeB"])
            h.loop.stopMode("ModeS")
            #expect(h.loop.allModes == ["Mode0", "Mode1", "ModeB", "ModeO", "ModeS", "ModeT", .default])
        }

        @Test(
            "making a mode common creates it only by adding the common items; a block for common makes a mode named common",
            arguments: Backend.allCases)
        func commonModesAreCreatedByTheirItems(backend: Backend) {
            let h = backend.makeHarness()
            h.loop.addCommonMode("ModeC")
            #expect(h.loop.allModes == [.default])
            _ = h.source("A", in: .common)
            #expect(h.loop.allModes == ["ModeC", .default])
            h.block("B", [.common])
            #expect(h.loop.allModes == ["ModeC", .common, .default])
        }

        @Test("a mode is never destroyed, even when its last item is removed", arguments: Backend.allCases)
        func modesAreNeverDestroyed(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A", in: "ModeX")
            h.loop.remove(a, from: "ModeX")
            #expect(h.loop.allModes == ["ModeX", .default])
        }

        @Test(
            "running a mode that was never created returns finished, calls nothing and does not create it",
            arguments: Backend.allCases)
        func runningAnUnknownModeFinishes(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            h.observer("O")
            let result = h.run("Nowhere", 0.1)
            #expect(result == .finished)
            #expect(h.steps == ["runStart Nowhere", "result finished"])
            #expect(h.loop.allModes == [.default])
        }

        @Test("a timer added to a second loop is silently ignored there and fires only in its own loop")
        func timerBelongsToOneLoop() {
            let h = VirtualHarness()
            let other = RunLoopCore(name: "U", clock: h.world, waiter: h.world)
            other.sink = h.recorder
            let t = h.timer("T", at: 50)
            other.add(t, to: .default)
            #expect(other.isFinished(mode: .default))
            #expect(other.run(mode: .default, seconds: 0.1) == .finished)
            #expect(h.run(.default, 0.1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 result finished",
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 timer T", "50 exit", "50 result finished",
                ])
        }

        @Test("a timer whose loop went away while it was in its modes joins another loop and fires there")
        func timerOutlivesItsLoop() {
            let h = VirtualHarness()
            let t = h.makeTimer("T", at: 50, every: 50, in: [])
            do {
                let gone = RunLoopCore(name: "U", clock: h.world, waiter: h.world)
                gone.add(t, to: .default)
                gone.add(t, to: ModeName("Other"))
            }
            h.loop.add(t, to: .default)
            #expect(h.run(.default, 0.12) == .timedOut)
            #expect(h.timedSteps.filter { $0.hasSuffix("timer T") } == ["50 timer T", "100 timer T"])
            #expect(h.loop.contains(t, in: .default))
        }

        @Test("an observer added to a second loop is silently ignored there")
        func observerBelongsToOneLoop() {
            let h = VirtualHarness()
            let other = RunLoopCore(name: "U", clock: h.world, waiter: h.world)
            let otherKeepAlive = LoopSource(portNamed: "K2", on: h.world) { _ in }
            other.add(otherKeepAlive, to: .default)
            let o = h.observer("O", .entry)
            other.add(o, to: .default)
            h.keepAlive()
            #expect(other.run(mode: .default, seconds: 0) == .timedOut)
            #expect(o.callCount == 0)
            h.run(.default, 0)
            #expect(o.callCount == 1)
        }
    }
}
