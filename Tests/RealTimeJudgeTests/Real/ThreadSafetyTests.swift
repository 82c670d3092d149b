#if os(Linux)
import CLoopKernel
import LoopEngine
import Synchronization
import SnapshotSupport
import Testing

extension Real {
    /// Every public method of the loop and its items, called from many threads at once while the loop runs on its
    /// own. The assertions are modest (everything queued ran, nothing crashed); the point is to run this under
    /// ThreadSanitizer (`Scripts/tsan-real.sh`), which must report nothing.
    @Suite("thread safety of the public surface")
    struct ThreadSafetyTests {
        static let rounds = 300

        @Test("items are added, signalled, rescheduled and invalidated from other threads while the loop runs")
        func everythingFromEverywhere() {
            RealTimeGate.exclusive {
                let waiter = EpollWaiter()
                let loop = waiter.makeLoop(named: "busy")
                loop.sink = BufferedTraceSink(capacity: 256)
                loop.add(LoopSource(portNamed: "K", on: waiter) { _ in }, to: .default)
                let tick = LoopTimer(name: "tick", fireDate: loop.clock.now, interval: .milliseconds(1)) { _ in }
                loop.add(tick, to: .common)
                let runner = TestThread { loop.runUntilStopped() }
                #expect(Real.eventually { loop.depth == 1 })

                // Sources handed from a thread that adds them to threads that signal and invalidate them, so the first
                // add races with the first signal.
                let fresh = Shared<[LoopSource]>([])
                let tasksRun = Atomic<Int>(0)
                let blocksRun = Atomic<Int>(0)
                let snapshots = Atomic<Int>(0)
                let rounds = Self.rounds
                // Every worker runs at the lowest priority: the suites beside this one time real threads.
                let workers = [
                    TestThread {
                        _ = lv_set_thread_niceness(19)
                        for round in 0..<rounds {
                            let source = LoopSource(name: "S\(round)", order: round % 3) {}
                            fresh.update { $0.append(source) }
                            loop.add(source, to: round.isMultiple(of: 2) ? .default : .common)
                            if round.isMultiple(of: 50) { loop.addCommonMode(ModeName("M\(round)")) }
                        }
                    },
                    TestThread {
                        _ = lv_set_thread_niceness(19)
                        for round in 0..<rounds {
                            for source in fresh.value.suffix(3) {
                                source.signal()
                                _ = source.isSignalled
                                if round.isMultiple(of: 7) { source.invalidate() }
                            }
                            loop.wakeUp()
                        }
                    },
                    TestThread {
                        _ = lv_set_thread_niceness(19)
                        for round in 0..<rounds {
                            let timer = LoopTimer(name: "T\(round)", fireDate: loop.clock.now) { _ in }
                            loop.add(timer, to: .default)
                            timer.setNextFireDate(loop.clock.now + .milliseconds(round % 5))
                            _ = (timer.isValid, timer.nextFireDate, timer.fireCount, timer.tolerance)
                            if round.isMultiple(of: 2) {
                                timer.invalidate()
                            } else {
                                loop.remove(timer, from: .default)
                            }
                            tick.setNextFireDate(loop.clock.now)
                        }
                    },
                    TestThread {
                        _ = lv_set_thread_niceness(19)
                        for round in 0..<rounds {
                            let observer = LoopObserver(name: "O\(round)", activities: .allActivities) { _ in }
                            loop.add(observer, to: .default)
                            _ = (observer.isValid, observer.callCount)
                            if round.isMultiple(of: 2) {
                                observer.invalidate()
                            } else {
                                loop.remove(observer, from: .default)
                            }
                        }
                    },
                    TestThread {
                        _ = lv_set_thread_niceness(19)
                        for round in 0..<rounds {
                            loop.perform("B\(round)", modes: [.common]) { blocksRun.add(1, ordering: .relaxed) }
                            loop.performTask("job \(round)") { tasksRun.add(1, ordering: .relaxed) }
                            if round.isMultiple(of: 10) { loop.stopMode(ModeName("unused")) }
                        }
                    },
                    TestThread {
                        _ = lv_set_thread_niceness(19)
                        for _ in 0..<rounds {
                            let state = loop.snapshot()
                            _ = (state.currentMode, state.modes.count, loop.isWaiting, loop.depth, loop.currentMode)
                            _ = (loop.allModes, loop.commonModeNames, loop.nextTimerFireDate(in: .default))
                            _ = loop.isFinished(mode: .default)
                            snapshots.add(1, ordering: .relaxed)
                        }
                    },
                ]
                for worker in workers { worker.join() }
                // Everything queued is run: blocks ride the wake-ups, tasks wake the loop themselves.
                loop.wakeUp()
                #expect(
                    Real.eventually {
                        tasksRun.load(ordering: .relaxed) == rounds && blocksRun.load(ordering: .relaxed) == rounds
                    })
                loop.stop()
                runner.join()
                #expect(snapshots.load(ordering: .relaxed) == rounds)
                #expect(loop.snapshot().runs.isEmpty)
            }
        }

        @Test("a snapshot taken while the loop sleeps on another thread shows the run, the items and the sleep")
        func snapshotOfASleepingLoop() {
            let h = RealHarness()
            h.loop.add(LoopSource(portNamed: "K", on: h.waiter) { _ in }, to: .default)
            let source = LoopSource(name: "S") {}
            h.loop.add(source, to: .default)
            let timer = LoopTimer(name: "T", fireDate: h.loop.clock.now + .seconds(60)) { _ in }
            h.loop.add(timer, to: .default)
            let loop = h.loop
            let runner = TestThread { loop.run(mode: .default, seconds: 30) }
            #expect(Real.eventually { loop.isWaiting })
            source.signal()
            let state = loop.snapshot()
            loop.stop()
            runner.join()
            #expect(state.isSleeping)
            #expect(state.currentMode == .default)
            #expect(state.runs.count == 1)
            #expect(state.runs.first?.deadline != nil)
            let mode = state.modes.first { $0.name == .default }
            #expect(mode?.sources.map(\.name) == ["S", "K"])
            #expect(mode?.sources.first?.isSignalled == true)
            #expect(mode?.sources.last?.pendingMessages == nil)
            #expect(mode?.timers.map(\.name) == ["T"])
        }
    }
}
#endif
