#if os(Linux)
import CoreFoundation
import LoopEngine

/// Row 4: a loop kept alive by a source nobody signals, with nothing to do for a while, then stopped from
/// another thread. Measured inside the loop thread around its one run (`RUSAGE_THREAD`): voluntary context
/// switches (each sleep in the kernel is one, so a loop that wakes up periodically shows it) and CPU time.
enum IdleBench {
    struct Round {
        var voluntarySwitches = 0
        var cpuMilliseconds = 0.0
    }

    /// LoopEngine on `engine`.
    static func engine(_ engine: BenchEngine, seconds: Double) -> Round {
        var round = Round()
        let ready = BenchEvent()
        var loop: RunLoopCore?
        let thread = BenchThread {
            let made = engine.makeLoop(named: "idle")
            made.add(LoopSource(name: "keepAlive") {}, to: .default)
            loop = made
            ready.post()
            let before = BenchPlatform.threadUsage()
            made.run(mode: .default, seconds: BenchCF.forever)
            round = Self.round(BenchPlatform.threadUsage() - before)
        }
        ready.wait()
        guard let loop else { preconditionFailure("the idle loop was not published") }
        idle(seconds: seconds) { loop.isWaiting }
        loop.stop()
        thread.join()
        return round
    }

    /// The real CFRunLoop.
    static func cf(seconds: Double) -> Round {
        var round = Round()
        let ready = BenchEvent()
        nonisolated(unsafe) var loop: CFRunLoop?
        let thread = BenchThread {
            let current = CFRunLoopGetCurrent()!
            let keepAlive = BenchCF.source {}
            CFRunLoopAddSource(current, keepAlive, kCFRunLoopDefaultMode)
            loop = current
            ready.post()
            let before = BenchPlatform.threadUsage()
            BenchCF.runDefault(seconds: BenchCF.forever)
            round = Self.round(BenchPlatform.threadUsage() - before)
            CFRunLoopSourceInvalidate(keepAlive)
        }
        ready.wait()
        guard let loop else { preconditionFailure("the idle loop was not published") }
        idle(seconds: seconds) { CFRunLoopIsWaiting(loop) }
        CFRunLoopStop(loop)
        thread.join()
        return round
    }

    /// Waits until the loop sleeps, then leaves it alone for `seconds`.
    private static func idle(seconds: Double, until isWaiting: () -> Bool) {
        while !isWaiting() { BenchPlatform.sleep(nanoseconds: 1_000_000) }
        BenchPlatform.sleep(nanoseconds: Int64(seconds * 1e9))
    }

    private static func round(_ usage: BenchPlatform.ThreadUsage) -> Round {
        Round(voluntarySwitches: usage.voluntarySwitches, cpuMilliseconds: Double(usage.cpuNanoseconds) / 1e6)
    }
}
#endif
