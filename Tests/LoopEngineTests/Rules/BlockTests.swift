import LoopEngine
import Testing

extension Rules {
    @Suite("§6 blocks (CFRunLoopPerformBlock)")
    struct BlockTests {
        @Test("performing a block for a mode name creates the mode", arguments: Backend.allCases)
        func performBlockCreatesTheMode(backend: Backend) {
            let h = backend.makeHarness()
            h.block("B", ["ModeX", "ModeY"])
            #expect(h.loop.allModes == ["ModeX", "ModeY", .default])
        }

        @Test("a block queued from another thread does not wake the loop: it runs at the time limit, before exit")
        func blockDoesNotWakeTheLoop() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(20) { h.block("B") }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 block B", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a block queued from another thread with a wake-up runs right after afterWaiting")
        func blockWithWakeUpRunsAfterTheWait() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(20) {
                h.block("B")
                h.loop.wakeUp()
            }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 block B", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a block queued with a wake-up during a timer callout runs in that iteration's last pass")
        func blockRunsEvenWhenItsWakeUpWasDropped() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 10) { _ in h.work(20) }
            h.at(20) {
                h.block("B")
                h.loop.wakeUp()
            }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps(with: [.wakeUp]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T", "20 wakeUp", "30 block B",
                    "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "100 wakeUp", "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test(
            "blocks run in FIFO order, only those tagged for the running mode; the others wait for their mode",
            arguments: Backend.allCases)
        func blocksAreFilteredByModeInFIFOOrder(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive("KX", in: "ModeX")
            h.block("B1", [.default])
            h.block("B2", ["ModeX"])
            h.block("B3", [.common])
            h.block("B4", ["ModeX", .default])
            #expect(h.run(.default, 0) == .timedOut)
            #expect(h.run("ModeX", 0) == .timedOut)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → block B1 → block B3 → block B4",
                        "exit → result timedOut",
                        "runStart ModeX → entry → beforeTimers → beforeSources → block B2 → exit → result timedOut"))
        }

        @Test(
            "blocks kept for another mode stay in order, ahead of blocks queued during the pass",
            arguments: Backend.allCases)
        func keptBlocksStayAheadOfNewOnes(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive("KX", in: "ModeX")
            h.block("X1", ["ModeX"])
            h.block("D") { h.block("X3", ["ModeX"]) }
            h.block("X2", ["ModeX"])
            h.run(.default, 0)
            h.run("ModeX", 0)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → block D → exit → result timedOut",
                        "runStart ModeX → entry → beforeTimers → beforeSources → block X1 → block X2 → block X3 → exit",
                        "result timedOut"))
        }

        @Test("a block queued during a blocks pass runs in the next pass, not the same one")
        func blockQueuedDuringAPassRunsInTheNextPass() {
            let h = VirtualHarness()
            let a = h.source("A")
            a.signal()
            h.block("B1") { h.block("B2") }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 block B1",
                    "0 source0 A", "0 block B2", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("blocks run before the source0s of the same iteration", arguments: Backend.allCases)
        func blocksRunBeforeSource0s(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A")
            a.signal()
            h.block("B")
            h.run(.default, 0)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → block B → source0 A → exit",
                        "result timedOut"))
        }

        @Test("a nested run started by a block cannot see the rest of the outer pass; B2 runs after B1 returns")
        func nestedRunCannotSeeTheDetachedBlocks() {
            let h = VirtualHarness()
            h.keepAlive()
            h.block("B1") { h.run(.default, 0.05) }
            h.block("B2")
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 block B1",
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result timedOut",
                    "50 block B2", "50 beforeWaiting", "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a block tagged common runs in a mode only while that mode is common", arguments: Backend.allCases)
        func commonBlockFollowsTheCommonModes(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive("KY", in: "ModeY")
            h.block("C", [.common])
            h.run("ModeY", 0)
            h.loop.addCommonMode("ModeY")
            h.run("ModeY", 0)
            #expect(
                h.steps
                    == trace(
                        "runStart ModeY → entry → beforeTimers → beforeSources → exit → result timedOut",
                        "runStart ModeY → entry → beforeTimers → beforeSources → block C → exit → result timedOut"))
        }
    }
}
