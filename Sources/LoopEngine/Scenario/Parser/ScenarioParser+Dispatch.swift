/// Dispatch queues in the `.loop` language: the `dispatch` clause of a `queue`, the `async` action, and the checks
/// that keep what GCD cannot do out of a scenario - above all, cancelling a plain block. `dispatch_async` returns
/// nothing, so a program that cancels its block cannot be written; the parser says so where the `cancel` is, as
/// the compiler would, rather than letting a run pretend something happened.
extension ScenarioParserState {
    /// What an action did with a queue, for the checks that need to know which queues are dispatch queues.
    enum QueueUse {
        /// `operation … on Q`.
        case operation
        /// `async … on Q`.
        case async
        /// `suspend`, `resume`, `limit`, `wait for` or `cancel all on`: the action's words.
        case queueAction(String)
    }

    /// The words of each diagnostic about dispatch queues, in one place.
    enum DispatchDiagnostic {
        static func cancelOfBlock(_ name: String, queue: String) -> ScenarioProblem {
            .cancelOfBlock(name, queue: queue)
        }
        static func operationOnDispatchQueue(_ queue: String) -> ScenarioProblem { .operationOnDispatchQueue(queue) }
        static func asyncOnOperationQueue(_ queue: String) -> ScenarioProblem { .asyncOnOperationQueue(queue) }
        static func notForDispatchQueue(_ words: String, queue: String) -> ScenarioProblem {
            .notForDispatchQueue(words, queue: queue)
        }
        static func clauseWithDispatch(_ clause: String) -> ScenarioProblem { .clauseWithDispatch(clause) }
        static func finishOfBlock(_ name: String) -> ScenarioProblem { .finishOfBlock(name) }
        static let needsWork = ScenarioProblem.asyncWithoutWork
    }

    /// `dispatch [serial|concurrent]`, after `dispatch` in a `queue` line (serial when neither is given, as
    /// `DispatchQueue(label:)` is).
    func parseDispatchKind(_ cursor: inout TokenCursor) -> DispatchQueueKind {
        if cursor.accept("concurrent") { return .concurrent }
        _ = cursor.accept("serial")
        return .serial
    }

    /// A `queue` line with `dispatch`: it takes none of the operation queue's clauses, and its kind gives its limit
    /// (one block at a time when serial, none of its own when concurrent).
    func makeDispatchQueue(
        _ spec: inout QueueSpec, _ kind: DispatchQueueKind, clauses seen: Set<String>, at nameToken: ScenarioToken,
        _ line: ScenarioLine
    ) {
        for clause in ["limit", "suspended"] where seen.contains(clause) {
            error(line, at: nameToken, DispatchDiagnostic.clauseWithDispatch(clause))
        }
        spec.limit = kind == .serial ? 1 : nil
        spec.suspended = false
    }

    /// `async [workItem] NAME on QUEUE work DURATION`: `queue.async { work }`, or `queue.async(execute: item)` of a
    /// `DispatchWorkItem` (which `cancel NAME` may then cancel).
    func parseAsync(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> [Action] {
        let kind: DispatchSubmission.Kind = cursor.accept("workItem") ? .workItem : .block
        guard let nameToken = expectWord(&cursor, what: .dispatchBlockName) else {
            return []
        }
        guard let names = expandRange(nameToken, line) else { return [] }
        if nameToken.text == "all" {
            error(line, at: nameToken, .operationNamedAll)
        }
        guard cursor.accept("on") else {
            error(line, at: cursor.peek, .asyncWithoutOn(nameToken.text))
            return []
        }
        // Read before the queue, which is then there: without it, queueReference reports what is missing.
        let queueColumn = cursor.peek?.column ?? 0
        guard let queue = queueReference(&cursor, line, what: .dispatchQueue) else { return [] }
        queueActionUses.append((queue, .async, line, queueColumn))
        guard cursor.accept("work") else {
            error(line, at: cursor.peek, DispatchDiagnostic.needsWork)
            return []
        }
        guard let duration = expectDuration(&cursor, what: .blockWork) else { return [] }
        finish(&cursor)
        for name in names {
            if let first = operationDefinitions[name] {
                error(line, at: nameToken, .duplicateOperation(name, firstLine: first.line.number))
                break
            }
            operationDefinitions[name] = OperationDefinition(
                queue: queue, isAsync: false, dependencies: [], line: line, column: nameToken.column, submission: kind)
            operationOrder.append(name)
        }
        return names.map { name in
            .addOperation(
                queue: queue,
                OperationSpec(name: name, body: .work(duration, checkEvery: nil), submission: kind))
        }
    }

    /// Once every queue is known: operations go to operation queues and blocks to dispatch queues, a dispatch
    /// queue takes none of the operation queue's actions, and nobody cancels a plain block.
    func validateDispatch() {
        let dispatchQueues = Set(queues.filter { $0.dispatch != nil }.map(\.name))
        for use in queueActionUses where queueLines[use.queue] != nil {
            let isDispatch = dispatchQueues.contains(use.queue)
            switch use.use {
            case .operation where isDispatch:
                error(use.line, use.column, DispatchDiagnostic.operationOnDispatchQueue(use.queue))
            case .async where !isDispatch:
                error(use.line, use.column, DispatchDiagnostic.asyncOnOperationQueue(use.queue))
            case .queueAction(let words) where isDispatch:
                error(use.line, use.column, DispatchDiagnostic.notForDispatchQueue(words, queue: use.queue))
            default:
                break
            }
        }
        for use in operationUses {
            guard let definition = operationDefinitions[use.name], let submission = definition.submission else {
                continue
            }
            switch use.use {
            case .cancel where submission == .block:
                error(use.line, use.column, DispatchDiagnostic.cancelOfBlock(use.name, queue: definition.queue))
            case .finish:
                error(use.line, use.column, DispatchDiagnostic.finishOfBlock(use.name))
            case .cancel, .after:
                break  // A work item may be cancelled; `after` is not in `async`'s grammar.
            }
        }
    }
}
