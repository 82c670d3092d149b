import LoopEngine

/// A value behind the engine's ``LoopLock``, with `Synchronization.Mutex`'s `withLock` (and its `sending` rules):
/// the oracle's shared state, written from CF's, libdispatch's and the scenario's threads.
///
/// Not `Mutex`, because ThreadSanitizer cannot see `Mutex` order two critical sections once they contend. On Linux
/// only its uncontended compare-exchanges are inlined into (instrumented) client code; the contended paths,
/// `_lockSlow`'s spinning compare-exchange and the PI futex through which the kernel hands the lock over, are in
/// `libswiftSynchronization.so`, which is not instrumented. A thread that got the lock that way has, for
/// ThreadSanitizer, no order with the previous holder, and every access it makes is reported as a race. Every step of
/// `LoopLock`, slow path included, is an atomic operation in instrumented code (CLoopKernel; a pthread mutex, which
/// ThreadSanitizer intercepts, elsewhere), so a run under ThreadSanitizer sees the order the lock really gives.
final class LoopLocked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only reached inside `withLock`, and enters and leaves it `sending`, as in
    // `Mutex`.
    private let lock = LoopLock()
    private var value: Value

    init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held.
    func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
