import Foundation
import LoopEngine

/// Reads and parses `.loop` files for the headless commands, reporting problems the way compilers do.
enum ScriptLoader {
    enum Failure: Error {
        /// The file could not be read; the message says why.
        case unreadable(String)
        /// The file has errors; each is rendered with its position.
        case invalid(ScenarioDiagnostics)
    }

    /// The largest scenario file read: lessons are a few kilobytes (the largest is 3 KB), and anything this large
    /// is not a scenario (a binary, a log, a device). Larger files are refused before they are read. The parser
    /// keeps tokens and lines in memory (about 60 bytes per byte at worst: 4 MiB of one-word lines costs about
    /// 300 MB), so the bound also bounds its memory.
    static let maxFileSize = 4 << 20

    /// - Parameter iterationCost: the command line's `--iteration-cost`, which wins over the file's.
    static func load(_ path: String, iterationCost: Duration? = nil) -> Result<LoopScript, Failure> {
        let shown = TerminalSafeText.terminalSafe(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(.unreadable("\(shown): no such file"))
        }
        if isDirectory.boolValue { return .failure(.unreadable("\(shown): is a directory")) }
        let bytes: [UInt8]
        switch read(path, limit: maxFileSize) {
        case .success(let read): bytes = read
        case .failure(.unreadable): return .failure(.unreadable("\(shown): cannot read"))
        case .failure(.tooLarge):
            return .failure(
                .unreadable(
                    "\(shown): larger than \(maxFileSize >> 20) MiB; a scenario file is at most "
                        + "\(maxFileSize) bytes"))
        }
        // Invalid UTF-8 is reported where it is (line:column), never replaced silently.
        do {
            var script = try ScenarioParser.parse(utf8: bytes, file: path)
            if let iterationCost { script.scenario.iterationCost = iterationCost }
            return .success(script)
        } catch {
            return .failure(.invalid(error))
        }
    }

    enum ReadFailure: Error {
        case unreadable, tooLarge
    }

    /// Reads at most `limit` bytes of `path`; a file (or pipe, or device) with more is refused without reading
    /// the rest, so `/dev/zero` or a 1 GB log costs nothing.
    static func read(_ path: String, limit: Int) -> Result<[UInt8], ReadFailure> {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limit {
            return .failure(.tooLarge)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(.unreadable) }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - bytes.count))
            } catch {
                return .failure(.unreadable)
            }
            guard let chunk, !chunk.isEmpty else { return .success(bytes) }
            bytes.append(contentsOf: chunk)
        }
        return .failure(.tooLarge)
    }

    /// Loads `path` for a command that goes through many files: on failure prints `ERROR path` and the
    /// diagnostics, and returns nil so the command can go on with the next file.
    static func loadReporting(_ path: String, iterationCost: Duration? = nil) -> LoopScript? {
        switch load(path, iterationCost: iterationCost) {
        case .success(let script):
            return script
        case .failure(let failure):
            print("ERROR \(TerminalSafeText.terminalSafe(path))")
            CommandLine.printError(describe(failure))
            return nil
        }
    }

    /// Loads `path` for a command that reads one file: on failure prints the diagnostics to standard error and
    /// returns nil (the command then ends with `.usage`).
    static func loadOrReport(_ path: String, iterationCost: Duration? = nil) -> LoopScript? {
        switch load(path, iterationCost: iterationCost) {
        case .success(let script):
            return script
        case .failure(let failure):
            CommandLine.printError(describe(failure))
            return nil
        }
    }

    static func describe(_ failure: Failure) -> String {
        switch failure {
        case .unreadable(let message): "loopviz: error: \(message)"
        case .invalid(let diagnostics): diagnostics.description
        }
    }

    /// Parses a time like `2s`, `250ms` or `0` for `--until` and `--iteration-cost`.
    static func duration(_ text: String) -> Duration? {
        let digits = text.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(digits), value >= 0 else { return nil }
        switch text.dropFirst(digits.count) {
        case "" where value == 0: return .zero
        case "s": return .secondsValue(value)
        case "ms": return .secondsValue(value / 1e3)
        case "us": return .secondsValue(value / 1e6)
        case "ns": return .secondsValue(value / 1e9)
        case "m": return .secondsValue(value * 60)
        default: return nil
        }
    }
}
