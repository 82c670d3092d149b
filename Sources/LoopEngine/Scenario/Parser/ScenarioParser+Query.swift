/// The `query` action: `query QUESTION`, where QUESTION is one of
///
///     currentMode | limitDate MODE | nextTimerFireDate MODE | isWaiting | contains ITEM in MODE
///     | isValid ITEM | nextFireDate TIMER | allModes | interval TIMER | tolerance TIMER | repeats TIMER
///
/// An item may be a range (`query isValid t1..3` asks once per timer).
extension ScenarioParserState {
    /// A `query` action (after the keyword): one question per item its range names.
    func parseQueryAction(_ cursor: inout TokenCursor, _ line: ScenarioLine, thread: String) -> [Action] {
        let questions = parseQuestion(&cursor, line) { cursor, allowed, what in
            self.references(&cursor, line, thread: thread, allowed: allowed, what: what)
        }
        return (questions ?? []).map { .query($0) }
    }

    /// A question (after `query`); `names` reads the item it names (a range gives several, one question each).
    func parseQuestion(
        _ cursor: inout TokenCursor, _ line: ScenarioLine,
        names: (inout TokenCursor, Set<ItemClass>, Expected) -> [String]?
    ) -> [LoopQuery]? {
        guard let word = cursor.peek, word.isWord, LoopQuery.questionWords.contains(word.text) else {
            error(line, at: cursor.peek, .queryUnknownQuestion)
            return nil
        }
        _ = cursor.next()
        let anyItem: Set<ItemClass> = [.source0, .port, .timer, .observer]
        switch word.text {
        case "currentMode": return [.currentMode]
        case "isWaiting": return [.isWaiting]
        case "allModes": return [.allModes]
        case "limitDate", "nextTimerFireDate":
            // Foundation runs no `kCFRunLoopCommonModes` (CF refuses to), so it has no limit date either.
            guard let mode = expectMode(&cursor, line, allowCommon: false) else { return nil }
            return [word.text == "limitDate" ? .limitDate(mode) : .nextTimerFireDate(mode)]
        case "contains":
            guard let items = names(&cursor, anyItem, .item) else { return nil }
            guard cursor.accept("in") else {
                error(line, at: cursor.peek, .queryContainsWithoutIn)
                return nil
            }
            guard let mode = expectMode(&cursor, line, allowCommon: true) else { return nil }
            return items.map { .contains(item: $0, mode: mode) }
        case "isValid":
            return names(&cursor, anyItem, .item)?.map { .isValid(item: $0) }
        case "interval":
            return names(&cursor, [.timer], .timer)?.map { .interval(timer: $0) }
        case "tolerance":
            return names(&cursor, [.timer], .timer)?.map { .tolerance(timer: $0) }
        case "repeats":
            return names(&cursor, [.timer], .timer)?.map { .repeats(timer: $0) }
        default:
            return names(&cursor, [.timer], .timer)?.map { .nextFireDate(timer: $0) }
        }
    }
}
