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
        latest(lines, shownUpTo: cursor, in: language)?.text
    }

    /// ``text(_:shownUpTo:in:)`` with the index (in the full trace) of the event its line is tied to.
    func latest(_ lines: [Narration], shownUpTo cursor: Int, in language: Language = .en) -> (index: Int, text: String)?
    {
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
        return best.map { ($0.index, lines[$0.line].text) }
    }
}

extension Session {
    /// The narration shown when the first `cursor` events of the trace are on screen: the latest `say` of either
    /// kind - a line tied to an event, or a program's `say` (a note in the trace), which stays until the next
    /// `say`, so a line about a phase that has ended (a scroll, a nested run) does not come back after it.
    func narration(shownUpTo cursor: Int, in language: Language = .en) -> String? {
        let anchored = narrationAnchors.latest(script.narration, shownUpTo: cursor + forgottenEvents, in: language)
        let after = anchored.map { $0.index - forgottenEvents } ?? -1
        if let note = latestSay(before: min(cursor, trace.count), after: after) {
            return script.note(note, in: language)
        }
        return anchored?.text
    }

    /// The words of the latest program `say` among events `after+1 ..< end`, looking back at most
    /// `CycleSteps.lookBack` events (a frame looks only near the cursor).
    private func latestSay(before end: Int, after start: Int) -> String? {
        var position = end - 1
        while position > start && end - position <= CycleSteps.lookBack {
            if case .note(.say(let text)) = trace[position].fact { return text }
            position -= 1
        }
        return nil
    }
}
