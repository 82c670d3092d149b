#if os(Linux)
import Glibc
import LoopEngine
import Synchronization
import Testing

extension Real {
    /// The kernel side: eventfds, timerfds and epoll sets, alone and under a loop on a real thread.
    @Suite("the epoll waiter")
    struct RealWaiterTests {
        // MARK: - The waiter alone

        @Test("ten wake-ups before a read make one eventfd write, and one read takes them")
        func wakeUpsCoalesce() {
            let waiter = EpollWaiter()
            let wake = waiter.makePort(.wakeUp, label: "wake")
            let set = waiter.makePortSet()
            waiter.insert(wake, into: set)
            for _ in 0..<10 { waiter.send(wake) }
            #expect(waiter.statistics.wakeUpRequests == 10)
            #expect(waiter.statistics.wakeUpWrites == 1)
            #expect(waiter.wait(on: set, poll: true) == .port(wake, messages: 1))
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            // Once read, the next wake-up writes again.
            waiter.send(wake)
            #expect(waiter.statistics.wakeUpWrites == 2)
            #expect(waiter.wait(on: set, poll: false) == .port(wake, messages: 1))
        }

        @Test("a wake-up written while a wait reads the port leaves none pending: the next wake-up writes again")
        func wakeUpDuringTheReadIsNotLost() {
            let waiter = EpollWaiter()
            let wake = waiter.makePort(.wakeUp, label: "wake")
            let set = waiter.makePortSet()
            waiter.insert(wake, into: set)
            // One thread wakes without pause while this one polls: sooner or later a write lands between the
            // wait's take of the port and its read, which consumes it. The waiter must not think it still pending.
            let writing = Atomic<Bool>(true)
            let writer = TestThread {
                while writing.load(ordering: .acquiring) {
                    waiter.send(wake)
                    sched_yield()
                }
            }
            // Until 10,000 wake-ups were written (each a chance), or for 2 s: once stuck, no write is made again.
            let deadline = Real.monotonic() + Duration.seconds(2).nanosecondsClamped
            while waiter.statistics.wakeUpWrites < 10_000 && Real.monotonic() < deadline {
                _ = waiter.wait(on: set, poll: true)
            }
            writing.store(false, ordering: .releasing)
            writer.join()
            // At most one wake-up is left (an eventfd adds its writes up); then the set is empty.
            if waiter.wait(on: set, poll: true) != .nothing {
                #expect(waiter.wait(on: set, poll: true) == .nothing)
            }
            // A wake-up now must reach the set (with the pending flag stuck, it was never written).
            let writesBefore = waiter.statistics.wakeUpWrites
            waiter.send(wake)
            #expect(waiter.statistics.wakeUpWrites == writesBefore + 1)
            #expect(waiter.wait(on: set, poll: true) == .port(wake, messages: 1))
        }

        @Test("linux: messages sent before a read are taken by one read")
        func linuxMessagesAddUp() {
            let waiter = EpollWaiter(profile: .linux)
            let port = waiter.makePort(.message, label: "P")
            let set = waiter.makePortSet()
            waiter.insert(port, into: set)
            for _ in 0..<3 { waiter.send(port) }
            #expect(waiter.statistics.messageWrites == 3)
            #expect(waiter.wait(on: set, poll: true) == .port(port, messages: 3))
            #expect(waiter.wait(on: set, poll: true) == .nothing)
        }

