/// The thread-pool part of the `.loop` language: `queue` declarations, the operation-queue actions and `detach`.
/// Operation lines are read in ScenarioParser+Operations.swift, dispatch queues in ScenarioParser+Dispatch.swift,
/// and the checks that need the whole file are in ScenarioParser+PoolValidation.swift.
extension ScenarioParserState {
    /// An operation added somewhere in the file (`operation NAME on QUEUE …`), one per name of a range.
    struct OperationDefinition {
        var queue: String
        var isAsync: Bool
        var dependencies: [String]
        var line: ScenarioLine
        var column: Int
        /// A block or work item submitted to a dispatch queue (`async`), not an operation.
        var submission: DispatchSubmission.Kind? = nil
    }

    /// An operation name used by `after`, `cancel` or `finish`, checked once every operation is known.
    struct OperationReference {
        enum Use {
            /// `after NAME` of the operation `dependent`.
            case after(dependent: String)
            case cancel
            case finish
        }

        var name: String
        var use: Use
        var line: ScenarioLine
        var column: Int
    }

    // MARK: - Declarations

    /// `queue NAME [limit N|default] [suspended] [idle DURATION]`.
    func parseQueue(_ node: Node) {
        var cursor = TokenCursor(node.line)
        _ = cursor.next()
        let line = node.line
        guard let nameToken = expectWord(&cursor, what: .queueName) else { return }
        var spec = QueueSpec(name: nameToken.text)
        var seen: Set<String> = []
        while let clause = cursor.next() {
            guard clause.isWord, ScenarioKeywords.queueClauses.contains(clause.text) else {
                error(line, at: clause, .unexpectedQueueClause(clause.text))
                break
            }
            if !seen.insert(clause.text).inserted { error(line, at: clause, .givenTwice(clause.text)) }
            switch clause.text {
            case "limit":
                if let limit = parseLimit(&cursor, line) { spec.limit = limit }
            case "suspended":
                spec.suspended = true
            case "dispatch":
                spec.dispatch = parseDispatchKind(&cursor)
            default:
                if let idle = expectDuration(&cursor, what: .idleLifetime) {
                    spec.idleTimeout = idle
                }
            }
        }
        rejectChildren(node, of: "queue")
        if let kind = spec.dispatch { makeDispatchQueue(&spec, kind, clauses: seen, at: nameToken, line) }
        if let first = queueLines[spec.name] {
            error(line, at: nameToken, .duplicateQueue(spec.name, firstLine: first))
            return
        }
        queueLines[spec.name] = line.number
        queueNameTokens.append((spec.name, line, nameToken.column))
        queues.append(spec)
    }

    /// `N` (a positive integer) or `default`; `.some(nil)` is `default`, nil an error.
    func parseLimit(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Int?? {
        if cursor.accept("default") { return .some(nil) }
        // 0 is Foundation's too: the queue starts nothing until the limit is raised.
        if let value = cursor.peekInteger, value >= 0 {
            _ = cursor.next()
            return .some(value)
        }
        error(line, at: cursor.peek, .badLimit(found: cursor.peek?.text))
        // The bad value is this error's: it is not read again as the next clause.
        _ = cursor.next()
        return nil
    }

    // MARK: - Actions

    /// The actions of the pool model; `keyword` is one of ``ScenarioKeywords/poolActions``.
    func parsePoolAction(
        _ keyword: ScenarioToken, _ cursor: inout TokenCursor, _ node: Node, thread: String, context: Context
    ) -> [Action] {
        let line = node.line
        switch keyword.text {
        case "operation":
            return parseOperation(&cursor, line)
        case "async":
            return parseAsync(&cursor, line)
        case "cancel":
            if cursor.accept("all") {
                guard cursor.accept("on") else {
                    error(line, at: cursor.peek, .cancelAllWithoutOn)
                    return []
                }
                let at = cursor.peek?.column ?? keyword.column
                guard let queue = queueReference(&cursor, line, what: .queueToCancel) else {
                    return []
                }
                queueActionUses.append((queue, .queueAction("cancel all"), line, at))
                return [.cancelAll(queue: queue)]
            }
            let names = operationReferences(&cursor, line, use: .cancel, what: .operationToCancel)
            return names.map { .cancelOperation($0) }
        case "finish":
            let names = operationReferences(&cursor, line, use: .finish, what: .operationToFinish)
            return names.map { .finishOperation($0) }
        case "suspend", "resume":
            let at = cursor.peek?.column ?? keyword.column
            let what: Expected = keyword.text == "suspend" ? .queueToSuspend : .queueToResume
            guard let queue = queueReference(&cursor, line, what: what) else { return [] }
            queueActionUses.append((queue, .queueAction(keyword.text), line, at))
            return [.setSuspended(queue: queue, keyword.text == "suspend")]
        case "limit":
            let at = cursor.peek?.column ?? keyword.column
            guard let queue = queueReference(&cursor, line, what: .queueToLimit) else { return [] }
            queueActionUses.append((queue, .queueAction("limit"), line, at))
            guard let limit = parseLimit(&cursor, line) else { return [] }
            return [.setLimit(queue: queue, limit)]
        case "wait":
            guard cursor.accept("for") else {
                error(line, at: cursor.peek, .waitWithoutFor)
                return []
            }
            let at = cursor.peek?.column ?? keyword.column
            guard let queue = queueReference(&cursor, line, what: .queueToWaitFor) else { return [] }
            queueActionUses.append((queue, .queueAction("wait for"), line, at))
            return [.waitUntilAllFinished(queue: queue)]
        default:
            guard let task = expectWord(&cursor, what: .detachedTask) else { return [] }
            detachedTasks.insert(task.text)
            // The body is the new thread's whole program; item names resolve on the thread that detaches it.
            let body = parseActions(node.children, thread: thread, context: .program(isMain: false))
            return [.detach(task: task.text, body)]
        }
    }

    func queueReference(_ cursor: inout TokenCursor, _ line: ScenarioLine, what: Expected) -> String? {
        guard let token = expectWord(&cursor, what: what) else { return nil }
        queueUses.append((token.text, line, token.column))
        return token.text
    }

    func operationReferences(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, use: OperationReference.Use, what: Expected
    ) -> [String] {
        guard let token = expectWord(&cursor, what: what), let names = expandRange(token, line) else { return [] }
        for name in names {
            operationUses.append(OperationReference(name: name, use: use, line: line, column: token.column))
        }
        return names
    }
}
