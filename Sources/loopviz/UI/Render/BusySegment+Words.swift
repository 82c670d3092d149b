import LoopEngine

extension BusySegment {
    /// The words for a hang the cursor is in: `hang 0.300s (afterWaiting → beforeWaiting), marks: tick 5, decode
    /// image`. Made here only, from the segment's facts; each mark's name once, in order, terminal-safe, the first
    /// ``wordedMarks`` of them.
    func words(arrow: String) -> String {
        let ended = endedBy.map(\.rawValue) ?? "the end of the trace"
        var text = "\(HangReport.word(severity)) \(LoopEvent.seconds(length)) (\(startedBy.rawValue) \(arrow) \(ended))"
        var names: [String] = []
        for mark in marks {
            let name = TerminalSafeText.terminalSafe(mark.name ?? "")
            guard !name.isEmpty, !names.contains(name) else { continue }
            guard names.count < Self.wordedMarks else {
                names.append("more")
                break
            }
            names.append(name)
        }
        text += names.isEmpty ? ", no marks" : ", marks: " + names.joined(separator: ", ")
        return text
    }

    /// The most mark names a hang's words list (a loop of marks stays one sentence).
    static let wordedMarks = 5
}
