import Testing

@testable import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one pthread mutex and condition set-up the threads share (LoopThread, the baton, the deadline thread).
@Suite("a pthread mutex and condition", .timeLimit(.minutes(5)))
struct PosixMutexTests {
    /// State two threads share, guarded by `mutex`.
    final class Shared: @unchecked Sendable {
        let mutex = PosixMutex()
        let condition = PosixCondition()
        var count = 0
        var turn = 0
    }

    @Test("threads that add under the mutex lose no update")
    func mutualExclusion() throws {
        let shared = Shared()
        let threads = try (0..<4).map { _ in
            try HostedThread {
                for _ in 0..<10_000 { shared.mutex.withLock { shared.count += 1 } }
            }
        }
        for thread in threads { thread.join() }
        #expect(shared.mutex.withLock { shared.count } == 40_000)
    }

    @Test("a waiter wakes when signalled and sees what was written under the mutex: two threads take turns")
    func takingTurns() throws {
        let shared = Shared()
        var seen: [Int] = []
        let other = try HostedThread {
            shared.mutex.withLock {
                for _ in 0..<100 {
                    while shared.turn % 2 == 0 { shared.condition.wait(releasing: shared.mutex) }
                    shared.count += 10
                    shared.turn += 1
                    shared.condition.broadcast()
                }
            }
        }
        shared.mutex.withLock {
            for _ in 0..<100 {
                while shared.turn % 2 == 1 { shared.condition.wait(releasing: shared.mutex) }
                seen.append(shared.count)
                shared.count += 1
                shared.turn += 1
                shared.condition.broadcast()
            }
        }
        other.join()
        // Each turn of this thread saw exactly the other's last addition: 0, 11, 22, ...
        #expect(seen == (0..<100).map { $0 * 11 })
        #expect(shared.count == 1_100)
    }

    #if os(Linux)
    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    @Test("a monotonic condition's timed wait ends at a CLOCK_MONOTONIC deadline, not before")
    func monotonicDeadline() {
        let mutex = PosixMutex()
        let condition = PosixCondition.monotonic()
        mutex.withLock {
            #expect(!condition.wait(releasing: mutex, until: Self.monotonicNanoseconds() - 1))
            // On the wall clock this deadline lies decades in the past and the wait would end at once.
            let deadline = Self.monotonicNanoseconds() + 2_000_000
            while condition.wait(releasing: mutex, until: deadline) {}  // a spurious wake-up waits again
            #expect(Self.monotonicNanoseconds() >= deadline)
        }
    }
    #endif
}
