#if os(Linux)
import Foundation
import Glibc

/// The file descriptors a main-thread scenario may still take. The main thread's run loop outlives every scenario
/// of a process, and CF never removes a mode: each main-thread scenario's modes (fresh names, see
/// ``OracleWorld/mainModePrefix``) keep their timer and port-set descriptors for good. A process comparing
/// thousands of main-thread scenarios would reach its descriptor limit, where CF crashes creating a mode; the
/// oracle refuses the scenario first, with why.
enum OracleHeadroom {
    /// Descriptors kept free for everything else (ports, threads' loops, the output files).
    static let reserve = 256
    /// What one mode of a loop holds at most (its timer descriptor, its port set and its queue's port).
    static let perMode = 3

    /// Nil when `modes` new modes fit; otherwise why the scenario is refused.
    static func problem(forNewModes modes: Int) -> String? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(Int32.max) else {
            return nil
        }
        guard let open = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count else {
            return nil
        }
        let needed = open + reserve + perMode * max(1, modes)
        guard needed > Int(clamping: limit.rlim_cur) else { return nil }
        return
            "too few file descriptors left for the main thread's modes (\(open) open of \(limit.rlim_cur), "
            + "\(reserve) kept free): its run loop keeps the modes of every earlier main-thread scenario of this "
            + "process, as CF never removes a mode; compare fewer main-thread scenarios per process, or raise "
            + "`ulimit -n`"
    }
}
#endif
