#if os(Linux)
import LoopEngine
import Testing

extension Real {
    /// A poll skips its system call only when the kernel's answer is known: the set was found empty, and since then
    /// no port was written or added and no timer of the set came due. Every other poll asks the kernel.
    @Suite("polls that skip the system call")
    struct PollSkipTests {
        @Test("a second poll of an empty set skips the call; a message sent since is seen by the next poll")
        func messageAfterAnEmptyPoll() {
            let waiter = EpollWaiter()
            let port = waiter.makePort(.message, label: "P")
            let set = waiter.makePortSet()
            waiter.insert(port, into: set)
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            #expect(waiter.statistics.skippedPolls == 0, "the first poll of a set asks the kernel")
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            #expect(waiter.statistics.skippedPolls == 1)
            waiter.send(port)
            #expect(waiter.wait(on: set, poll: true) == .port(port, messages: 1))
            #expect(waiter.statistics.skippedPolls == 1)
        }

        @Test("a port added to an empty set makes its next poll ask the kernel")
        func portAddedAfterAnEmptyPoll() {
            let waiter = EpollWaiter()
            let set = waiter.makePortSet()
            let first = waiter.makePort(.message, label: "A")
            waiter.insert(first, into: set)
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            // A message written before the port joins the set (the set's generation moved meanwhile, too).
            let late = waiter.makePort(.message, label: "B")
            waiter.send(late)
            waiter.insert(late, into: set)
            #expect(waiter.wait(on: set, poll: true) == .port(late, messages: 1))
        }

        @Test("a timer of the set that comes due makes the poll ask the kernel")
        func dueTimer() {
            let waiter = EpollWaiter()
            let timer = waiter.makePort(.timer, label: "T")
            let set = waiter.makePortSet()
            waiter.insert(timer, into: set)
            waiter.arm(timer, at: waiter.clock.now + .milliseconds(20))
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            #expect(waiter.statistics.skippedPolls == 1, "not due yet: the answer is known")
            waiter.clock.spend(.milliseconds(40))
            #expect(waiter.wait(on: set, poll: true) == .port(timer, messages: 1))
        }

        @Test("a wake-up written from another thread is seen by the loop's next poll")
        func wakeUpFromAnotherThread() async {
            let waiter = EpollWaiter()
            let wake = waiter.makePort(.wakeUp, label: "wake")
            let set = waiter.makePortSet()
            waiter.insert(wake, into: set)
            #expect(waiter.wait(on: set, poll: true) == .nothing)
            await Task.detached { waiter.send(wake) }.value
            #expect(waiter.wait(on: set, poll: true) == .port(wake, messages: 1))
        }
    }
}
#endif
