extension ScenarioParserState {
    /// `await yield` or `await sleep D`, allowed only as a line of a `mainactor` body itself: there the interpreter
    /// cuts the task into main-queue jobs (`MainActorTaskPart`).
    func parseAwait(_ cursor: inout TokenCursor, _ line: ScenarioLine, _ keyword: ScenarioToken) -> [Action] {
        guard taskBodyLines.contains(line.number) else {
            error(line, at: keyword, .awaitOutsideTask)
            return []
        }
        if cursor.accept("yield") { return [.await(.yield)] }
        guard cursor.accept("sleep") else {
            error(line, at: cursor.peek, .awaitWithoutWhat)
            return []
        }
        guard let duration = expectDuration(&cursor, what: .sleepDuration) else { return [] }
        return [.await(.sleep(duration))]
    }
}
