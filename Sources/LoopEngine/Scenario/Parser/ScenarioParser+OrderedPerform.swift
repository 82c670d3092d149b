/// The parser: `perform TASK [target T] order N [in M, …]` (`performSelector:target:argument:order:modes:` on the
/// thread's own loop), `cancelPerform TASK [target T]` and `cancelPerforms target T`.
extension ScenarioParserState {
    /// The target a request names when it names none.
    static let defaultPerformTarget = "self"

    /// The words of this file's diagnostics, each in one place.
    /// This file's diagnostics (worded in ScenarioProblem+Wording.swift).
    enum OrderedPerformProblem {
        static let expectedOrder = ScenarioProblem.performWithoutOrderOrDelay
        static let negativeOrder = ScenarioProblem.negativeOrder
        static let fromOutside = ScenarioProblem.orderedPerformFromOutside
        static let expectedTarget = ScenarioProblem.cancelPerformsWithoutTarget
    }

    /// The rest of `perform TASK` when a `target`, `order` or `afterDelay` clause follows the task's name.
    func parseOrderedPerform(
        _ task: ScenarioToken, keyword: ScenarioToken, _ cursor: inout TokenCursor, _ node: Node, thread: String,
        context: Context
    ) -> [Action] {
        let line = node.line
        var target = Self.defaultPerformTarget
        if cursor.accept("target") {
            guard let name = expectWord(&cursor, what: .targetName) else { return [] }
            target = name.text
        }
        if cursor.accept("afterDelay") {
            return parseDelayedPerform(
                task, target: target, keyword: keyword, &cursor, node, thread: thread, context: context)
        }
        guard cursor.accept("order") else {
            error(line, at: cursor.peek, OrderedPerformProblem.expectedOrder)
            return []
        }
        guard let order = expectInteger(&cursor, line, what: .performOrder) else { return [] }
        if order < 0 { error(line, at: cursor.last, OrderedPerformProblem.negativeOrder) }
        var modes: [ModeName] = [.default]
        if cursor.accept("in") { modes = parseModeList(&cursor, line, allowCommon: true) }
        if context == .outside { error(line, at: keyword, OrderedPerformProblem.fromOutside) }
        let body = parseActions(node.children, thread: thread, context: .callout(isMain: context.isMain))
        return [.performOrdered(task: task.text, target: target, order: order, modes: modes, body)]
    }

    /// `cancelPerform TASK [target T]` and `cancelPerforms target T`.
    func parseCancelPerform(_ keyword: ScenarioToken, _ cursor: inout TokenCursor, _ line: ScenarioLine) -> [Action] {
        var task: String?
        if keyword.text == "cancelPerform" {
            guard let name = expectWord(&cursor, what: .cancelledPerformTask) else {
                return []
            }
            task = name.text
        }
        var target = Self.defaultPerformTarget
        if cursor.accept("target") {
            guard let name = expectWord(&cursor, what: .targetName) else { return [] }
            target = name.text
        } else if task == nil {
            error(line, at: cursor.peek, OrderedPerformProblem.expectedTarget)
            return []
        }
        return [.cancelPerforms(task: task, target: target)]
    }
}
