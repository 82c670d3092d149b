import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes to one descriptor through plain `write(2)` loops, buffered, remembering the first error.
///
/// Why not `FileHandle` or `print`: `FileHandle.write` traps on an error (a full disk, a closed pipe), and stdio
/// loses the error of a buffered `print` at exit. Here every error is kept (its `errno`), later writes are
/// skipped, and the command reports it once, naming ``name`` and the reason (`strerror`).
final class OutputWriter {
    /// Who the descriptor is for a message: a path, or "standard output".
    let name: String
    let descriptor: Int32
    /// Flush at every newline (a terminal shows each line at once); else when the buffer fills.
    private let flushesLines: Bool
    /// The bytes not written yet and the first error, behind a pointer allocated once: a streamed trace appends to
    /// the buffer a million times, and a stored property of a class would cost each append a dynamic exclusivity
    /// check (two runtime calls).
    private let state: UnsafeMutablePointer<State>
    private static let capacity = 64 * 1024

    private struct State {
        var pending: [UInt8] = []
        var errorNumber: Int32?
    }

    /// The `errno` of the first write that failed.
    var errorNumber: Int32? { state.pointee.errorNumber }

    init(descriptor: Int32, name: String, flushesLines: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.flushesLines = flushesLines
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        state.pointee.pending.reserveCapacity(Self.capacity + 4 * 1024)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Records a failure that happened outside the writer (the output could not be finished), unless one is
    /// already recorded: later writes do nothing and the command reports it.
    func fail(_ number: Int32) {
        if state.pointee.errorNumber == nil { state.pointee.errorNumber = number }
    }

    /// True while no write has failed: a streaming run stops as soon as it turns false.
    var isWorking: Bool { errorNumber == nil }

    /// True when the reader went away (a closed pipe): the command ends quietly.
    var readerHasGone: Bool { errorNumber == EPIPE }

    /// Buffers `text`, writing out every full buffer: a large text (a whole Chrome trace) goes out in pieces
    /// instead of being copied into the buffer whole.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
        if flushesLines && text.utf8.contains(10) { flush() }
    }

    /// Buffers UTF-8 `bytes` (a JSONL line), writing out every full buffer.
    func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
        if flushesLines && bytes.contains(10) { flush() }
    }

    /// Lets `build` append one line (or a few) of UTF-8 straight to the buffer, then writes it out if full: how a
    /// streamed trace writes each event's line without a buffer of its own to copy from.
    func write(building build: (inout [UInt8]) -> Void) {
        guard errorNumber == nil else { return }
        let start = state.pointee.pending.count
        build(&state.pointee.pending)
        if flushesLines && state.pointee.pending[start...].contains(10) {
            flush()
        } else if state.pointee.pending.count >= Self.capacity {
            flush()
        }
    }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start < bytes.count && errorNumber == nil {
            let count = min(Self.capacity - state.pointee.pending.count, bytes.count - start)
            state.pointee.pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<start + count]))
            start += count
            if state.pointee.pending.count >= Self.capacity { flush() }
        }
    }

    /// Writes out everything buffered; false once a write has failed.
    @discardableResult
    func flush() -> Bool {
        guard errorNumber == nil else { return false }
        var offset = 0
        let failure: Int32? = state.pointee.pending.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = posixWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        state.pointee.pending.removeAll(keepingCapacity: true)
        state.pointee.errorNumber = failure
        return failure == nil
    }

    /// The one-line message for the first failed write, or nil.
    var errorMessage: String? {
        guard let errorNumber else { return nil }
        return Self.message(writing: name, errorNumber)
    }

    /// `loopviz: error: cannot write NAME: REASON`, with the path made safe for the terminal.
    static func message(writing name: String, _ number: Int32) -> String {
        "loopviz: error: cannot write \(TerminalSafeText.terminalSafe(name)): \(String(cString: strerror(number)))"
    }
}

/// `write(2)`, out of the way of ``OutputWriter/write(_:)``.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
