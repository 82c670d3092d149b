import LoopEngine
import Testing

extension Rules {
    @Suite("§11 modes and common modes")
    struct CommonModeTests {
        @Test("making a mode common creates it and adds every common source, observer and timer to it")
        func addCommonModeAddsTheCommonItems() {
            let h = VirtualHarness()
            let a = h.source("A", in: .common)
            h.observer("O", .entry, in: .common)
            h.makeTimer("T", at: 20, in: [.common])
            h.loop.addCommonMode("ModeY")
            #expect(h.loop.commonModeNames == [.default, "ModeY"])
            #expect(h.loop.allModes == ["ModeY", .default])
            #expect(h.loop.contains(a, in: "ModeY"))
            #expect(h.loop.nextTimerFireDate(in: "ModeY") == h.ms(20))
            a.signal()
            #expect(h.run("ModeY", 0.05) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart ModeY", "0 entry", "0 observer O", "0 beforeTimers", "0 beforeSources",
                    "0 source0 A", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer T", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result timedOut",
                ])
        }

        @Test(
            "adding an item to the common modes adds it to each common mode, scheduling it once per mode in CF's set order",
            arguments: Backend.allCases)
        func addingToCommonModesAddsToEach(backend: Backend) {
            let h = backend.makeHarness()
            let log = CallLog()
            h.loop.addCommonMode("ModeY")
            let a = LoopSource(name: "A", schedule: { _, mode in log.append("schedule \(mode)") }) {}
            h.loop.add(a, to: .common)
            // §11.1: CF walks its set of common modes, whose order follows the names' hashes: ModeY before default.
            #expect(log.entries == ["schedule ModeY", "schedule default"])
            #expect(h.loop.contains(a, in: .common))
            #expect(h.loop.contains(a, in: .default))
            #expect(h.loop.contains(a, in: "ModeY"))
        }

        @Test(
            "removing from one common mode leaves the item in the others and among the common items",
            arguments: Backend.allCases)
        func removingFromOneCommonModeKeepsTheRest(backend: Backend) {
            let h = backend.makeHarness()
            h.loop.addCommonMode("ModeY")
            let a = h.source("A", in: .common)
            h.loop.remove(a, from: "ModeY")
            #expect(!h.loop.contains(a, in: "ModeY"))
            #expect(h.loop.contains(a, in: .default))
            #expect(h.loop.contains(a, in: .common))
            h.loop.addCommonMode("ModeZ")
            #expect(h.loop.contains(a, in: "ModeZ"))
        }

        @Test(
            "removing from the common modes removes the item from every common mode and the common items",
            arguments: Backend.allCases)
        func removingFromCommonModesRemovesEverywhere(backend: Backend) {
            let h = backend.makeHarness()
            h.loop.addCommonMode("ModeY")
            let a = h.source("A", in: .common)
            let t = h.makeTimer("T", at: 20, in: [.common])
            h.loop.remove(a, from: .common)
            h.loop.remove(t, from: .common)
            #expect(!h.loop.contains(a, in: .common))
            #expect(!h.loop.contains(a, in: .default))
            #expect(!h.loop.contains(a, in: "ModeY"))
            #expect(h.loop.isFinished(mode: .default) && h.loop.isFinished(mode: "ModeY"))
            h.loop.addCommonMode("ModeZ")
            #expect(!h.loop.contains(a, in: "ModeZ"))
            #expect(h.loop.isFinished(mode: "ModeZ"))
        }

        @Test("kCFRunLoopCommonModes cannot be run, even when the common modes hold items", arguments: Backend.allCases)
        func commonModesCannotBeRun(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A", in: .common)
            a.signal()
            #expect(h.run(.common, 1) == .finished)
            #expect(h.steps == ["runStart common", "result finished"])
            #expect(a.isSignalled)
        }

        @Test("on the main thread a mode made common is never empty")
        func commonModeOnTheMainThreadIsNeverEmpty() {
            let h = VirtualHarness(mainThread: true)
            h.block("B", ["ModeY"])
            h.run("ModeY", 0)
            #expect(h.loop.isFinished(mode: "ModeY"))
            h.loop.addCommonMode("ModeY")
            #expect(!h.loop.isFinished(mode: "ModeY"))
            #expect(h.run("ModeY", 0.05) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart ModeY", "0 entry", "0 beforeTimers", "0 beforeSources", "0 block B", "0 exit",
                    "0 result timedOut",
                    "0 runStart ModeY", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result timedOut",
                ])
        }

        @Test(
            "on a secondary thread a mode made common is still empty when it holds nothing", arguments: Backend.allCases
        )
        func commonModeOnASecondaryThreadCanBeEmpty(backend: Backend) {
            let h = backend.makeHarness()
            h.loop.addCommonMode("ModeY")
            #expect(h.loop.isFinished(mode: "ModeY"))
            #expect(h.run("ModeY", 0.05) == .finished)
            #expect(h.steps == ["runStart ModeY", "result finished"])
        }
    }
}
