import Foundation
import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `read(2)` of up to `count` bytes into `buffer`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(descriptor, buffer, count)
    #else
    return Darwin.read(descriptor, buffer, count)
    #endif
}

/// Reads `.jsonl` trace files (written by `run --trace jsonl` or by LoopRecorder) for the commands and the UI:
/// in chunks, a line at a time, so the memory is the events' and never the file's; errors and warnings name the
/// file, line and column.
enum TraceLoader {
    /// True for a path the commands read as a trace rather than a scenario.
    static func isTrace(_ path: String) -> Bool { path.hasSuffix(".jsonl") }

    /// The trace at `path`, its warnings printed on standard error; or the error printed and the usage status.
    static func load(_ path: String, maxEvents: Int) -> Result<JSONLTrace, ExitStatus> {
        read(path, maxEvents: maxEvents, keep: true, each: { _ in })
    }

    /// Gives each event of the trace at `path` to `each`, in order, without keeping them (the header and the
    /// warnings are returned, the warnings printed); or the error printed and the usage status.
    @discardableResult
    static func stream(_ path: String, maxEvents: Int, each: (LoopEvent) -> Void) -> Result<JSONLTrace, ExitStatus> {
        read(path, maxEvents: maxEvents, keep: false, each: each)
    }

    /// How many bytes are read at once: lines are found in place, and the part line at the end moves to the front.
    static let chunkSize = 4 << 20

    private static func read(
        _ path: String, maxEvents: Int, keep: Bool, each: (LoopEvent) -> Void
    ) -> Result<JSONLTrace, ExitStatus> {
        let shown = TerminalSafeText.terminalSafe(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            return .failure(CommandLine.report(.noSuchTrace(path: path)))
        }
        defer { try? handle.close() }
        var reader = JSONLTraceReader(maximumEvents: maxEvents)
        func take(_ line: UnsafeBufferPointer<UInt8>, last: Bool) throws(JSONLTraceReader.Failure) {
            if keep {
                try last ? reader.readUnterminated(line: line) : reader.read(line: line)
            } else if let event = try last ? reader.nextUnterminated(line: line) : reader.next(line: line) {
                each(event)
            }
        }
        // The buffer holds a part line and a chunk; a line longer than the reader allows is refused by it.
        var buffer = [UInt8](repeating: 0, count: chunkSize + JSONLTraceReader.maximumLineLength + 1)
        var pending = 0
        let descriptor = handle.fileDescriptor
        do {
            try buffer.withUnsafeMutableBufferPointer { whole throws in
                guard let base = whole.baseAddress else { return }
                while true {
                    let count = readBytes(descriptor, base + pending, whole.count - pending)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw CocoaError(.fileReadUnknown)
                    }
                    if count == 0 { break }
                    let filled = pending + count
                    var start = 0
                    while start < filled, let found = memchr(base + start, 0x0A, filled - start) {
                        let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                        try take(UnsafeBufferPointer(start: base + start, count: newline - start), last: false)
                        start = newline + 1
                    }
                    pending = filled - start
                    if pending > JSONLTraceReader.maximumLineLength {
                        // Refused: longer than a line may be.
                        try take(UnsafeBufferPointer(start: base + start, count: pending), last: false)
                    }
                    if pending > 0, start > 0 { memmove(base, base + start, pending) }
                }
                if pending > 0 { try take(UnsafeBufferPointer(start: base, count: pending), last: true) }
            }
            var trace = try reader.finish()
            if !keep { trace.events = LoopTrace() }
            for warning in trace.warnings { CommandLine.printError("loopviz: warning: \(shown):\(warning)") }
            return .success(trace)
        } catch let failure as JSONLTraceReader.Failure {
            CommandLine.printError("loopviz: error: \(shown):\(failure)")
            return .failure(.usage)
        } catch {
            return .failure(CommandLine.report(.cannotRead(path: path)))
        }
    }
}
