/// The parser: `perform TASK [target T] afterDelay D [in M, …]` (`performSelector:withObject:afterDelay:[inModes:]`
/// on the thread's own loop), `cancelPrevious TASK [target T]` and `cancelPrevious target T`
/// (`cancelPreviousPerformRequestsWithTarget:[selector:object:]`).
extension ScenarioParserState {
    /// The rest of `perform TASK [target T] afterDelay`: the delay, the modes (default when none) and the task's
    /// actions.
    func parseDelayedPerform(
        _ task: ScenarioToken, target: String, keyword: ScenarioToken, _ cursor: inout TokenCursor, _ node: Node,
        thread: String, context: Context
    ) -> [Action] {
        let line = node.line
        guard let delay = expectDuration(&cursor, what: .performDelay)
        else { return [] }
        var modes: [ModeName] = [.default]
        if cursor.accept("in") { modes = parseModeList(&cursor, line, allowCommon: true) }
        if context == .outside { error(line, at: keyword, .delayedPerformFromOutside) }
        let body = parseActions(node.children, thread: thread, context: .callout(isMain: context.isMain))
        return [.performDelayed(task: task.text, target: target, delay: delay, modes: modes, body)]
    }

    /// `cancelPrevious target T` (every delayed perform of T) and `cancelPrevious TASK [target T]` (those of TASK,
    /// which stands for selector and argument together).
    func parseCancelPrevious(
        _ keyword: ScenarioToken, _ cursor: inout TokenCursor, _ line: ScenarioLine, context: Context
    ) -> [Action] {
        var task: String?
        if let next = cursor.peek, !next.isWord("target") {
            guard let name = expectWord(&cursor, what: .cancelledPreviousTask) else {
                return []
            }
            task = name.text
        } else if cursor.peek == nil {
            _ = expectWord(&cursor, what: .cancelPreviousSubject)
            return []
        }
        var target = Self.defaultPerformTarget
        if cursor.accept("target") {
            guard let name = expectWord(&cursor, what: .targetName) else { return [] }
            target = name.text
        }
        if context == .outside { error(line, at: keyword, .cancelPreviousFromOutside) }
        return [.cancelDelayedPerforms(task: task, target: target)]
    }
}
