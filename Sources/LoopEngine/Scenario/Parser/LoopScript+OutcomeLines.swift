/// The lesson rule that keeps narration honest: a `say` line that tells an outcome of the loop - a result, a run's
/// return, a stop, a fire, a wake - rests on a claim (`claims …` under it), so `loopviz check` checks what it tells. The lessons'
/// tests apply it to every lesson and to the built-in one.
extension LoopScript {
    /// The words (any case) by which a line tells an outcome: the results' names and the forms of stop, fire, wake
    /// and return. A word is a run of letters and digits, so `stopThread`, `CFRunLoopStop` and `wakeup` are none.
    package static let outcomeWords: Set<String> = Set(
        RunResult.allCases.map { $0.description.lowercased() }
            + ["stop", "stops", "fire", "fires", "fired", "wake", "wakes", "woke", "return", "returns", "returned"])

    /// True when `text` has one of the `outcomeWords`.
    package static func tellsAnOutcome(_ text: String) -> Bool {
        text.split { !$0.isLetter && !$0.isNumber }.contains { outcomeWords.contains($0.lowercased()) }
    }

    /// The English `say` lines - top-level and actions - that tell an outcome but rest on no claim, in file
    /// order of kind (top-level lines first).
    package var unclaimedOutcomeLines: [String] {
        let claimed = Set(sayClaims.map(\.text))
        var lines = narration.filter { $0.language == .en }.map(\.text)
        for list in scenario.actionLists() {
            Action.forEach(in: list) { action in
                if case .note(let text) = action { lines.append(text) }
            }
        }
        return lines.filter { Self.tellsAnOutcome($0) && !claimed.contains($0) }
    }
}
