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

    /// - Parameter iterationCost: the command line's `--iteration-cost`, which wins over the file's.
    static func load(_ path: String, iterationCost: Duration? = nil) -> Result<LoopScript, Failure> {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                return .failure(.unreadable(isDirectory.boolValue ? "\(path): is a directory" : "\(path): cannot read"))
            }
            return .failure(.unreadable("\(path): no such file"))
        }
        // Invalid UTF-8 is replaced, never fatal: the parser then reports what it cannot read.
        let text = String(decoding: data, as: UTF8.self)
        do {
            var script = try ScenarioParser.parse(text, file: path)
            if let iterationCost { script.scenario.iterationCost = iterationCost }
            return .success(script)
        } catch {
            return .failure(.invalid(error))
        }
    }

    /// Loads `path` for a command that goes through many files: on failure prints `ERROR path` and the
    /// diagnostics, and returns nil so the command can go on with the next file.
    static func loadReporting(_ path: String, iterationCost: Duration? = nil) -> LoopScript? {
        switch load(path, iterationCost: iterationCost) {
        case .success(let script):
            return script
        case .failure(let failure):
            print("ERROR \(path)")
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
