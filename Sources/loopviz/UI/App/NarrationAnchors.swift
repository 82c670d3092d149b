import LoopEngine

/// Where each `say` line of a lesson is tied to the trace: the event its anchor names, found once as the trace is
/// made (or, live, as it grows), so that a frame only compares a few numbers with the cursor.
struct NarrationAnchors: Equatable {
    /// Per line of the script: the index in the full trace (forgotten events counted) of its event, once found.
    private(set) var indices: [Int?]
    /// How many events of the full trace have been looked at.
    private var scanned = 0

    init(lines: Int = 0) {
        indices = Array(repeating: nil, count: lines)
    }

    /// Looks at the events of `trace` not seen yet; `forgotten` events came before its first one.
    mutating func advance(_ lines: [Narration], in trace: LoopTrace, forgotten: Int) {
        if indices.count != lines.count { self = NarrationAnchors(lines: lines.count) }
        var open = indices.indices.filter { indices[$0] == nil }
        var position = max(scanned, forgotten)
        let end = forgotten + trace.count
        while position < end && !open.isEmpty {
            let event = trace[position - forgotten]
            open.removeAll { line in
                guard lines[line].anchor.matches(event, at: position) else { return false }
                indices[line] = position
                return true
            }
            position += 1
        }
        scanned = open.isEmpty ? end : position
    }

    /// The text of the line shown when the first `cursor` events of the full trace are on screen, in `language`:
    /// the one whose event came last among those shown (the later line when two share an event). A line of
    /// `language` replaces the English lines tied to the same event; an English line with none on its event is
    /// shown as it is (the fallback); lines of other languages are never shown.
    func text(_ lines: [Narration], shownUpTo cursor: Int, in language: Language = .en) -> String? {
        let translated = Set(
            indices.enumerated().compactMap { line, index in
                language != .en && lines[line].language == language ? index : nil
            })
        var best: (index: Int, line: Int)?
        for (line, index) in indices.enumerated() {
            guard let index, index < cursor, best.map({ index >= $0.index }) ?? true else { continue }
            let ownLanguage = lines[line].language
            guard ownLanguage == language || (ownLanguage == .en && !translated.contains(index)) else { continue }
            best = (index, line)
        }
        return best.map { lines[$0.line].text }
    }
}

extension Session {
    /// The narration shown when the first `cursor` events of the trace are on screen.
    func narration(shownUpTo cursor: Int, in language: Language = .en) -> String? {
        narrationAnchors.text(script.narration, shownUpTo: cursor + forgottenEvents, in: language)
    }
}
