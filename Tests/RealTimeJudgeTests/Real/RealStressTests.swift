#if os(Linux)
import CLoopKernel
import Glibc
import LoopEngine
import Synchronization
import SnapshotSupport
import Testing

extension Real {
    /// Many threads hammering one loop while it also runs timers: nothing lost, nothing performed twice, no stall,
    /// no growth. The default size keeps `swift test` quick; set `LOOPVIZ_STRESS_COUNT=100000` for the full run
    /// (`LOOPVIZ_STRESS_COUNT=100000 swift test --filter Stress`, also under `--sanitize=thread`).
    @Suite("stress: eight senders, one loop")
    struct RealStressTests {
        static let senders = 8

        /// Messages and signals per sender.
        static var perSender: Int {
            if let text = getenv("LOOPVIZ_STRESS_COUNT"), let count = Int(String(cString: text)), count > 0 {
                return count
            }
            return 10_000
        }

        /// What the loop's callouts count, shared with the test thread.
        final class Tally: Sendable {
            /// Messages each perform of the port source reported, added up.
            let messages = Atomic<Int>(0)
            let performs = Atomic<Int>(0)
            /// Signals sent and not yet consumed: senders add one before they signal, the source0 takes them all.
            let unconsumedSignals = Atomic<Int>(0)
            let consumedSignals = Atomic<Int>(0)
            let timerFires = Atomic<Int>(0)
            /// Performs that reported more than one message (only the linux profile may).
            let batchedPerforms = Atomic<Int>(0)
        }

        @Test(
            "8 threads send port messages and signals to one loop running timers", arguments: PlatformProfile.allCases)
        func eightSendersOneLoop(profile: PlatformProfile) throws {
            RealTimeGate.exclusive {
                let count = Self.perSender
                let total = Self.senders * count
                let tally = Tally()
                let sink = BufferedTraceSink(capacity: 4_096)
                let waiter = EpollWaiter(profile: profile)
                let loop = waiter.makeLoop(named: "stressed")
                loop.sink = sink
                let port = LoopSource(portNamed: "P", on: waiter) { messages in
                    tally.messages.add(messages, ordering: .relaxed)
                    tally.performs.add(1, ordering: .relaxed)
                    if messages > 1 { tally.batchedPerforms.add(1, ordering: .relaxed) }
                }
                let source = LoopSource(name: "S") {
                    let taken = tally.unconsumedSignals.exchange(0, ordering: .acquiring)
                    tally.consumedSignals.add(taken, ordering: .relaxed)
                }
                let timer = LoopTimer(name: "tick", fireDate: loop.clock.now, interval: .milliseconds(1)) { _ in
                    tally.timerFires.add(1, ordering: .relaxed)
                }
                loop.add(port, to: .default)
                loop.add(source, to: .default)
                loop.add(timer, to: .default)

                // The loop: CFRunLoopRun() until the test stops it. Every thread of this test runs at the lowest
                // priority: it checks counts, not speed, and the suites running beside it (the real CFRunLoop's
                // differential traces) are sensitive to a loaded machine.
                let loopThread = TestThread {
                    _ = lv_set_thread_niceness(19)
                    loop.runUntilStopped()
                }
                // A reader that drains the trace as a UI would, and checks the sink's bookkeeping.
                let reading = Atomic<Bool>(true)
                let drained = Shared((events: 0, dropped: 0, sends: 0))
                let reader = TestThread {
                    _ = lv_set_thread_niceness(19)
                    while true {
                        let done = !reading.load(ordering: .acquiring)
                        let batch = sink.drain()
                        let sends = batch.events.count { $0.kind == .send }
                        drained.update {
                            $0.events += batch.events.count
                            $0.dropped += batch.dropped
                            $0.sends += sends
                        }
                        if done { break }
                        Real.sleep(for: .milliseconds(2))
                    }
                }

                #expect(Real.eventually { loop.depth == 1 })
                let memoryBefore = Real.residentBytes()
                let start = Real.monotonic()
                let go = Atomic<Bool>(false)
                let senders = (0..<Self.senders).map { _ in
                    TestThread {
                        _ = lv_set_thread_niceness(19)
                        while !go.load(ordering: .acquiring) { sched_yield() }
                        for _ in 0..<count {
                            port.send()
                            tally.unconsumedSignals.add(1, ordering: .releasing)
                            source.signal()
                            loop.wakeUp()
                        }
                    }
                }
                go.store(true, ordering: .releasing)
                for sender in senders { sender.join() }
                let fires = tally.timerFires.load(ordering: .relaxed)

                // Nothing lost, and the loop never stalls: it keeps consuming until it has everything. (On the darwin
                // profile each message is a loop iteration of its own, so the whole may take a while; a stall is a
                // few seconds without any progress.)
                let consumed = {
                    tally.messages.load(ordering: .relaxed) + tally.consumedSignals.load(ordering: .relaxed)
                }
                let caughtUp = Real.eventually(progress: consumed) { consumed() == 2 * total }
                #expect(caughtUp, "the loop stalled: \(tally.messages.load(ordering: .relaxed)) of \(total) messages")
                // ...and the timers kept firing throughout, and still do.
                #expect(Real.eventually { tally.timerFires.load(ordering: .relaxed) > fires })
                let elapsed = Duration.nanoseconds(Real.monotonic() - start)
                let memoryAfter = Real.residentBytes()

                loop.stop()
                loopThread.join()
                reading.store(false, ordering: .releasing)
                reader.join()

                // Nothing duplicated: the counts add up exactly, never more.
                #expect(tally.messages.load(ordering: .relaxed) == total)
                #expect(tally.consumedSignals.load(ordering: .relaxed) == total)
                #expect(tally.unconsumedSignals.load(ordering: .relaxed) == 0)
                switch profile {
                case .darwin:
                    // A darwin port queues its messages: one perform per message.
                    #expect(tally.performs.load(ordering: .relaxed) == total)
                    #expect(tally.batchedPerforms.load(ordering: .relaxed) == 0)
                case .linux:
                    // An eventfd adds them up: fewer performs than messages, never more.
                    #expect(tally.performs.load(ordering: .relaxed) <= total)
                }
                // The buffered sink kept what it could and counted the rest, never silently.
                let seen = drained.value
                #expect(seen.events == sink.recordedTotal)
                #expect(seen.dropped == sink.droppedTotal)
                if seen.dropped == 0 { #expect(seen.sends == total) }
                // Memory stays flat: the loop holds nothing per message (the sink is bounded).
                let growth = memoryAfter - memoryBefore
                #expect(growth < 64 << 20, "resident memory grew by \(growth >> 20) MiB")
                print(
                    "stress (\(profile)): \(total) messages and \(total) signals in \(elapsed), "
                        + "\(tally.performs.load(ordering: .relaxed)) port performs, "
                        + "\(tally.timerFires.load(ordering: .relaxed)) timer fires, "
                        + "\(seen.events) events kept, \(seen.dropped) dropped, memory +\(growth >> 10) KiB")
            }
        }
    }
}
#endif
