import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes its main output: standard output, or the file of `-o PATH` — and every other file
/// loopviz writes (`--record`'s cast, `fuzz --out`'s cases): one rule for all, docs/limits.md's "Files are never
/// lost".
///
/// A regular file is written atomically: into a temporary file in the same directory, flushed to disk (`fsync`),
/// then renamed over PATH. A failed write, a full disk or a signal therefore leaves PATH as it was (the old file,
/// or none), never half-written. A symbolic link is followed: its target is what is replaced (the link stays a
/// link, `-o /dev/stdout` writes standard output). Anything else that exists at PATH (a device such as
/// `/dev/null`, a FIFO) is written directly, and so is a link to nothing yet (its target is created, as `>` does).
final class OutputFile {
    /// Where the bytes go now.
    private(set) var writer: OutputWriter
    /// The path given, or nil for standard output.
    let path: String?
    /// The temporary file renamed over ``destination`` by ``commit()``.
    private var temporary: String?
    /// The file the temporary one replaces: `path`, or the file a symbolic link at `path` leads to.
    private let destination: String?

    private init(writer: OutputWriter, path: String?, temporary: String?, destination: String? = nil) {
        self.writer = writer
        self.path = path
        self.temporary = temporary
        self.destination = destination
    }

    /// Opens the output of `-o path` (standard output when `path` is nil or `-`). Refuses a path that is one of
    /// `inputs` (the same file however it is spelled); `option` names the option in that message. The error is
    /// the message to print and the exit status.
    static func open(_ path: String?, inputs: [String], option: String = "-o") -> Result<OutputFile, Failure> {
        guard let path, path != "-" else {
            return .success(OutputFile(writer: StandardOutput.writer, path: nil, temporary: nil))
        }
        let shown = TerminalSafeText.terminalSafe(path)
        if let input = inputs.first(where: { SameFile.check(path, $0) }) {
            let same = input == path ? "" : " (\(TerminalSafeText.terminalSafe(input)))"
            return .failure(
                Failure(
                    message: "loopviz: error: \(option) \(shown) is an input file\(same); it would be overwritten",
                    status: .usage))
        }
        var info = stat()
        var target = path
        if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK {
            // `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N` name a descriptor the caller opened (perhaps to
            // append): written through, never replaced.
            let descriptorLink = path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
            guard !descriptorLink, let resolved = realpath(path, nil) else {
                // A link to nothing yet: written through, creating its target.
                let descriptor = openExisting(path, creating: true)
                guard descriptor >= 0 else { return .failure(.writing(path)) }
                return .success(
                    OutputFile(writer: OutputWriter(descriptor: descriptor, name: path), path: path, temporary: nil))
            }
            target = String(cString: resolved)
            free(resolved)
        }
        if stat(target, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
            if info.st_mode & S_IFMT == S_IFDIR {
                return .failure(
                    Failure(message: "loopviz: error: cannot write \(shown): is a directory", status: .usage))
            }
            let descriptor = openExisting(target)
            guard descriptor >= 0 else { return .failure(.writing(path)) }
            return .success(
                OutputFile(writer: OutputWriter(descriptor: descriptor, name: path), path: path, temporary: nil))
        }
        guard let (descriptor, temporary) = HeadlessSignals.createTemporary(temporaryTemplate(for: target))
        else { return .failure(.writing(path)) }
        // mkstemp makes the file 0600: give it the mode the old file had, or what a new file would get.
        let mode: mode_t
        if stat(target, &info) == 0 {
            mode = info.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        fchmod(descriptor, mode)
        return .success(
            OutputFile(
                writer: OutputWriter(descriptor: descriptor, name: path), path: path, temporary: temporary,
                destination: target))
    }

    /// Finishes the output: standard output is flushed (its errors are reported at exit); a file is flushed,
    /// synced and renamed into place. Returns the message of the first error, or nil. On an error the old file is
    /// left as it was.
    func commit() -> String? {
        guard path != nil else {
            writer.flush()
            return nil
        }
        defer { HeadlessSignals.removeOnSignal(nil) }
        var failure = writer.flush() ? nil : writer.errorNumber
        if failure == nil, temporary != nil, fsync(writer.descriptor) != 0 { failure = errno }
        if close(writer.descriptor) != 0, failure == nil { failure = errno }
        if let temporary {
            if failure == nil, let destination, rename(temporary, destination) != 0 { failure = errno }
            if failure != nil { unlink(temporary) }
        }
        return failure.map { OutputWriter.message(writing: path ?? "standard output", $0) }
    }

    /// The temporary file being written, renamed over PATH by ``commit()``; nil when PATH is written directly
    /// (standard output, a device, a FIFO, a link to nothing yet).
    var temporaryPath: String? { temporary }

    /// After a crash, from the crash guard's signal handler: what was written (and flushed) is kept — renamed into
    /// place — unless a write failed, when the temporary file is removed and PATH left as it was. No flush, no
    /// fsync, no message: only `close`, `rename`, `unlink`.
    func keepAfterCrash() {
        guard path != nil else { return }
        close(writer.descriptor)
        guard let temporary else { return }
        if writer.isWorking, let destination, rename(temporary, destination) == 0 { return }
        unlink(temporary)
    }

    /// True when the output is a new file written through a temporary one, so ``prepend(_:)`` can put a
    /// header before what was written (JSONL's header gives the event count, known only at the end).
    var canPrepend: Bool { temporary != nil }

    /// Puts `text` before everything written so far: a new temporary file gets `text`, then the old one's bytes
    /// (copied in the kernel), and takes its place. The old temporary is unlinked first (its descriptor keeps
    /// the bytes), so at every moment a signal finds at most one file to remove. When it fails the writer holds
    /// the error, which ``commit()`` reports (and the destination is left as it was).
    func prepend(_ text: String) {
        guard let old = temporary, let destination, writer.flush() else { return }
        let source = writer.descriptor
        unlink(old)
        temporary = nil
        HeadlessSignals.removeOnSignal(nil)
        guard let (descriptor, path) = HeadlessSignals.createTemporary(Self.temporaryTemplate(for: destination)) else {
            writer.fail(errno)
            return
        }
        var info = stat()
        if fstat(source, &info) == 0 { fchmod(descriptor, info.st_mode & 0o7777) }
        let replacement = OutputWriter(descriptor: descriptor, name: writer.name)
        replacement.write(text)
        var offset: off_t = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while replacement.flush() {
            let count = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { replacement.fail(errno) }
            if count <= 0 { break }
            offset += off_t(count)
            replacement.write(bytes: Array(buffer[0..<count]))
        }
        close(source)
        writer = replacement
        temporary = path
    }

    /// The temporary file's `mkstemp` template: hidden, beside the target (so the rename stays on one file
    /// system).
    private static func temporaryTemplate(for target: String) -> String {
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? ""
        let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
        return "\(folder).\(base).loopviz-XXXXXX"
    }

    /// Writes `text` to `path` whole, by the same rule as `-o` (a temporary file renamed into place, a link
    /// followed, a device written directly, an input refused). Returns the failure's message and status, or nil.
    static func write(_ text: String, to path: String, inputs: [String] = []) -> Failure? {
        switch open(path, inputs: inputs) {
        case .failure(let failure): return failure
        case .success(let output):
            output.writer.write(text)
            return output.commit().map { Failure(message: $0, status: .writeError) }
        }
    }

    /// Gives up the output without writing it: a file's temporary copy is removed, PATH is left as it was.
    func abandon() {
        guard path != nil else { return }
        close(writer.descriptor)
        if let temporary { unlink(temporary) }
        HeadlessSignals.removeOnSignal(nil)
    }

    /// Why an output cannot be opened or written: the one-line message and the exit status.
    struct Failure: Error {
        var message: String
        var status: ExitStatus

        static func writing(_ path: String) -> Failure {
            Failure(message: OutputWriter.message(writing: path, errno), status: .writeError)
        }
    }
}

/// `open(2)` of a file for writing (truncated; created only when `creating`), out of the way of
/// ``OutputFile/open(_:inputs:)``.
private func openExisting(_ path: String, creating: Bool = false) -> Int32 {
    let flags = O_WRONLY | O_TRUNC | O_CLOEXEC | (creating ? O_CREAT : 0)
    #if canImport(Glibc)
    return Glibc.open(path, flags, 0o666)
    #else
    return Darwin.open(path, flags, 0o666)
    #endif
}
