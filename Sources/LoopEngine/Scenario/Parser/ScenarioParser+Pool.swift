/// The thread-pool part of the `.loop` language: `queue` declarations, the operation-queue actions, `detach`,
/// and the checks that need the whole file (every queue and operation known).
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
        if let kind = spec.dispatch {
            for clause in ["limit", "suspended"] where seen.contains(clause) {
                error(line, at: nameToken, DispatchDiagnostic.clauseWithDispatch(clause))
            }
            spec.limit = kind == .serial ? 1 : nil
            spec.suspended = false
        }
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

    /// `operation NAME on QUEUE [priority P] [after A, B, …] (work DURATION [check every DURATION] | async [reply
    /// after DURATION])`. `after` may name operations of any queue, declared anywhere in the file.
    func parseOperation(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> [Action] {
        guard let nameToken = expectWord(&cursor, what: .operationName) else { return [] }
        guard let names = expandRange(nameToken, line) else { return [] }
        if nameToken.text == "all" {
            error(line, at: nameToken, .operationNamedAll)
        }
        guard cursor.accept("on") else {
            error(line, at: cursor.peek, .operationWithoutOn(nameToken.text))
            return []
        }
        let queueColumn = cursor.peek?.column ?? nameToken.column
        guard let queue = queueReference(&cursor, line, what: .queueToAddTo) else { return [] }
        queueActionUses.append((queue, .operation, line, queueColumn))
        var priority = QueuePriority.normal
        var dependencies: [(name: String, column: Int)] = []
        var body: OperationSpec.Body?
        var replyAfter: Duration?
        var seen: Set<String> = []
        while let clause = cursor.next() {
            guard clause.isWord, ScenarioKeywords.operationClauses.contains(clause.text) else {
                let problem: ScenarioProblem =
                    clause.isWord("check")
                    ? .checkOutOfPlace
                    : clause.isWord("reply") ? .replyOutOfPlace : .unexpectedOperationClause(clause.text)
                error(line, at: clause, problem)
                break
            }
            if !seen.insert(clause.text).inserted {
                error(line, at: clause, .givenTwice(clause.text))
                break
            }
            switch clause.text {
            case "priority":
                guard let word = expectWord(&cursor, what: .priority) else {
                    break
                }
                guard let value = QueuePriority.allCases.first(where: { $0.description == word.text }) else {
                    error(line, at: word, .unknownPriority(word.text))
                    break
                }
                priority = value
            case "after":
                repeat {
                    guard let word = expectWord(&cursor, what: .dependency) else { break }
                    for name in expandRange(word, line) ?? [] { dependencies.append((name, word.column)) }
                } while cursor.acceptPunctuation(",")
            case "work", "async":
                if seen.contains("work") && seen.contains("async") {
                    error(line, at: clause, .workAndAsync)
                    break
                }
                if clause.text == "work" {
                    body = parseWork(&cursor, line)
                } else {
                    body = .async
                    if cursor.accept("reply") {
                        guard cursor.accept("after") else {
                            error(line, at: cursor.peek, .replyWithoutAfter)
                            break
                        }
                        replyAfter = expectDuration(&cursor, what: .replyDelay)
                    }
                }
            default:
                break
            }
        }
        if body == nil && seen.isDisjoint(with: ["work", "async"]) {
            error(line, at: nameToken, .operationWithoutBody(nameToken.text))
        }
        var isAsync = false
        if case .async = body { isAsync = true }
        for name in names {
            for dependency in dependencies {
                operationUses.append(
                    OperationReference(
                        name: dependency.name, use: .after(dependent: name), line: line, column: dependency.column))
            }
            if let first = operationDefinitions[name] {
                error(line, at: nameToken, .duplicateOperation(name, firstLine: first.line.number))
                break
            }
            operationDefinitions[name] = OperationDefinition(
                queue: queue, isAsync: isAsync, dependencies: dependencies.map(\.name), line: line,
                column: nameToken.column)
            operationOrder.append(name)
        }
        guard let body else { return [] }
        return names.map { name in
            .addOperation(
                queue: queue,
                OperationSpec(
                    name: name, priority: priority, dependencies: dependencies.map(\.name), body: body,
                    replyAfter: replyAfter))
        }
    }

    /// `work DURATION [check every DURATION]`, after `work`.
    func parseWork(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> OperationSpec.Body? {
        guard let duration = expectDuration(&cursor, what: .operationWork) else {
            return nil
        }
        guard cursor.accept("check") else { return .work(duration, checkEvery: nil) }
        guard cursor.accept("every") else {
            error(line, at: cursor.peek, .checkWithoutEvery)
            return nil
        }
        guard let every = expectDuration(&cursor, what: .checkInterval) else {
            return nil
        }
        if every <= .zero {
            error(line, at: cursor.last, .checkIntervalNotPositive)
            return nil
        }
        return .work(duration, checkEvery: every)
    }

    /// The names a word stands for: itself, or the names of a range `PREFIX FIRST..LAST` (`upload1..10` is
    /// upload1 … upload10; a first number with a leading zero, `f01..12`, keeps its width).
    func expandRange(_ token: ScenarioToken, _ line: ScenarioLine) -> [String]? {
        let text = token.text
        guard let dots = text.firstRange(of: "..") else { return [text] }
        let left = text[..<dots.lowerBound]
        let right = text[dots.upperBound...]
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        let firstDigits = String(left.reversed().prefix(while: isDigit).reversed())
        let prefix = left.dropLast(firstDigits.count)
        guard !firstDigits.isEmpty, firstDigits.count <= 9, !right.isEmpty, right.count <= 9, right.allSatisfy(isDigit),
            let first = Int(firstDigits), let last = Int(right)
        else {
            error(line, at: token, .badRange(text))
            return nil
        }
        guard last >= first else {
            error(line, at: token, .rangeEndsFirst(text, first: first))
            return nil
        }
        guard last - first < Self.maxRange else {
            error(line, at: token, .rangeTooLong(text, count: last - first + 1, limit: Self.maxRange))
            return nil
        }
        guard expandedNames + (last - first + 1) <= Self.maxExpandedNames else {
            error(line, at: token, .tooManyRangeNames(limit: Self.maxExpandedNames))
            return nil
        }
        expandedNames += last - first + 1
        let width = firstDigits.first == "0" ? firstDigits.count : 0
        return (first...last).map { number in
            let digits = String(number)
            return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }

    static let maxRange = 1000
    /// The names all the ranges of one file may stand for together (definitions and uses): a file of ranges
    /// cannot make the parser build a billion names.
    static let maxExpandedNames = 100_000

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

    // MARK: - Validation

    /// Checks queue and operation names once the whole file is read.
    func validatePool() {
        for (name, line, column) in queueNameTokens where threadNameSet.contains(name) {
            error(line, column, .queueNamedLikeThread(name))
        }
        for (name, line, column) in queueUses where queueLines[name] == nil {
            error(line, column, .unknownQueue(name, known: queues.map(\.name)))
        }
        var reported: Set<Int> = []
        for use in operationUses {
            guard let definition = operationDefinitions[use.name] else {
                // One complaint per word: a range names many operations at one column.
                guard reported.insert(use.line.number * 100_000 + use.column).inserted else { continue }
                error(use.line, use.column, .unknownOperation(use.name, known: operationOrder))
                continue
            }
            switch use.use {
            case .finish where definition.submission != nil:
                break  // validateDispatch says why.
            case .finish where !definition.isAsync:
                error(use.line, use.column, .finishNotAsync(use.name))
            default:
                // `after` may name an operation of any queue (Foundation's addDependency across queues); a cycle,
                // within a queue or across queues, is reported below.
                break
            }
        }
        reportDependencyCycles()
        validateDispatch()
    }

    /// Operations that wait for each other (or for themselves) could never start: Foundation would wait forever
    /// (a `waitUntilAllOperationsAreFinished` on their queues hangs). Dependencies are followed across queues.
    func reportDependencyCycles() {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var path: [String] = []
        func visit(_ name: String) {
            marks[name] = .visiting
            path.append(name)
            for dependency in operationDefinitions[name]?.dependencies ?? [] {
                guard operationDefinitions[dependency] != nil else { continue }
                switch marks[dependency] {
                case .visiting:
                    let cycle = path[path.lastIndex(of: dependency)!...] + [dependency]
                    let use = operationUses.first {
                        if case .after(let dependent) = $0.use { return dependent == name && $0.name == dependency }
                        return false
                    }
                    if let use, dependency == name {
                        error(use.line, use.column, .waitsForItself(name))
                    } else if let use {
                        error(use.line, use.column, .dependencyCycle(Array(cycle)))
                    }
                case .done:
                    continue
                case nil:
                    visit(dependency)
                }
            }
            path.removeLast()
            marks[name] = .done
        }
        for name in operationOrder where marks[name] == nil { visit(name) }
    }

    /// Whether an `expect` line may name `thread`: a thread, a queue (its events), a queue's worker (`uploads.1`)
    /// or a detached thread.
    func isTraceThread(_ name: String) -> Bool {
        if threadNameSet.contains(name) || queueLines[name] != nil || detachedTasks.contains(name) { return true }
        guard let dot = name.lastIndex(of: ".") else { return false }
        let number = name[name.index(after: dot)...]
        return queueLines[String(name[..<dot])] != nil && !number.isEmpty
            && number.allSatisfy { $0.isASCII && $0.isNumber }
            && number.first != "0"
    }

    /// The names an `expect` line may give as its thread, for a hint.
    func traceThreadNames() -> [String] {
        var names = threadNames
        for queue in queues { names += [queue.name, queue.name + ".N"] }
        names += detachedTasks.sorted()
        return names
    }
}