        @Test("darwin: each read takes one message, and a port with more stays ready")
        func darwinMessagesOneByOne() {
            let waiter = EpollWaiter(profile: .darwin)
            let port = waiter.makePort(.message, label: "P")
            let set = waiter.makePortSet()
            waiter.insert(port, into: set)
            for _ in 0..<3 { waiter.send(port) }
            for _ in 0..<3 { #expect(waiter.wait(on: set, poll: true) == .port(port, messages: 1)) }
            #expect(waiter.wait(on: set, poll: true) == .nothing)
        }

        @Test("a timer port fires once its absolute deadline passes; re-arming resets it; nil disarms it")
        func timerPort() {
            let waiter = EpollWaiter()
            let timer = waiter.makePort(.timer, label: "timer")
            let set = waiter.makePortSet()
            waiter.insert(timer, into: set)
            // Armed in the past: ready at once, and only once.
            waiter.arm(timer, at: .zero)
            #expect(Real.eventually { waiter.wait(on: set, poll: true) == .port(timer, messages: 1) })
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            // Expired, then re-armed for later before anyone read it: the expiry is forgotten.
            waiter.arm(timer, at: waiter.clock.now)
            Real.sleep(for: .milliseconds(5))
            waiter.arm(timer, at: waiter.clock.now + .seconds(60))
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            // A blocking wait returns when the deadline passes, not before.
            let deadline = waiter.clock.now + .milliseconds(30)
            waiter.arm(timer, at: deadline)
            #expect(waiter.wait(on: set, poll: false) == .port(timer, messages: 1))
            #expect(waiter.clock.now >= deadline)
            #expect(waiter.clock.now - deadline < Real.slack)
            // Disarmed: a deadline that passes makes nothing ready.
            waiter.arm(timer, at: waiter.clock.now + .milliseconds(5))
            waiter.arm(timer, at: nil)
            Real.sleep(for: .milliseconds(20))
            #expect(waiter.wait(on: set, poll: true) == .nothing)
        }

        @Test("a port removed from a set no longer wakes it; polling one port reads only that port")
        func removeAndPollOne() {
            let waiter = EpollWaiter()
            let a = waiter.makePort(.message, label: "A")
            let b = waiter.makePort(.mainQueue, label: "B")
            let set = waiter.makePortSet()
            waiter.insert(a, into: set)
            waiter.insert(a, into: set)  // twice is once
            waiter.remove(a, from: set)
            waiter.send(a)
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            #expect(waiter.poll(b) == .nothing)
            waiter.send(b)
            #expect(waiter.poll(b) == .port(b, messages: 1))
            // A port added while it is already readable is reported at once.
            waiter.insert(a, into: set)
            #expect(waiter.wait(on: set, poll: true) == .port(a, messages: 1))
        }

        @Test("a halted waiter wakes a blocked wait and answers every later wait with halted")
        func haltWakesTheWait() {
            let waiter = EpollWaiter()
            let wake = waiter.makePort(.wakeUp, label: "wake")
            let set = waiter.makePortSet()
            waiter.insert(wake, into: set)
            let outcome = Shared<WaitOutcome?>(nil)
            let thread = TestThread { outcome.update { $0 = waiter.wait(on: set, poll: false) } }
            Real.sleep(for: .milliseconds(20))
            waiter.halt()
            thread.join()
            #expect(outcome.value == .halted)
            #expect(waiter.wait(on: set, poll: true) == .halted)
        }

        @Test("the halt flag the core reads is the waiter's own: set by a halt; the virtual clock has none")
        func haltFlagIsTheWaiters() throws {
            let waiter = EpollWaiter()
            let flag = try #require(waiter.haltFlag)
            #expect(flag.value == false)
            waiter.halt()
            #expect(flag.value == true)
            #expect(waiter.isHalted)
            #expect(VirtualWorld().haltFlag == nil)
        }

        @Test("an action scheduled at an instant runs on another thread once it has passed; a cancelled one never")
        func scheduledActions() throws {
            let waiter = EpollWaiter()
            let ranAt = Shared<LoopInstant?>(nil)
            let cancelledRan = Shared(false)
            let deadline = waiter.clock.now + .milliseconds(30)
            let clock = waiter.clock
            _ = waiter.schedule(at: deadline) { ranAt.update { $0 = clock.now } }
            let cancelled = waiter.schedule(at: deadline) { cancelledRan.update { $0 = true } }
            waiter.cancel(cancelled)
            #expect(Real.eventually { ranAt.value != nil })
            Real.sleep(for: .milliseconds(20))
            let time = try #require(ranAt.value)
            #expect(time >= deadline)
            #expect(cancelledRan.value == false)
        }

        // MARK: - Under a loop

        @Test("loops and port sources that go away close their descriptors; the backend keeps none of them")
        func descriptorsAreClosed() {
            let waiter = EpollWaiter()
            #expect(waiter.openDescriptorCount == 0)
            for round in 0..<50 {
                let loop = waiter.makeLoop(named: "L\(round)")
                let port = LoopSource(portNamed: "P", on: waiter) { _ in }
                loop.add(port, to: "ModeX")
                loop.add(LoopTimer(name: "T", fireDate: .zero) { _ in }, to: .default)
                port.send()
                loop.run(mode: "ModeX", seconds: 0)
                loop.run(mode: .default, seconds: 0)
            }
            #expect(waiter.openDescriptorCount == 0)
        }

        @Test("ten wakeUp() calls before the loop's wait: one write, one wake")
        func tenWakeUpsOneWrite() {
            let h = RealHarness()
            let source = LoopSource(name: "S") {
                for _ in 0..<10 { h.loop.wakeUp() }
            }
            h.loop.add(source, to: .default)
            source.signal()
            // A polling run: no time limit, so no timeout wake-up joins the count.
            h.loop.run(mode: .default, seconds: 0)
            #expect(h.waiter.statistics.wakeUpRequests == 10)
            #expect(h.waiter.statistics.wakeUpWrites == 1)
            // The poll after the source0 took the wake-up: no second cycle for it.
            let wakes = h.events.filter { $0.kind == .wake }.compactMap(\.detail)
            #expect(wakes.first == "wakeUp")
            #expect(wakes.filter { $0 == "wakeUp" }.count == 1)
        }

        @Test("a port send from another thread wakes a loop asleep in the kernel")
        func sendWakesASleepingLoop() {
            let h = RealHarness()
            let received = Shared<[Int]>([])
            let port = LoopSource(portNamed: "P", on: h.waiter) { messages in received.update { $0.append(messages) } }
            h.loop.add(port, to: .default)
            let loop = h.loop
            let result = Shared<RunResult?>(nil)
            let thread = TestThread {
                result.update { $0 = loop.run(mode: .default, seconds: 30, returnAfterSourceHandled: true) }
            }
            #expect(Real.eventually { loop.isWaiting })
            let sent = Real.monotonic()
            port.send()
            thread.join()
            #expect(result.value == .handledSource)
            #expect(received.value == [1])
            #expect(Duration.nanoseconds(Real.monotonic() - sent) < Real.slack)
            #expect(
                h.steps == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "source1 P", "exit", "result handledSource",
                ])
        }

