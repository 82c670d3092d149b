import Foundation
import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        // A line longer than the reader allows is given as it was cut, and refused by the reader.
        let lines = ChunkedLines(descriptor: handle.fileDescriptor)
        do {
            while let line = try lines.nextLine() { try take(line.bytes, last: line.isLast) }
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
