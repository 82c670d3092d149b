/// A real-clock run could not have a file descriptor: the kernel refused an eventfd, a timerfd or an epoll
/// instance because the process (`EMFILE`, `ulimit -n`) or the system (`ENFILE`) had too many open files. Every
/// port and mode of a real loop is a descriptor, so a scenario with hundreds of modes, sources or threads meets
/// the limit.
///
/// The backend halts with this fact (``VirtualWorld/HaltReason/descriptorLimit(_:)``) instead of trapping: every
/// run unwinds without further callouts and the commands report it, as they report the thread limit.
public struct DescriptorLimit: Sendable, Equatable {
    /// What could not be made: the port's label (`main.Other.timer`), or `the port set main.Other` for a mode's
    /// epoll instance.
    public var port: String
    /// The system call that failed: `eventfd`, `timerfd_create` or `epoll_create1`.
    public var call: String
    /// `EMFILE` (the process's limit) or `ENFILE` (the system's).
    public var osError: Int32
    /// The process's limit on open files when it failed (`RLIMIT_NOFILE`'s soft limit); nil if unknown.
    public var processLimit: Int?

    package init(port: String, call: String, osError: Int32, processLimit: Int?) {
        self.port = port
        self.call = call
        self.osError = osError
        self.processLimit = processLimit
    }
}