        @Test("a timer fires on time: not early, and late by less than the slack")
        func timerFiresOnTime() throws {
            let h = RealHarness()
            let keepAlive = LoopSource(portNamed: "K", on: h.waiter) { _ in }
            h.loop.add(keepAlive, to: .default)
            let firedAt = Shared<[LoopInstant]>([])
            let clock = h.loop.clock
            let first = clock.now + .milliseconds(40)
            let timer = LoopTimer(name: "T", fireDate: first, interval: .milliseconds(40)) { _ in
                firedAt.update { $0.append(clock.now) }
            }
            h.loop.add(timer, to: .default)
            h.loop.run(mode: .default, seconds: 0.2)
            let fires = firedAt.value
            try #require(fires.count >= 2)
            #expect(fires[0] >= first)
            #expect(fires[0] - first < Real.slack)
            for (index, time) in fires.enumerated() {
                // Under load the missed-fire rule may skip grid points; a timer never fires before its point.
                #expect(time >= first + .milliseconds(40 * index))
            }
        }

        @Test("stop from another thread ends a run that sleeps without a time limit")
        func stopFromAnotherThread() {
            let h = RealHarness()
            h.loop.add(LoopSource(portNamed: "K", on: h.waiter) { _ in }, to: .default)
            let loop = h.loop
            let result = Shared<RunResult?>(nil)
            let thread = TestThread { result.update { $0 = loop.run(mode: .default, seconds: .infinity) } }
            #expect(Real.eventually { loop.isWaiting })
            loop.stop()
            thread.join()
            #expect(result.value == .stopped)
            #expect(
                h.steps == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "exit", "result stopped",
                ])
        }

        @Test("a run's time limit wakes it: timedOut, on time")
        func timeLimit() {
            let h = RealHarness()
            h.loop.add(LoopSource(portNamed: "K", on: h.waiter) { _ in }, to: .default)
            let start = h.loop.clock.now
            #expect(h.loop.run(mode: .default, seconds: 0.05) == .timedOut)
            let took = h.loop.clock.now - start
            #expect(took >= .milliseconds(50))
            #expect(took < .milliseconds(50) + Real.slack)
        }

        @Test("setNextFireDate from another thread wakes the loop; from the loop's own thread it does not")
        func setNextFireDateWakesOnlyFromOutside() {
            let h = RealHarness()
            h.loop.add(LoopSource(portNamed: "K", on: h.waiter) { _ in }, to: .default)
            let far = h.loop.clock.now + .seconds(60)
            let inside = LoopTimer(name: "inside", fireDate: far) { _ in }
            let outside = LoopTimer(name: "outside", fireDate: far) { _ in }
            h.loop.add(inside, to: .default)
            h.loop.add(outside, to: .default)
            let observer = LoopObserver(name: "O", activities: .entry) { _ in inside.setNextFireDate(far) }
            h.loop.add(observer, to: .default)
            h.at(20) { outside.setNextFireDate(far) }
            h.at(40) { h.loop.stop() }
            h.loop.run(mode: .default, seconds: 5)
            h.finish()
            let wakeUps = h.events.filter { $0.kind == .wakeUp }.compactMap(\.detail)
            #expect(wakeUps == ["setNextFireDate", "stop"])
        }

        @Test("a loop asleep without a time limit unwinds when its backend halts")
        func haltUnwindsARun() {
            let h = RealHarness()
            h.loop.add(LoopSource(portNamed: "K", on: h.waiter) { _ in }, to: .default)
            let loop = h.loop
            let result = Shared<RunResult?>(nil)
            let thread = TestThread { result.update { $0 = loop.run(mode: .default, seconds: .infinity) } }
            #expect(Real.eventually { loop.isWaiting })
            h.waiter.halt()
            thread.join()
            #expect(result.value == .finished)
            #expect(!h.steps.contains("exit"))
        }
    }
}
#endif
