/// The problems of an open file, as an editor underlines them: the parser's errors, or, when it parses, the
/// lint's warnings (the same `ScenarioDiagnostic`s `loopviz check` prints), each over the token it points at.
extension LoopDocument {
    /// One problem with its range.
    package struct Problem: Equatable, Sendable {
        package var range: Range
        package var isWarning: Bool
        package var message: String
    }

    /// The largest file analysed: as large as any command reads (`loopviz check` refuses a larger one).
    package static let maxBytes = 4 << 20

    /// The file's problems, the first `ScenarioDiagnostics/shownLimit` of each kind (as `check` shows them).
    package func problems() -> [Problem] {
        guard text.utf8.count <= Self.maxBytes else {
            let start = Position(line: 0, character: 0)
            return [
                Problem(
                    range: Range(start: start, end: start), isWarning: false,
                    message: "larger than \(Self.maxBytes >> 20) MiB; a scenario file is at most \(Self.maxBytes) bytes"
                )
            ]
        }
        let diagnostics: [ScenarioDiagnostic]
        do {
            diagnostics = try ScenarioParser.parse(text, file: fileName).warnings
        } catch {
            diagnostics = error.diagnostics
        }
        return diagnostics.map { diagnostic in
            Problem(
                range: tokenRange(line: diagnostic.line, column: diagnostic.column),
                isWarning: diagnostic.isWarning, message: diagnostic.message)
        }
    }
}
