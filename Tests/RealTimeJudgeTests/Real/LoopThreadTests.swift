#if os(Linux)
import LoopEngine
import Testing

extension Real {
    /// `LoopThread`: the permanent thread of the keep-alive article, on the real backend.
    @Suite("the kept-alive thread")
    struct LoopThreadTests {
        @Test("perform runs tasks on the thread, in order; waitUntilDone returns once the task has run")
        func performRunsTasksInOrder() {
            let thread = LoopThread(name: "worker")
            let log = Shared<[Int]>([])
            let onThread = Shared(true)
            for index in 0..<100 {
                #expect(
                    thread.perform("task \(index)") {
                        log.update { $0.append(index) }
                        if !thread.isCurrent { onThread.update { $0 = false } }
                    })
            }
            #expect(
                Real.bounded("perform(last, waitUntilDone: true)", on: thread) {
                    thread.perform("last", waitUntilDone: true) { log.update { $0.append(100) } }
                })
            #expect(log.value == Array(0...100))
            #expect(onThread.value)
            #expect(!thread.isCurrent)
            Real.bounded("stop()", on: thread) { thread.stop() }
        }

        @Test("waitUntilDone from the thread itself runs the task inline instead of deadlocking")
        func waitUntilDoneOnItsOwnThreadRunsInline() {
            let thread = LoopThread(name: "worker")
            let log = Shared<[String]>([])
            let ran = Real.bounded("perform(outer, waitUntilDone: true)", on: thread) {
                thread.perform("outer", waitUntilDone: true) {
                    log.update { $0.append("outer starts") }
                    thread.perform("inner", waitUntilDone: true) { log.update { $0.append("inner") } }
                    log.update { $0.append("outer ends") }
                }
            }
            #expect(ran)
            #expect(log.value == ["outer starts", "inner", "outer ends"])
            Real.bounded("stop()", on: thread) { thread.stop() }
        }

        @Test("an idle thread sleeps in the kernel: no wake-up while nothing happens")
        func idleThreadSleeps() throws {
            let thread = LoopThread(name: "idle")
            let waiter = try #require(thread.loop.waiter as? EpollWaiter)
            #expect(Real.eventually { thread.loop.isWaiting })
            let before = waiter.statistics
            Real.sleep(for: .milliseconds(100))
            #expect(waiter.statistics == before)
            #expect(thread.loop.isWaiting)
            Real.bounded("stop()", on: thread) { thread.stop() }
        }

        @Test("events reach a reader on another thread through a buffered sink")
        func bufferedSinkOnALoopThread() {
            let sink = BufferedTraceSink(capacity: 1_000)
            let thread = LoopThread(name: "traced", sink: sink)
            Real.bounded("perform(hello, waitUntilDone: true)", on: thread) {
                thread.perform("hello", waitUntilDone: true) {}
            }
            Real.bounded("stop()", on: thread) { thread.stop() }
            let batch = sink.drain()
            #expect(batch.dropped == 0)
            let steps = batch.events.map(\.step)
            #expect(steps.contains("perform hello"))
            #expect(steps.contains("perform stop"))
            #expect(steps.last == "result stopped")
        }

        // MARK: - Stopping

        @Test("stop while a task is running: the task finishes, then the thread ends and is joined")
        func stopWhileATaskRuns() {
            let thread = LoopThread(name: "worker")
            let started = Shared(false)
            let finished = Shared(false)
            thread.perform("slow") {
                started.update { $0 = true }
                Real.sleep(for: .milliseconds(100))
                finished.update { $0 = true }
            }
            #expect(Real.eventually { started.value })
            Real.bounded("stop()", on: thread) { thread.stop() }
            #expect(finished.value)
            #expect(!thread.isRunning)
            #expect(!thread.perform("late") {})
            #expect(!thread.perform("late", waitUntilDone: true) {})
        }

        @Test("stop from within a task: no deadlock, the thread ends once the task returns")
        func stopFromWithinATask() {
            let thread = LoopThread(name: "worker")
            let afterStop = Shared(false)
            #expect(
                Real.bounded("perform(stopper, waitUntilDone: true)", on: thread) {
                    thread.perform("stopper", waitUntilDone: true) {
                        thread.stop()
                        // Still running this task: the stop only ends the loop afterwards.
                        afterStop.update { $0 = !thread.perform("refused") {} }
                    }
                })
            #expect(afterStop.value)
            #expect(!thread.isRunning)
            #expect(Real.eventually { !thread.loop.isWaiting && thread.loop.depth == 0 })
            Real.bounded("stop()", on: thread) { thread.stop() }  // joins the ended thread
            #expect(!thread.perform("late") {})
        }

        @Test("a caller waiting for a task that can no longer run is released with false")
        func waitingCallerIsReleased() {
            let thread = LoopThread(name: "worker")
            let started = Shared(false)
            thread.perform("stops soon") {
                started.update { $0 = true }
                Real.sleep(for: .milliseconds(50))
                thread.stop()
            }
            #expect(Real.eventually { started.value })
            // Queued while the first task runs, so after the pass that stops the loop: it never runs.
            let ran = Shared(false)
            #expect(
                !Real.bounded("perform(too late, waitUntilDone: true)", on: thread) {
                    thread.perform("too late", waitUntilDone: true) { ran.update { $0 = true } }
                })
            #expect(!ran.value)
            Real.bounded("stop()", on: thread) { thread.stop() }
        }

        @Test("many owners calling stop at once all return once the thread has ended")
        func manyOwnersStopAtOnce() {
            let thread = LoopThread(name: "worker")
            let go = Shared(false)
            let returned = Shared(0)
            let owners = (0..<8).map { _ in
                TestThread {
                    Real.eventually { go.value }
                    thread.stop()
                    returned.update { $0 += 1 }
                }
            }
            go.update { $0 = true }
            Real.bounded("8 owners' stop()", on: thread) { for owner in owners { owner.join() } }
            #expect(returned.value == 8)
            #expect(!thread.isRunning)
            Real.bounded("stop()", on: thread) { thread.stop() }
        }

        @Test("dropping the last reference stops the thread and joins it; nothing is left behind")
        func droppingTheLastReferenceStops() {
            weak var loop: RunLoopCore?
            weak var waiter: EpollWaiter?
            for _ in 0..<20 {
                let thread = LoopThread(name: "short-lived")
                loop = thread.loop
                waiter = thread.loop.waiter as? EpollWaiter
                thread.perform("work", waitUntilDone: true) {}
            }
            // The last thread was joined in deinit, so its loop is gone, and its backend closed its descriptors.
            #expect(loop == nil)
            #expect(waiter == nil)
        }

        @Test("dropping the last reference from a task on the thread itself ends the thread without a join")
        func droppingTheLastReferenceOnTheThread() {
            let holder = Shared<LoopThread?>(LoopThread(name: "self-owned"))
            weak var loop: RunLoopCore?
            loop = holder.value?.loop
            holder.value?.perform("let go") { holder.update { $0 = nil } }
            #expect(Real.eventually { loop == nil })
        }
    }
}
#endif
