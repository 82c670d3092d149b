#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// Another process of this very executable (`/proc/self/exe`), for the workloads whose figure is a whole
/// process's: its wall time from spawn to exit, its peak resident memory, or memory measured where nothing else
/// ran before (the bench's own process has allocated and freed hundreds of megabytes by then, and freed memory
/// stays resident in the allocator).
enum BenchChild {
    struct Outcome {
        /// The exit status, or 128 + the signal that ended the child.
        var status: Int32
        /// What the child wrote on standard output (empty unless captured).
        var output: String
        /// From just before `posix_spawn` to just after `wait4` returned.
        var wallNanoseconds: Int64
        /// The child's peak resident set: `ru_maxrss` of `wait4`'s rusage (KiB on Linux), in bytes.
        var peakResidentBytes: Int
    }

    /// Runs `loopviz ARGUMENTS…` and waits for it. Standard input is `/dev/null`; standard output is captured when
    /// `captureOutput`, else `/dev/null`; standard error is `/dev/null` when `quiet`, else the bench's own.
    /// Nil when the process could not be started.
    static func run(_ arguments: [String], captureOutput: Bool, quiet: Bool) -> Outcome? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var ends: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&ends) == 0 else { return nil }
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
            posix_spawn_file_actions_addclose(&actions, ends[0])
            posix_spawn_file_actions_addclose(&actions, ends[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = (["loopviz"] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }

        var pid = pid_t()
        let started = BenchPlatform.now()
        let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, environ)
        if captureOutput { close(ends[1]) }
        guard spawned == 0 else {
            if captureOutput { close(ends[0]) }
            return nil
        }
        // A signal that ends the bench ends the child first, which removes its own temporary files.
        HeadlessSignals.child = pid
        defer { HeadlessSignals.child = 0 }
        var output: [UInt8] = []
        if captureOutput {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(ends[0], &buffer, buffer.count)
                if count > 0 {
                    output += buffer[0..<count]
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            close(ends[0])
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return nil }
        }
        let wall = BenchPlatform.now() - started
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7F
        return Outcome(
            status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
            output: String(decoding: output, as: UTF8.self), wallNanoseconds: wall,
            peakResidentBytes: Int(usage.ru_maxrss) * 1024)
    }

    /// The integer right after the first `label` in `text` (a child's line of figures).
    static func integer(after label: String, in text: String) -> Int? {
        guard let range = text.firstRange(of: label) else { return nil }
        return Int(text[range.upperBound...].prefix { $0 == "-" || $0.isNumber })
    }

    /// The calling process's peak resident set so far, in bytes (`VmHWM` in `/proc/self/status`).
    static func peakResidentBytes() -> Int? {
        guard let text = BenchPlatform.readSmallFile("/proc/self/status", limit: 8192) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.dropFirst("VmHWM:".count).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// The calling process's resident set now, in bytes (`/proc/self/statm`'s second field, in pages).
    static func residentBytes() -> Int? {
        guard let text = BenchPlatform.readSmallFile("/proc/self/statm") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// A folder of its own under `$TMPDIR` (else `/tmp`) for a workload's files, removed with everything in it.
final class BenchTemporaryFolder {
    let path: String

    init() {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/loopviz-bench-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
        guard let made else { preconditionFailure("cannot make a temporary folder in \(base) (errno \(errno))") }
        path = made
        HeadlessSignals.markScratch(path)
    }

    /// `name` inside the folder, marked for removal if a signal ends the bench (with the folder).
    func file(_ name: String) -> String {
        let file = path + "/" + name
        if !marked.contains(file) {
            marked.append(file)
            HeadlessSignals.markScratch(file)
        }
        return file
    }

    /// The files marked for removal on a signal.
    private var marked: [String] = []

    /// Writes `text` to `name` in the folder; false when it could not.
    func save(_ text: String, as name: String) -> Bool {
        let fd = open(file(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            bytes = bytes.dropFirst(count)
        }
        return true
    }

    /// Lines (newline characters) in `name`, and whether its first line starts with `prefix`; nil when it cannot
    /// be read.
    func countLines(in name: String, firstLinePrefix prefix: String) -> (lines: Int, prefixed: Bool)? {
        let fd = open(file(name), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var lines = 0
        var head: [UInt8] = []
        let wanted = Array(prefix.utf8)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            if head.count < wanted.count { head += buffer[0..<min(count, wanted.count - head.count)] }
            buffer.withUnsafeBytes { raw in
                var start = raw.baseAddress!
                let end = start + count
                while start < end, let found = memchr(start, 0x0A, end - start) {
                    lines += 1
                    start = UnsafeRawPointer(found) + 1
                }
            }
        }
        return (lines, head == wanted)
    }

    deinit {
        // Everything in the folder is the workload's: the files it wrote, and whatever the child left (an
        // atomic `-o` writes a temporary file beside its target first).
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(file(name)) }
            }
            closedir(directory)
        }
        rmdir(path)
        for file in marked { HeadlessSignals.forgetScratch(file) }
        HeadlessSignals.forgetScratch(path)
    }
}
#endif
