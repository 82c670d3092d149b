import LoopEngine

extension TimelineHangs {
    var isEmpty: Bool { byLoop.isEmpty }
}

/// The columns of `loop`'s timeline lane inside a hang, as far as the steps shown reach (a hang not yet begun at
/// the cursor is not drawn).
func hangColumns(
    _ model: AppModel, _ loop: String, start: Int64, bucket: Int64, columns: Int
) -> [ClosedRange<Int>] {
    guard model.cursor > 0 else { return [] }
    let shown = model.now
    let hangs = model.session.hangs.hangs(on: loop, from: LoopInstant(nanoseconds: start), to: shown)
    return hangs.compactMap { hang in
        guard hang.startIndex < model.cursor else { return nil }
        let from = max(0, Int((hang.start.nanoseconds - start) / bucket))
        let to = min(columns - 1, Int((min(hang.end, shown).nanoseconds - start) / bucket))
        return from <= to ? from...to : nil
    }
}

/// The Why pane's first words when the step explained lies in a hang: the hang's words (``BusySegment/words(arrow:)``),
/// its hottest frame when the recording has stack samples, and a full stop; empty otherwise.
func hangWords(_ model: AppModel, explaining index: Int?) -> String {
    guard let index, index < model.trace.count,
        let hang = model.session.hangs.hang(containing: index, on: model.trace[index].loop)
    else { return "" }
    var words = hang.words(arrow: Glyphs(theme: model.theme).rightArrow)
    if let summary = model.session.hangs.stacks[hang.loop]?[hang.startIndex], let hottest = summary.hottest.first {
        let frame = TerminalSafeText.terminalSafe(hottest.frame.words)
        words += ", hottest frame: \(frame) (\(hottest.samples) of \(LoopEvent.count(summary.samples, "stack sample")))"
    }
    return words + ". "
}
