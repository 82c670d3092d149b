import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--follow`: reads a recording as it grows, at most ``maximumBytesPerLook`` bytes a look and a look every
/// ``interval`` seconds (the UI's loop asks; nothing here blocks), from where the last look stopped. A file cut
/// shorter or a path that names another file stops following with the reason; the header LoopRecorder rewrites
/// with its counts when it stops says the program ended.
final class FollowFeed: FollowSource {
    /// Seconds between two looks.
    static let interval = 0.1
    /// The most bytes one look reads: a large file already written is read over several frames.
    static let maximumBytesPerLook = 1 << 20

    /// The path whose file is read: a path that comes to name another file stops following.
    private var path: String
    private let descriptor: Int32
    private let identity: (dev_t, ino_t)
    private var tail = FollowTail()
    /// Names the stack samples' frames as they are read, with the modules read so far.
    private var symbolizer = StackSymbolizer()
    /// The frames already named and sent, at most ``maximumNamedFrames``: later new ones are shown as addresses.
    private var named: Set<StackSymbolizer.Lookup> = []
    static let maximumNamedFrames = 100_000
    private var headerSent = false
    private var done = false
    /// True once the header, rewritten with its counts, said the recording is complete: its writer is ending.
    private(set) var saidEnded = false
    /// Set by ``writerEnded()``: the program that wrote the file has ended, so what is in it is all there will be.
    private var writerGone = false

    /// Opens `path` for reading; nil with the system's words when it cannot be opened.
    init(path: String) throws(FollowOpenError) {
        self.path = path
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw FollowOpenError(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        fstat(opened, &info)
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw FollowOpenError(path: path, reason: "not a regular file")
        }
        descriptor = opened
        identity = (info.st_dev, info.st_ino)
    }

    deinit { close(descriptor) }

    /// The file read was renamed to `path` (`record --live`: the temporary file, once the program ended, renamed
    /// into place): the path checked from now on.
    func moved(to path: String) { self.path = path }

    /// The program writing the file has ended (`record --live` reaped it): once everything written is read,
    /// following ends even when the header was never rewritten (SIGKILL), and a file with nothing in it says so.
    func writerEnded() { writerGone = true }

    /// What one look finds; nil when there is nothing new (or following has stopped).
    func take() -> AppMessage? {
        guard !done else { return nil }
        var batch = FollowBatch()
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return stop(.readFailed(String(cString: strerror(errno)))) }
        let size = Int(info.st_size)
        if size < tail.bytesTaken { return stop(.truncated(size: size, read: tail.bytesTaken)) }
        // A path that now names another file (a recording started again): the one read is not the one named.
        var named = stat()
        if stat(path, &named) == 0 && (named.st_dev != identity.0 || named.st_ino != identity.1) {
            return stop(.replaced)
        }
        let count = min(size - tail.bytesTaken, Self.maximumBytesPerLook)
        if count > 0 {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(tail.bytesTaken)) }
            guard got >= 0 else { return stop(.readFailed(String(cString: strerror(errno)))) }
            do throws(JSONLTraceReader.Failure) {
                batch.events = try tail.feed(Array(bytes.prefix(got)))
            } catch {
                return stop(.unreadable(error))
            }
            batch.frames = nameFrames(of: batch.events)
        }
        if !headerSent, let header = tail.header {
            headerSent = true
            batch.header = header
        }
        // Everything written is read: does the header say the program ended?
        if tail.bytesTaken == size, tail.waitingBytes == 0, let length = tail.headerLength {
            var line = [UInt8](repeating: 0, count: length)
            let got = line.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, 0) }
            // Lines written between the two looks are read first: the end comes after the last of them.
            var now = stat()
            if got == length && FollowTail.saysEnded(headerLine: line) && fstat(descriptor, &now) == 0
                && Int(now.st_size) == size
            {
                done = true
                saidEnded = true
                batch.ended = true
            }
        }
        // The writer is gone and everything it wrote is read: nothing more will come.
        if writerGone && !done && tail.bytesTaken == size {
            done = true
            if tail.header == nil { return .followed(FollowBatch(problem: .nothingRecorded)) }
            batch.ended = true
        }
        return batch == FollowBatch() ? nil : .followed(batch)
    }

    /// The frames of `events`' stack samples not named before (`loopviz record --stacks`), named with the modules
    /// the recording has listed so far.
    private func nameFrames(of events: [LoopEvent]) -> [StackSymbolizer.Lookup: StackSymbolizer.Frame] {
        var frames: [StackSymbolizer.Lookup: StackSymbolizer.Frame] = [:]
        for event in events {
            switch event.fact {
            case .module(let module): symbolizer.add(module: module, path: event.name ?? "")
            case .stack(let sample):
                for (offset, address) in sample.frames.enumerated() {
                    let lookup = StackSymbolizer.Lookup(address: address, isReturnAddress: offset > 0)
                    guard named.count < Self.maximumNamedFrames, named.insert(lookup).inserted else { continue }
                    frames[lookup] = symbolizer.frame(address, isReturnAddress: offset > 0)
                }
            default: continue
            }
        }
        return frames
    }

    private func stop(_ problem: FollowProblem) -> AppMessage {
        done = true
        return .followed(FollowBatch(problem: problem))
    }
}

/// A followed file that cannot be opened: its path and the system's words.
struct FollowOpenError: Error, Equatable {
    var path: String
    var reason: String
}
