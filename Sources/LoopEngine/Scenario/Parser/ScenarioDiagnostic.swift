/// One problem found in a `.loop` file, with its position. Rendered the way compilers do:
///
///     lessons/timer.loop:7:14: error: unknown source 'tuch' (known: touch, tick)
///       signal tuch
///              ^
public struct ScenarioDiagnostic: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line and column (column counts characters).
    public var line: Int
    public var column: Int
    public var message: String
    /// The text of the offending line, for the excerpt.
    public var sourceLine: String

    public init(file: String, line: Int, column: Int, message: String, sourceLine: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.sourceLine = sourceLine
    }

    public var description: String {
        let shown = String(sourceLine.map { $0.isASCII && ($0.asciiValue! < 32 || $0.asciiValue! == 127) ? " " : $0 })
        let caret = String(repeating: " ", count: max(0, column - 1)) + "^"
        return "\(file):\(line):\(column): error: \(message)\n  \(shown)\n  \(caret)"
    }
}

/// Every problem of one file; parsing reports them all, not just the first.
public struct ScenarioDiagnostics: Error, Equatable, Sendable, CustomStringConvertible {
    public var diagnostics: [ScenarioDiagnostic]

    public init(_ diagnostics: [ScenarioDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        let count = diagnostics.count
        return diagnostics.map(\.description).joined(separator: "\n")
            + "\n\(count) error\(count == 1 ? "" : "s") generated."
    }
}
