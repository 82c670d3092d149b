#if os(Linux)
import Glibc

/// Running out of file descriptors: a port or port set the kernel refuses (`EMFILE`, `ENFILE`) halts the backend
/// with a ``DescriptorLimit`` instead of trapping, and stands in as ``refusedDescriptor``, which every later call
/// on it ignores (the halted loops only unwind).
extension EpollWaiter {
    /// The descriptor of a port or port set the kernel refused; never a real one.
    static let refusedDescriptor: Int32 = -1

    /// True, after halting with a ``DescriptorLimit``, when `result` (a descriptor or `-errno`) says the process or
    /// the system has too many open files; false for a descriptor or any other failure.
    func refused(_ result: Int32, _ call: String, for what: String) -> Bool {
        guard result == -EMFILE || result == -ENFILE else { return false }
        var limit = rlimit()
        let processLimit = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(exactly: limit.rlim_cur) : nil
        halt(atDescriptorLimit: DescriptorLimit(port: what, call: call, osError: -result, processLimit: processLimit))
        return true
    }
}
#endif
