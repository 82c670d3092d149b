#if os(Linux)
import CLoopKernel
import Glibc

/// The wait: one `epoll_wait` for one ready port (or none, when a poll can skip the call), and the read that
/// acknowledges it.
extension EpollWaiter {
    public func wait(on set: PortSetID, poll: Bool) -> WaitOutcome {
        if halted.value { return .halted }
        counters.waits.increment()
        let epoll = Int32(set.rawValue)
        // A poll whose set was found empty by the last poll, with no port written or added since and no timer of
        // the set due, would find it empty again: it returns nothing without the system call (CF makes the
        // call; the outcome is the same, and one call costs about as much as the rest of an iteration).
        var seen = 0
        if poll {
            let now = clock.now.nanoseconds
            pollLock.lock()
            seen = pollState.pointee.generation
            let skip = pollState.pointee.isStillEmpty(epoll, generation: seen, now: now)
            pollLock.unlock()
            if skip {
                counters.skippedPolls.increment()
                return .nothing
            }
        }
        // One system call sleeps and takes one ready port (CF makes two: ppoll on the set, then epoll_wait for
        // one event; the port taken is the same). A port found stale at the take (read meanwhile by another set's
        // loop) is left out by the kernel, as CF's second call leaves it out.
        var tag: UInt64 = 0
        let taken = lv_epoll_take_one(epoll, poll ? 0 : 1, &tag)
        Self.check(taken, "epoll_wait", for: "a port set")
        if halted.value {
            // Edge-triggered: put back the event just taken, so that the port is not left unheard.
            if taken == 1 {
                let port = PortID(rawValue: Int(bitPattern: UInt(tag)))
                _ = lv_epoll_rearm(epoll, Self.decode(port).fd, tag)
            }
            return .halted
        }
        // `seen` was read before the call: a write after that bumps the generation again.
        let found = poll && taken == 0 ? seen : -1
        pollLock.withLock { pollState.pointee.setEmptyAt(found, for: epoll) }
        if taken == 0 { return .nothing }
        return read(PortID(rawValue: Int(bitPattern: UInt(tag))), from: epoll)
    }

    public func poll(_ port: PortID) -> WaitOutcome {
        if halted.value { return .halted }
        let (fd, _) = Self.decode(port)
        let readable = lv_wait_readable(fd, 0)
        Self.check(readable, "ppoll", for: "\(port)")
        return readable == 0 ? .nothing : read(port, from: nil)
    }

    /// The read that acknowledges a port the wait took: an eventfd's counter (all of it, or one message for a
    /// semaphore), a timerfd's expirations.
    private func read(_ port: PortID, from epoll: Int32?) -> WaitOutcome {
        let (fd, kind) = Self.decode(port)
        counters.reads.increment()
        let value = kind == .wakeUp ? readWakeUp(fd) : lv_read_counter(fd)
        if value == -Int64(EAGAIN) {
            // Another reader took it first, or a re-armed timer: CF ignores such a wake ("handle nothing").
            counters.emptyWakes.increment()
            return .nothing
        }
        Self.check(value, "read", for: "\(port)")
        if kind == .message && profile == .darwin, let epoll {
            // One message taken; if more are queued, the edge-triggered set must hear about them again.
            _ = lv_epoll_rearm(epoll, fd, UInt64(UInt(bitPattern: port.rawValue)))
        }
        return .port(port, messages: Int(value))
    }

    /// Reads a wake-up port and clears its pending flag as one step, under the lock `send` takes to set the flag.
    ///
    /// The flag means "a write no read has taken": while it is set, `send` writes nothing. Cleared before the read
    /// and outside the lock (as it once was), a wake-up written between the two is taken by this read, yet leaves
    /// the flag set over an empty eventfd, and every later wake-up of the loop is then dropped as already
    /// pending: a loop asleep without a time limit never wakes again (`LoopThread.stop()` hung in `pthread_join`
    /// under ThreadSanitizer: its stop task was queued and signalled, and the wake-up was never written). Here a
    /// write is either before the read (taken by it, flag cleared) or after it (flag set by its `send`, so the
    /// eventfd is readable for the next wait, as CF leaves an unconsumed wake-up for the next run, §10.1).
    private func readWakeUp(_ fd: Int32) -> Int64 {
        registryLock.withLock {
            wakeUpPending[fd] = false
            return lv_read_counter(fd)
        }
    }
}
#endif
