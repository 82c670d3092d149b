import LoopEngine

/// Where the benchmarks' LoopEngine loops live: the real backend (a `CLOCK_MONOTONIC` clock and an
/// epoll/eventfd/timerfd waiter, `Sources/LoopEngine/Real`) or the deterministic virtual clock.
///
/// Rows that only make sense on real threads (wake-up latency, timers, idle) need the real backend; until it has
/// landed they say "pending", and the per-iteration row runs on the virtual clock, labelled so. The one switch is
/// ``RealEngineBackend``.
enum BenchEngine: String {
    case real, virtual

    /// The real backend when it exists, else the virtual clock.
    static var preferred: BenchEngine { RealEngineBackend.isAvailable ? .real : .virtual }

    /// How the variant is named in the table.
    var label: String { "engine (\(rawValue))" }

    /// A fresh loop on this backend, with nothing in it. Each call makes a new backend (its own lock and ports).
    func makeLoop(named name: String) -> RunLoopCore {
        switch self {
        case .virtual:
            let world = VirtualWorld()
            return RunLoopCore(name: name, clock: world, waiter: world)
        case .real:
            guard let loop = RealEngineBackend.makeLoop(named: name) else {
                preconditionFailure("the real backend is not available: \(RealEngineBackend.pendingReason)")
            }
            return loop
        }
    }
}

/// The switch for LoopEngine's real backend.
///
/// The real backend (`EpollWaiter`, `MonotonicClock`, `LoopThread` in `Sources/LoopEngine/Real`) is being written
/// while this command is; until it has landed this file must build without it. Build with
/// `-Xswiftc -DLOOPVIZ_REAL_BACKEND` to use it from a working tree that has it, and once it is in `main`, drop the
/// condition.
enum RealEngineBackend {
    static var isAvailable: Bool {
        #if LOOPVIZ_REAL_BACKEND
        true
        #else
        false
        #endif
    }

    /// Why the rows that need the backend are pending while it is missing.
    static let pendingReason = "LoopEngine's real backend (Sources/LoopEngine/Real) has not landed"

    /// A loop on a fresh real backend (its own epoll sets, eventfds and timerfds), or nil without one.
    static func makeLoop(named name: String) -> RunLoopCore? {
        #if LOOPVIZ_REAL_BACKEND
        EpollWaiter(profile: .linux).makeLoop(named: name)
        #else
        nil
        #endif
    }
}
