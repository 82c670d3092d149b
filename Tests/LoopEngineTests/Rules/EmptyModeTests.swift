import LoopEngine
import Testing

extension Rules {
    @Suite("§4 the empty-mode rule")
    struct EmptyModeTests {
        /// The trace of a run of `seconds` that just sleeps until its time limit.
        private func sleepsUntilTimeout(_ mode: String, _ ms: Int) -> [String] {
            [
                "0 runStart \(mode)", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                "\(ms) afterWaiting", "\(ms) exit", "\(ms) result timedOut",
            ]
        }

        @Test("an unsignalled version-0 source keeps a mode non-empty")
        func source0KeepsModeAlive() {
            let h = VirtualHarness()
            _ = h.source("A")
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(h.timedSteps == sleepsUntilTimeout("default", 100))
        }

        @Test("a version-1 source keeps a mode non-empty")
        func source1KeepsModeAlive() {
            let h = VirtualHarness()
            h.keepAlive()
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(h.timedSteps == sleepsUntilTimeout("default", 100))
        }

        @Test("a timer keeps a mode non-empty")
        func timerKeepsModeAlive() {
            let h = VirtualHarness()
            h.timer("T", at: 500)
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(h.timedSteps == sleepsUntilTimeout("default", 100))
        }

        @Test("a timer whose callout is running still keeps the mode non-empty for a nested run")
        func firingTimerKeepsModeAlive() {
            let h = VirtualHarness()
            var nested: RunResult?
            h.timer("T", at: 10) { _ in nested = h.run(.default, 0.05) }
            #expect(h.run(.default, 1) == .finished)
            #expect(nested == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T",
                    "10 runStart default", "10 entry", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "60 afterWaiting", "60 exit", "60 result timedOut",
                    "60 exit", "60 result finished",
                ])
        }

        @Test("a block tagged with the mode keeps it non-empty; it runs, then the loop sleeps until the limit")
        func blockOnlyModeSleepsAfterTheBlock() {
            let h = VirtualHarness()
            h.block("B1")
            #expect(h.run(.default, 0.3) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 block B1",
                    "0 beforeWaiting", "300 afterWaiting", "300 exit", "300 result timedOut",
                ])
        }

        @Test("with CFRunLoopRun a block-only mode runs the block, then sleeps forever")
        func blockOnlyModeSleepsForeverWithCFRunLoopRun() {
            let h = VirtualHarness()
            h.block("B1")
            h.loop.runUntilStopped()
            #expect(h.world.haltReason == .idle)
            #expect(
                h.steps
                    == trace("runStart default → entry → beforeTimers → beforeSources → block B1 → beforeWaiting"))
        }

        @Test("a block tagged only for another mode does not keep a mode non-empty", arguments: Backend.allCases)
        func blockForAnotherModeDoesNotCount(backend: Backend) {
            let h = backend.makeHarness()
            h.block("B", ["ModeX"])
            #expect(h.run(.default, 0.1) == .finished)
            #expect(h.steps == ["runStart default", "result finished"])
            #expect(!h.loop.isFinished(mode: "ModeX"))
        }

        @Test(
            "a block tagged common keeps a common mode non-empty, but not a mode that is not common",
            arguments: Backend.allCases)
        func commonBlockCountsInCommonModes(backend: Backend) {
            let h = backend.makeHarness()
            h.block("B", ["ModeX"])
            h.block("C", [.common])
            #expect(!h.loop.isFinished(mode: .default))
            #expect(h.run("ModeX", 0) == .timedOut)
            #expect(h.run("ModeX", 0) == .finished)
            #expect(h.run(.default, 0) == .timedOut)
            #expect(
                h.steps
                    == trace(
                        "runStart ModeX → entry → beforeTimers → beforeSources → block B → exit → result timedOut",
                        "runStart ModeX → result finished",
                        "runStart default → entry → beforeTimers → beforeSources → block C → exit → result timedOut"))
        }

        @Test("a block tagged with a set of modes keeps each of them non-empty", arguments: Backend.allCases)
        func blockWithAModeSetCounts(backend: Backend) {
            let h = backend.makeHarness()
            h.block("B", ["ModeX", "ModeY"])
            #expect(!h.loop.isFinished(mode: "ModeX"))
            #expect(!h.loop.isFinished(mode: "ModeY"))
            #expect(h.loop.isFinished(mode: .default))
        }

        @Test(
            "observers never count: a mode with only observers returns finished without calling any",
            arguments: Backend.allCases)
        func observersDoNotCount(backend: Backend) {
            let h = backend.makeHarness()
            let o = h.observer("O")
            let p = h.observer("P", .entry, order: 1)
            #expect(h.run(.default, 1) == .finished)
            #expect(h.steps == ["runStart default", "result finished"])
            #expect(o.callCount == 0 && p.callCount == 0)
        }

        @Test("removing the last source from another thread is noticed after a wake-up: the run finishes")
        func removalNoticedAfterAWakeUp() {
            let h = VirtualHarness()
            let k = h.keepAlive()
            h.at(20) {
                h.loop.remove(k, from: .default)
                h.loop.wakeUp()
            }
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 exit", "20 result finished",
                ])
        }

        @Test("removing the last source without a wake-up goes unnoticed until the time limit: timedOut")
        func removalWithoutWakeUpIsNotNoticed() {
            let h = VirtualHarness()
            let a = h.source("A")
            h.at(20) { h.loop.remove(a, from: .default) }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(h.timedSteps == sleepsUntilTimeout("default", 100))
        }

        @Test(
            "invalidating a signalled source removes it: it neither runs nor keeps the mode alive",
            arguments: Backend.allCases)
        func invalidatedSignalledSourceIsGone(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A")
            a.signal()
            a.invalidate()
            #expect(h.run(.default, 1) == .finished)
            #expect(h.steps == ["runStart default", "result finished"])
        }

        @Test("on a secondary thread the default mode with nothing in it is empty", arguments: Backend.allCases)
        func secondaryThreadDefaultModeIsEmpty(backend: Backend) {
            let h = backend.makeHarness()
            #expect(h.loop.isFinished(mode: .default))
            #expect(h.run(.default, 1) == .finished)
            #expect(h.steps == ["runStart default", "result finished"])
        }

        @Test("on the main thread the default mode with nothing in it is never empty")
        func mainThreadDefaultModeIsNeverEmpty() {
            let h = VirtualHarness(mainThread: true)
            #expect(!h.loop.isFinished(mode: .default))
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(h.timedSteps == sleepsUntilTimeout("default", 100))
        }

        @Test("emptiness is tested only at entry and at the end of an iteration, not before the wait")
        func emptinessIsNotTestedBeforeTheWait() {
            let h = VirtualHarness()
            let a = h.source("A")
            h.observer("O", .beforeSources, repeats: false) { _ in h.loop.remove(a, from: .default) }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 observer O",
                    "0 beforeWaiting", "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }
    }
}
