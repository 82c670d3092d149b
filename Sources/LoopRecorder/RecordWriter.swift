import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer thread: every `interval` it takes what the loop buffered and appends it to the file, so the loop
/// never waits for a disk. The header line is written first with room to spare and rewritten at the end with the
/// number of events and of drops (a recording cut short by a crash still reads: its header says `null`).
///
/// The file is opened with `open(2)` (`O_WRONLY | O_CREAT | O_TRUNC`) and written in place: a recording streams,
/// so it goes into the file the path names — through a symbolic link to its target, into a FIFO to whoever reads
/// it, into a device — and is never replaced by a new file (`FileManager.createFile` writes a temporary file and
/// renames it over the path, which turned a link, a FIFO or `/dev/null` into a regular file: audit D8). A file that
/// cannot be sought (a FIFO, a terminal) keeps its first header, whose `"events": null` every reader accepts.
///
/// A write that fails (a full disk, a FIFO whose reader left: SIGPIPE is blocked on the writer thread, so it never
/// ends the program) ends the writing for good: a regular file is cut back to its last complete
/// line, so the file never holds a torn line in its middle (audit D7a), the header's count is that of the lines
/// kept, and ``writeFailed`` is reported in `LoopRecorder.Summary`.
final class RecordWriter: @unchecked Sendable {
    /// Room left after the first header, for the final counts.
    static let headerSlack = 80

    private let descriptor: Int32
    /// True when the file can be cut back and its header rewritten (a regular file).
    private let seekable: Bool
    private let buffer: RecordBuffer
    /// Each recorded loop's thread name as a JSON string, made once, by the loop's index (`RecordedEvent.loop`).
    private let threads: RecorderLocked<[[UInt8]]>
    private let headerFields: String
    private let headerWidth: Int
    private let interval: TimeInterval
    private let wake = NSCondition()
    /// Guarded by `wake`.
    private var stopping = false
    private var finished = false
    /// The bytes in the file: every one of them belongs to a complete line. Writer thread only.
    private var length: off_t = 0
    /// The events taken back from the buffer, emptied and handed back so the buffer reuses its storage.
    private var spare: [RecordedEvent] = []
    /// Written by the writer thread only, read after it finished.
    private(set) var written = 0
    private(set) var writeFailed = false

    init(url: URL, buffer: RecordBuffer, thread: String, process: String, pid: Int32, interval: TimeInterval) throws {
        var fields: [UInt8] = []
        fields += Array("{\"format\":\"loopviz-trace\",\"version\":1,\"scenario\":".utf8)
        RecordedEvent.appendQuoted(process, to: &fields)
        fields += Array(",\"clock\":\"real\",\"recorded\":{\"process\":".utf8)
        RecordedEvent.appendQuoted(process, to: &fields)
        fields += Array(",\"pid\":\(pid),\"thread\":".utf8)
        RecordedEvent.appendQuoted(thread, to: &fields)
        fields += Array("}".utf8)
        headerFields = String(decoding: fields, as: UTF8.self)
        let first = Array((headerFields + ",\"events\":null}").utf8)
        headerWidth = first.count + Self.headerSlack
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.error(errno, url.path) }
        var info = stat()
        seekable = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        self.buffer = buffer
        var quoted: [UInt8] = []
        RecordedEvent.appendQuoted(thread, to: &quoted)
        threads = RecorderLocked([quoted])
        self.interval = interval
        let header = Self.padded(first, to: headerWidth)
        guard write(header) else {
            let failure = errno
            close(descriptor)
            throw Self.error(failure, url.path)
        }
    }

    /// The error `start` throws for `errno` `number` (a Cocoa file error naming the path, the POSIX error under it).
    private static func error(_ number: Int32, _ path: String) -> CocoaError {
        let code: CocoaError.Code =
            switch number {
            case EACCES, EPERM: .fileWriteNoPermission
            case ENOENT, ENOTDIR: .fileNoSuchFile
            case ENOSPC, EDQUOT: .fileWriteOutOfSpace
            case EROFS: .fileWriteVolumeReadOnly
            default: .fileWriteUnknown
            }
        let underlying = POSIXError(POSIXErrorCode(rawValue: number) ?? .EIO)
        return CocoaError(code, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: underlying])
    }

    /// The header's bytes padded with spaces to `width`, then a newline (spaces after a JSON value are allowed).
    private static func padded(_ bytes: [UInt8], to width: Int) -> [UInt8] {
        bytes + [UInt8](repeating: 0x20, count: max(0, width - bytes.count)) + [0x0A]
    }

    /// Adds a loop's thread name to the table; returns the loop's index for its events.
    func addThread(_ name: String) -> Int {
        var quoted: [UInt8] = []
        RecordedEvent.appendQuoted(name, to: &quoted)
        return threads.withLock { threads in
            threads.append(quoted)
            return threads.count - 1
        }
    }

    /// Starts the writer thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "LoopRecorder writer"
        thread.start()
    }

    private func run() {
        // A FIFO whose reader left makes write(2) raise SIGPIPE, which would end the recorded program: blocked on
        // this thread only, the write fails with EPIPE instead (a failed write, reported in the summary).
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        while true {
            wake.lock()
            if !stopping { _ = wake.wait(until: Date(timeIntervalSinceNow: interval)) }
            let last = stopping
            wake.unlock()
            let (events, dropped) = buffer.take(closing: last, reusing: &spare)
            write(events)
            spare = events
            if last {
                finish(dropped: dropped)
                wake.lock()
                finished = true
                wake.broadcast()
                wake.unlock()
                return
            }
        }
    }

    /// Appends the events' lines. After the first failure nothing more is written: the lines of the batch that
    /// failed are cut off (a regular file), so only complete lines remain.
    private func write(_ events: [RecordedEvent]) {
        guard !events.isEmpty, !writeFailed else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 130)
        // The table only grows, and every event's loop was added before its event: one copy per batch.
        let threads = self.threads.withLock { $0 }
        for event in events { event.appendLine(thread: threads[event.loop], to: &bytes) }
        if write(bytes) {
            written += events.count
        } else {
            writeFailed = true
            if seekable { _ = ftruncate(descriptor, length) }
        }
    }

    /// `write(2)` of all of `bytes` at the end of what is written; false (with `errno`) when one failed. `length`
    /// moves only once all of them are written.
    private func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        let done: Bool = bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let count = posixWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        if done { length += off_t(bytes.count) }
        return done
    }

    /// Rewrites the header in place (the same width) with the counts, and closes the file.
    private func finish(dropped: Int) {
        if seekable {
            let header = Self.padded(
                Array((headerFields + ",\"events\":\(written),\"dropped\":\(dropped)}").utf8), to: headerWidth)
            let count = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            if count != header.count { writeFailed = true }
        }
        if close(descriptor) != 0 { writeFailed = true }
    }

    /// Asks the writer to write what is left and close the file, and waits until it has.
    func stopAndWait() {
        wake.lock()
        stopping = true
        wake.broadcast()
        while !finished { wake.wait() }
        wake.unlock()
    }
}

/// `write(2)`, out of the way of ``RecordWriter``'s own `write` methods.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
