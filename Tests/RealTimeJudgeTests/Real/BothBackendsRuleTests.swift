#if os(Linux)
import LoopEngine
import Testing

extension Real {
    /// Rules that need another thread or a timer to wake a sleeping loop, on both backends through one harness
    /// (stop and wake-up from another thread, port and timer wakes, signals and blocks that do not wake): their
    /// outcome does not depend on how long the machine takes, only the real side waits longer. The rule suites
    /// (`Rules`) run their own tests on both backends where they can; these are the ones written for it.
    @Suite("rules on both backends")
    struct BothBackendsRuleTests {
        static let sleepCycle = ["beforeWaiting", "afterWaiting"]
        static let start = ["runStart default", "entry", "beforeTimers", "beforeSources"]
        static let iteration = ["beforeTimers", "beforeSources"]

        @discardableResult
        static func keepAlive(_ h: any LoopHarness) -> LoopSource {
            h.makePort("K", in: .default) { _ in }
        }

        @Test(
            "§5 observers are called in ascending order, whatever the order they were added in",
            arguments: Backend.both)
        func observerOrder(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            for (name, order) in [("O3", 3), ("O1", 1), ("O2", 2)] {
                h.loop.add(LoopObserver(name: name, activities: .entry, order: order) { _ in }, to: .default)
            }
            h.loop.run(mode: .default, seconds: 0)
            #expect(
                h.observableSteps == [
                    "runStart default", "entry", "observer O1", "observer O2", "observer O3", "beforeTimers",
                    "beforeSources", "exit", "result timedOut",
                ])
        }

        @Test(
            "§3 handledSource wins over a stop from the port's perform; the stop is lost", arguments: Backend.both)
        func handledSourceBeatsStop(backend: Backend) {
            let h = backend.makeHarness()
            let loop = h.loop
            let port = h.makePort("P", in: .default) { _ in loop.stop() }
            h.fromAnotherThread(at: 30) { port.send() }
            #expect(loop.run(mode: .default, seconds: 5, returnAfterSourceHandled: true) == .handledSource)
            #expect(loop.run(mode: .default, seconds: 0.05) == .timedOut)
            h.settle()
            #expect(
                h.observableSteps == Self.start + Self.sleepCycle + ["source1 P", "exit", "result handledSource"]
                    + Self.start + Self.sleepCycle + ["exit", "result timedOut"])
        }

        @Test("§10.2 a stop from another thread ends a sleeping run", arguments: Backend.both)
        func stopFromAnotherThread(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            let loop = h.loop
            h.fromAnotherThread(at: 30) { loop.stop() }
            #expect(loop.run(mode: .default, seconds: 5) == .stopped)
            h.settle()
            #expect(h.observableSteps == Self.start + Self.sleepCycle + ["exit", "result stopped"])
        }

        @Test("§10.1 a wake-up from another thread costs one empty cycle", arguments: Backend.both)
        func wakeUpCostsAnEmptyCycle(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            let loop = h.loop
            h.fromAnotherThread(at: 30) { loop.wakeUp() }
            h.fromAnotherThread(at: 60) { loop.stop() }
            #expect(loop.run(mode: .default, seconds: 5) == .stopped)
            h.settle()
            #expect(
                h.observableSteps == Self.start + Self.sleepCycle + Self.iteration + Self.sleepCycle
                    + ["exit", "result stopped"])
        }

        @Test("§10 a wake-up and a stop before the run are both forgotten", arguments: Backend.both)
        func wakeUpAndStopBeforeARun(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            h.loop.wakeUp()
            h.loop.stop()
            #expect(h.loop.run(mode: .default, seconds: 0.05) == .timedOut)
            #expect(h.observableSteps == Self.start + Self.sleepCycle + ["exit", "result timedOut"])
        }

        @Test("§7 three signals before a pass make one perform", arguments: Backend.both)
        func signalsCoalesce(backend: Backend) {
            let h = backend.makeHarness()
            let source = LoopSource(name: "S") {}
            h.loop.add(source, to: .default)
            for _ in 0..<3 { source.signal() }
            h.loop.run(mode: .default, seconds: 0)
            #expect(h.observableSteps == Self.start + ["source0 S", "exit", "result timedOut"])
        }

        @Test("§7 a signal from another thread does not wake a sleeping loop", arguments: Backend.both)
        func signalDoesNotWake(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            let source = LoopSource(name: "S") {}
            h.loop.add(source, to: .default)
            h.fromAnotherThread(at: 30) { source.signal() }
            #expect(h.loop.run(mode: .default, seconds: 0.15) == .timedOut)
            h.settle()
            #expect(h.observableSteps == Self.start + Self.sleepCycle + ["exit", "result timedOut"])
            #expect(source.isSignalled)
        }

        @Test(
            "§6 a block queued from another thread runs only when the time limit wakes the loop",
            arguments: Backend.both)
        func blockDoesNotWake(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            let loop = h.loop
            h.fromAnotherThread(at: 30) { loop.perform("B", modes: [.default]) {} }
            #expect(loop.run(mode: .default, seconds: 0.15) == .timedOut)
            h.settle()
            #expect(h.observableSteps == Self.start + Self.sleepCycle + ["block B", "exit", "result timedOut"])
        }

        @Test("§8 a port message wakes a sleeping loop by itself", arguments: Backend.both)
        func portWakes(backend: Backend) {
            let h = backend.makeHarness()
            let port = h.makePort("P", in: .default) { _ in }
            h.fromAnotherThread(at: 30) { port.send() }
            #expect(h.loop.run(mode: .default, seconds: 5, returnAfterSourceHandled: true) == .handledSource)
            h.settle()
            #expect(h.observableSteps == Self.start + Self.sleepCycle + ["source1 P", "exit", "result handledSource"])
        }

        @Test("perform-on-thread signals and wakes: the task runs from the perform source", arguments: Backend.both)
        func performTaskWakes(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            let loop = h.loop
            h.fromAnotherThread(at: 30) { loop.performTask("job") {} }
            #expect(loop.run(mode: .default, seconds: 5, returnAfterSourceHandled: true) == .handledSource)
            h.settle()
            #expect(
                h.observableSteps == Self.start + Self.sleepCycle + Self.iteration
                    + ["source0 performSelector", "perform job", "exit", "result handledSource"])
        }

        @Test("§9 a one-shot timer fires once, wakes the loop, and is invalid afterwards", arguments: Backend.both)
        func oneShotTimer(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            let timer = LoopTimer(name: "T", fireDate: .zero + .milliseconds(40)) { _ in }
            h.loop.add(timer, to: .default)
            #expect(h.loop.run(mode: .default, seconds: 0.2) == .timedOut)
            #expect(
                h.observableSteps == Self.start + Self.sleepCycle + ["timer T"] + Self.iteration + Self.sleepCycle
                    + ["exit", "result timedOut"])
            #expect(!timer.isValid)
            #expect(timer.fireCount == 1)
        }

        @Test(
            "§9.2 linux: the timer port is never disarmed, so a removed timer still wakes the loop once",
            arguments: Backend.both)
        func removedTimerStillWakes(backend: Backend) {
            let h = backend.makeHarness()
            Self.keepAlive(h)
            let timer = LoopTimer(name: "T", fireDate: .zero + .milliseconds(40)) { _ in }
            h.loop.add(timer, to: .default)
            h.loop.remove(timer, from: .default)
            #expect(h.loop.run(mode: .default, seconds: 0.2) == .timedOut)
            #expect(
                h.observableSteps == Self.start + Self.sleepCycle + Self.iteration + Self.sleepCycle
                    + ["exit", "result timedOut"])
        }
    }
}
#endif
