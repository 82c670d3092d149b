#if os(Linux)
import CLoopKernel

#if canImport(Glibc)
import Glibc
#endif

/// What the benchmarks need from the operating system: the clock, the machine's description, pinning a thread to
/// a core, and a thread's own CPU time and context switches.
///
/// Glibc's Swift module is built without `_GNU_SOURCE`, so `sched_setaffinity`, `gettid` and `RUSAGE_THREAD` are
/// not visible from Swift; the first two are looked up with `dlsym` (they are ordinary exported functions) and
/// `RUSAGE_THREAD` is its Linux value, 1.
enum BenchPlatform {
    /// `CLOCK_MONOTONIC` in nanoseconds: the clock CF's timers, the engine's real clock and every stamp here use.
    @inline(__always)
    static func now() -> Int64 { lv_monotonic_ns() }

    /// Sleeps until `now() + nanoseconds`.
    static func sleep(nanoseconds: Int64) {
        lv_sleep_until(now() + nanoseconds)
    }

    /// Online cores.
    static var coreCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The 1-minute load average, from `/proc/loadavg`.
    static func loadAverage() -> Double? {
        guard let text = readSmallFile("/proc/loadavg"), let first = text.split(separator: " ").first else {
            return nil
        }
        return Double(first)
    }

    /// The CPU's model name, from `/proc/cpuinfo`.
    static func cpuModel() -> String? {
        guard let text = readSmallFile("/proc/cpuinfo", limit: 8192) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: " \t")
        }
        return nil
    }

    // MARK: - Pinning

    private typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer?) -> Int32
    private static let setAffinity: SetAffinity? = {
        guard let address = dlsym(nil, "sched_setaffinity") else { return nil }
        return unsafeBitCast(address, to: SetAffinity.self)
    }()

    /// Pins the calling thread to `cpu` (what `taskset -c CPU` does to a process, for one thread). Threads it
    /// creates afterwards inherit the pin. Returns false when the kernel refused.
    @discardableResult
    static func pinCurrentThread(to cpu: Int) -> Bool {
        guard let setAffinity, cpu >= 0, cpu < 1024 else { return false }
        // A cpu_set_t is a 1024-bit mask; bit N of the array of bytes is CPU N.
        var mask = [UInt8](repeating: 0, count: 128)
        mask[cpu / 8] |= UInt8(1 << (cpu % 8))
        return mask.withUnsafeBytes { setAffinity(0, 128, $0.baseAddress) } == 0
    }

    // MARK: - Thread usage

    /// What `getrusage(RUSAGE_THREAD)` says about the calling thread.
    struct ThreadUsage {
        /// User plus system CPU time.
        var cpuNanoseconds: Int64
        /// Voluntary context switches: the thread blocked (each sleep in the kernel is one).
        var voluntarySwitches: Int
        /// Involuntary ones: the thread was preempted.
        var involuntarySwitches: Int

        static func - (lhs: Self, rhs: Self) -> Self {
            ThreadUsage(
                cpuNanoseconds: lhs.cpuNanoseconds - rhs.cpuNanoseconds,
                voluntarySwitches: lhs.voluntarySwitches - rhs.voluntarySwitches,
                involuntarySwitches: lhs.involuntarySwitches - rhs.involuntarySwitches)
        }
    }

    /// The calling thread's CPU time so far, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUTime() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// The whole process's CPU time so far, in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`): for a run whose work is
    /// done on threads it starts (a scenario's hosted threads).
    static func processCPUTime() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// The calling thread's CPU time and context switches so far.
    static func threadUsage() -> ThreadUsage {
        var usage = rusage()
        // RUSAGE_THREAD (Linux): the calling thread only.
        _ = getrusage(__rusage_who_t(1), &usage)
        let cpu = nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
        return ThreadUsage(
            cpuNanoseconds: cpu, voluntarySwitches: Int(usage.ru_nvcsw), involuntarySwitches: Int(usage.ru_nivcsw))
    }

    private static func nanoseconds(_ time: timeval) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_usec) * 1_000
    }

    // MARK: - Files

    static func readSmallFile(_ path: String, limit: Int = 4096) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        let count = read(fd, &bytes, limit)
        guard count > 0 else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

/// A bare OS thread for one workload: optionally pinned to a core before its body runs, joined once.
///
/// Not Foundation's `Thread`: the benchmarks pin threads and read their own `RUSAGE_THREAD`, and a bare pthread
/// is also what CF sees when a C program creates a thread.
final class BenchThread {
    private final class Body {
        let cpu: Int?
        let run: () -> Void
        init(cpu: Int?, _ run: @escaping () -> Void) {
            self.cpu = cpu
            self.run = run
        }
    }

    private var handle = pthread_t()
    private var joined = false

    /// Starts a thread that pins itself to `cpu` (nil: any core) and runs `body`.
    init(pinnedTo cpu: Int? = nil, _ body: @escaping () -> Void) {
        let context = Unmanaged.passRetained(Body(cpu: cpu, body)).toOpaque()
        let result = pthread_create(
            &handle, nil,
            { argument in
                guard let argument else { return nil }
                let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
                if let cpu = body.cpu { BenchPlatform.pinCurrentThread(to: cpu) }
                body.run()
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed (\(result))")
    }

    deinit {
        precondition(joined, "a benchmark thread was never joined")
    }

    /// Waits for the body to return: everything it wrote is then visible to the caller.
    func join() {
        guard !joined else { return }
        pthread_join(handle, nil)
        joined = true
    }

    /// Runs `body` on a fresh thread and waits for it.
    static func run(pinnedTo cpu: Int? = nil, _ body: @escaping () -> Void) {
        let thread = BenchThread(pinnedTo: cpu, body)
        thread.join()
    }
}

/// A blocking eventfd: the simplest way for one thread to sleep in the kernel until another posts to it. The
/// raw baselines are made of these, and every workload's reply path is one.
final class BenchEvent {
    let fd: Int32

    init() {
        fd = eventfd(0, Int32(EFD_CLOEXEC))
        precondition(fd >= 0, "eventfd failed (errno \(errno))")
    }

    deinit { close(fd) }

    /// Adds one (wakes a waiter).
    @inline(__always)
    func post() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    /// Blocks until the counter is non-zero, then takes it all.
    @inline(__always)
    func wait() {
        var value: UInt64 = 0
        while read(fd, &value, 8) < 0 && errno == EINTR {}
    }

    /// Like ``wait()``, giving up after `timeoutNanoseconds`; returns false then (nothing was taken).
    func wait(timeoutNanoseconds: Int64) -> Bool {
        let deadline = BenchPlatform.now() + timeoutNanoseconds
        while true {
            let left = deadline - BenchPlatform.now()
            if left <= 0 { return false }
            let ready = lv_ppoll_one(fd, left)
            if ready > 0 { break }
            if ready == 0 { return false }
        }
        wait()
        return true
    }
}
#endif
