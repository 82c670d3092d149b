#if os(Linux)
import LoopEngine

/// Where the benchmarks' LoopEngine loops live: the real backend (a `CLOCK_MONOTONIC` clock and an
/// epoll/eventfd/timerfd waiter, `Sources/LoopEngine/Real`) or the deterministic virtual clock.
enum BenchEngine: String {
    case real, virtual

    /// How the variant is named in the table.
    var label: String { "engine (\(rawValue))" }

    /// A fresh loop on this backend, with nothing in it. Each call makes a new backend (its own lock and ports).
    func makeLoop(named name: String) -> RunLoopCore {
        switch self {
        case .virtual:
            let world = VirtualWorld()
            return RunLoopCore(name: name, clock: world, waiter: world)
        case .real:
            return EpollWaiter(profile: .linux).makeLoop(named: name)
        }
    }
}
#endif
