#if os(Linux)
import LoopEngine
import Testing

extension Real {
    /// The pitfalls of the keep-alive-thread article, each shown on a real thread with the engine's own wrappers
    /// (`RunLoop.run()`, `CFRunLoopRun()`, the flag loop), before `LoopThread` puts them right.
    @Suite("the keep-alive article's pitfalls")
    struct KeepAlivePitfallTests {
        /// Runs `body` with the harness's loop on a thread of its own; returns that thread.
        static func onThread(_ h: RealHarness, _ body: @escaping @Sendable (RunLoopCore) -> Void) -> TestThread {
            let loop = h.loop
            return TestThread { body(loop) }
        }

        static func keepAlive(_ h: RealHarness) -> LoopSource {
            let source = LoopSource(portNamed: "K", on: h.waiter) { _ in }
            h.loop.add(source, to: .default)
            return source
        }

        @Test("a loop with no port returns at once: RunLoop.run() and CFRunLoopRun() both, and the thread ends")
        func noPortExitsAtOnce() {
            let h = RealHarness()
            let start = Real.monotonic()
            let result = Shared<RunResult?>(nil)
            let thread = Self.onThread(h) { loop in
                loop.runFoundationForever()
                result.update { $0 = loop.runUntilStopped() }
            }
            thread.join()
            #expect(Duration.nanoseconds(Real.monotonic() - start) < Real.slack)
            #expect(result.value == .finished)
            #expect(h.steps == ["runStart default", "result finished"])
            #expect(h.events.contains { $0.kind == .note && $0.detail?.contains("the mode is empty") == true })
        }

        @Test("RunLoop.run() re-enters after a stop; only emptying the mode ends it")
        func runForeverReentersAfterAStop() {
            let h = RealHarness()
            let port = Self.keepAlive(h)
            let ended = Shared(false)
            let thread = Self.onThread(h) { loop in
                loop.runFoundationForever()
                ended.update { $0 = true }
            }
            #expect(Real.eventually { h.loop.isWaiting })
            h.loop.stop()
            // A new run begins and goes back to sleep: the thread is still in RunLoop.run().
            #expect(Real.eventually { h.steps.filter { $0 == "entry" }.count == 2 && h.loop.isWaiting })
            #expect(!ended.value)
            // The article's way out is not a stop: take the port away, and wake the loop so it notices.
            port.invalidate()
            h.loop.wakeUp()
            thread.join()
            #expect(ended.value)
            #expect(
                h.steps == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "exit", "result stopped",
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "exit", "result finished",
                ])
        }

        @Test("the flag loop ends: a task performed on the thread sets the flag, and the handled source returns")
        func flagLoopEnds() {
            let h = RealHarness()
            _ = Self.keepAlive(h)
            let flag = Shared(false)
            let runs = Shared(0)
            let thread = Self.onThread(h) { loop in
                while !flag.value {
                    runs.update { $0 += 1 }
                    guard loop.runFoundation(mode: .default, before: .distantFuture) else { break }
                }
            }
            #expect(Real.eventually { h.loop.isWaiting })
            // Setting the flag from here alone would not end it: the loop sleeps until something wakes it.
            h.loop.performTask("finish") { flag.update { $0 = true } }
            thread.join()
            #expect(flag.value)
            #expect(runs.value == 1)
            #expect(h.steps.suffix(4) == ["source0 performSelector", "perform finish", "exit", "result handledSource"])
        }

        @Test("CFRunLoopRun() ends with one stop, where RunLoop.run() would not")
        func cfRunLoopRunEndsWithAStop() {
            let h = RealHarness()
            _ = Self.keepAlive(h)
            let result = Shared<RunResult?>(nil)
            let thread = Self.onThread(h) { loop in result.update { $0 = loop.runUntilStopped() } }
            #expect(Real.eventually { h.loop.isWaiting })
            h.loop.stop()
            thread.join()
            #expect(result.value == .stopped)
        }

        @Test("a stop issued before the loop runs is forgotten: the run that follows sleeps as usual")
        func stopBeforeARunIsForgotten() {
            let h = RealHarness()
            _ = Self.keepAlive(h)
            h.loop.stop()
            #expect(h.loop.run(mode: .default, seconds: 0.03) == .timedOut)
        }
    }
}
#endif
