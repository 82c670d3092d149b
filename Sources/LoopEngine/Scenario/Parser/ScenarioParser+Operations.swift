/// Operations of the thread pool: the `operation NAME on QUEUE …` action and its `work` clause.
extension ScenarioParserState {
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
}
