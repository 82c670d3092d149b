/// Collects a file's diagnostics with bounded memory: keeps the ``ScenarioDiagnostics/shownLimit`` first by
/// position and counts the rest. A diagnostic that would not be kept costs O(1) and its problem (and message) is
/// never built.
struct DiagnosticCollector {
    private(set) var kept: [ScenarioDiagnostic] = []
    private(set) var total = 0
    /// The index in `kept` of the diagnostic furthest down the file, replaced first when an earlier one comes.
    private var lastIndex = 0

    var isEmpty: Bool { total == 0 }

    mutating func add(
        file: String, line: Int, column: Int, problem: () -> ScenarioProblem, sourceLine: @autoclosure () -> String
    ) {
        total += 1
        let limit = ScenarioDiagnostics.shownLimit
        if kept.count == limit {
            let last = kept[lastIndex]
            // Ties keep the one found first.
            guard (line, column) < (last.line, last.column) else { return }
        }
        let diagnostic = ScenarioDiagnostic(
            file: file, line: line, column: column, problem: problem(), sourceLine: sourceLine())
        if kept.count < limit {
            kept.append(diagnostic)
        } else {
            kept[lastIndex] = diagnostic
        }
        lastIndex = kept.indices.max { (kept[$0].line, kept[$0].column) < (kept[$1].line, kept[$1].column) } ?? 0
    }

    /// Counts a diagnostic known to come after every kept one (a scan that goes down the file, once full).
    mutating func countUnshown() {
        total += 1
    }

    /// The kept diagnostics in line order, with the total.
    var sorted: ScenarioDiagnostics {
        ScenarioDiagnostics(kept.sorted { ($0.line, $0.column) < ($1.line, $1.column) }, total: total)
    }
}
