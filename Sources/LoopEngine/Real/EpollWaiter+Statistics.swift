#if os(Linux)
extension EpollWaiter {
    /// How often the waiter went to the kernel: what the waiter's tests assert on (one write for ten wake-ups).
    package struct Statistics: Equatable, Sendable {
        /// `send` calls on wake-up ports, and the eventfd writes they made (fewer: writes are coalesced).
        package var wakeUpRequests: Int
        package var wakeUpWrites: Int
        /// eventfd writes to message and main-queue ports (never coalesced: each is a message).
        package var messageWrites: Int
        package var waits: Int
        package var reads: Int
        /// Waits that ended with nothing to read.
        package var emptyWakes: Int
        /// Polls answered without a system call: nothing could have become ready since the last one.
        package var skippedPolls: Int
    }

    final class Counters: Sendable {
        let wakeUpRequests = AtomicCounter()
        let wakeUpWrites = AtomicCounter()
        let messageWrites = AtomicCounter()
        let waits = AtomicCounter()
        let reads = AtomicCounter()
        let emptyWakes = AtomicCounter()
        let skippedPolls = AtomicCounter()
    }

    /// The ports and port sets open now: what a test checks to see that nothing leaks.
    package var openDescriptorCount: Int { registryLock.withLock { openPorts.count + openSets.count } }

    package var statistics: Statistics {
        Statistics(
            wakeUpRequests: counters.wakeUpRequests.value, wakeUpWrites: counters.wakeUpWrites.value,
            messageWrites: counters.messageWrites.value, waits: counters.waits.value, reads: counters.reads.value,
            emptyWakes: counters.emptyWakes.value, skippedPolls: counters.skippedPolls.value)
    }
}
#endif
