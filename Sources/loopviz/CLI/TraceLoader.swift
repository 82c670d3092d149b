import Foundation
import LoopEngine

/// Reads `.jsonl` trace files (written by `run --trace jsonl` or by LoopRecorder) for the commands and the UI:
/// in chunks, a line at a time, so the memory is the events' and never the file's; errors and warnings name the
/// file, line and column.
enum TraceLoader {
    /// True for a path the commands read as a trace rather than a scenario.
    static func isTrace(_ path: String) -> Bool { path.hasSuffix(".jsonl") }

    /// The trace at `path`, its warnings printed on standard error; or the error printed and the usage status.
    static func load(_ path: String, maxEvents: Int) -> Result<JSONLTrace, ExitStatus> {
        let shown = TerminalSafeText.terminalSafe(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            return .failure(CommandLine.report(.noSuchTrace(path: path)))
        }
        defer { try? handle.close() }
        var reader = JSONLTraceReader(maximumEvents: maxEvents)
        var pending: [UInt8] = []
        do {
            while true {
                guard let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
                pending.append(contentsOf: chunk)
                var start = 0
                while let newline = pending[start...].firstIndex(of: 0x0A) {
                    try reader.read(line: pending[start..<newline])
                    start = newline + 1
                }
                pending.removeFirst(start)
                if pending.count > JSONLTraceReader.maximumLineLength {
                    try reader.read(line: pending)  // refused: longer than a line may be
                }
            }
            if !pending.isEmpty { try reader.readUnterminated(line: pending) }
            let trace = try reader.finish()
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
