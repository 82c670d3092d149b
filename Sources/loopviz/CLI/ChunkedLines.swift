import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's lines read a chunk at a time, from its start or from an offset, each given in place (valid until the
/// next call) with the offset it starts at: how ``TraceLoader`` streams a trace and ``TraceIndex`` finds and reads
/// its lines. The memory is a chunk and the longest line a reader takes, never the file's.
final class ChunkedLines {
    struct Line {
        var bytes: UnsafeBufferPointer<UInt8>
        /// The offset in the file of its first byte.
        var offset: Int
        /// The file's last bytes, with no newline after them (a line longer than a reader takes is not one: it is
        /// given as it was cut, for the reader to refuse, and nothing after it is read).
        var isLast: Bool
    }

    /// Reading the file failed (`read(2)` or `lseek(2)`).
    struct Failure: Error {}

    private let descriptor: Int32
    /// The file offset of `buffer[0]`.
    private var bufferOffset: Int
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var start = 0
    private var filled = 0
    private var atEnd = false
    /// An offset to seek to before the first read (none from the start: a pipe reads on).
    private var seekTo: Int?

    /// The lines of the file open at `descriptor`, from byte `offset` (0: from where it stands).
    init(descriptor: Int32, offset: Int = 0) {
        self.descriptor = descriptor
        bufferOffset = offset
        seekTo = offset > 0 ? offset : nil
        // A chunk and the longest line a reader takes (a longer one is cut here and refused by the reader).
        buffer = .allocate(capacity: TraceLoader.chunkSize + JSONLTraceReader.maximumLineLength + 2)
    }

    deinit { buffer.deallocate() }

    /// The next line, without its newline; nil at the end of the file.
    func nextLine() throws(Failure) -> Line? {
        while true {
            let base = buffer.baseAddress!
            if start < filled, let found = memchr(base + start, 0x0A, filled - start) {
                let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let line = Line(
                    bytes: UnsafeBufferPointer(start: base + start, count: newline - start),
                    offset: bufferOffset + start, isLast: false)
                start = newline + 1
                return line
            }
            let pending = filled - start
            if atEnd || pending > JSONLTraceReader.maximumLineLength {
                guard pending > 0 else { return nil }
                let line = Line(
                    bytes: UnsafeBufferPointer(start: base + start, count: pending), offset: bufferOffset + start,
                    isLast: atEnd)
                start = filled
                atEnd = true
                return line
            }
            if pending > 0, start > 0 { memmove(base, base + start, pending) }
            bufferOffset += start
            start = 0
            filled = pending
            try fill(base)
        }
    }

    /// Reads on until a chunk is in the buffer or the file ends.
    private func fill(_ base: UnsafeMutablePointer<UInt8>) throws(Failure) {
        if let offset = seekTo {
            guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw Failure() }
            seekTo = nil
        }
        while !atEnd && filled < TraceLoader.chunkSize {
            let count = read(descriptor, base + filled, buffer.count - filled)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure()
            }
            if count == 0 { atEnd = true } else { filled += count }
        }
    }
}
