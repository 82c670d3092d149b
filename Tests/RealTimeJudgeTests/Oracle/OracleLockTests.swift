#if os(Linux)
// `@testable`: `LoopLocked` is the oracle's own lock, not public API.
@testable import LoopOracle
import Testing

/// The lock of the oracles' shared state. Under ThreadSanitizer (`Scripts/tsan-all.sh`) this is also the check
/// that the lock's order is visible to it: with `Synchronization.Mutex` in its place the same contention is reported
/// as races (in a stand-alone program, four threads appending 20,000 numbers each under a `Mutex` got 5 "Swift
/// access race" reports, and none under a `LoopLock` or `NSLock`).
@Suite("the oracles' lock", .timeLimit(.minutes(5)))
struct OracleLockTests {
    @Test("four threads appending under the lock at once lose no value and duplicate none")
    func contendedAppendsAreExclusive() {
        let threads = 4
        let perThread = 5000
        let numbers = LoopLocked<[Int]>([])
        let workers = (0..<threads).map { thread in
            TestThread {
                for index in 0..<perThread {
                    numbers.withLock { $0.append(thread * perThread + index) }
                }
            }
        }
        for worker in workers { worker.join() }
        #expect(numbers.withLock { $0.sorted() } == Array(0..<threads * perThread))
    }

    @Test("a value and an error leave the lock as they went in")
    func resultsAndErrorsPassThrough() {
        struct Refused: Error, Equatable {}
        let state = LoopLocked((count: 0, names: [String]()))
        let count = state.withLock { state in
            state.count += 1
            state.names.append("a")
            return state.count
        }
        #expect(count == 1)
        #expect(throws: Refused()) {
            try state.withLock { (state) throws(Refused) in
                state.names.append("b")
                throw Refused()
            }
        }
        // What the body changed before it threw stays changed, as with `Mutex`.
        #expect(state.withLock { $0.names } == ["a", "b"])
    }
}
#endif
