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
        static func cancelOfBlock(_ name: String, queue: String) -> DiagnosticMessage {
            "'\(name)' is a block submitted with `async` to dispatch queue '\(queue)': dispatch_async returns "
                + "nothing to cancel it with, so once submitted it runs; submit a DispatchWorkItem to cancel it "
                + "before it starts (`async workItem \(name) on \(queue) …`)"
        }
        static func operationOnDispatchQueue(_ queue: String) -> DiagnosticMessage {
            "'\(queue)' is a dispatch queue: it takes blocks, not operations; expected `async NAME on \(queue) work "
                + "20ms`"
        }
        static func asyncOnOperationQueue(_ queue: String) -> DiagnosticMessage {
            "'\(queue)' is an operation queue: `async` submits to a dispatch queue (`queue \(queue) dispatch`); "
                + "expected `operation NAME on \(queue) work 20ms`"
        }
        static func notForDispatchQueue(_ words: String, queue: String) -> DiagnosticMessage {
            "`\(words)` is for operation queues; '\(queue)' is a dispatch queue (not modelled for one)"
        }
        static func clauseWithDispatch(_ clause: String) -> DiagnosticMessage {
            "'\(clause)' is for operation queues; a dispatch queue is serial (one block at a time) or concurrent"
        }
        static func finishOfBlock(_ name: String) -> DiagnosticMessage {
            "'\(name)' is a block on a dispatch queue, so it finishes by itself; `finish` needs an operation added "
                + "with `operation … async`"
        }
        static let needsWork: DiagnosticMessage =
            "expected what the block does: `work DURATION`, e.g. `async b on gcd work 20ms`"
    }

    /// `dispatch [serial|concurrent]`, after `dispatch` in a `queue` line (serial when neither is given, as
    /// `DispatchQueue(label:)` is).
    func parseDispatchKind(_ cursor: inout TokenCursor) -> DispatchQueueKind {
        if cursor.accept("concurrent") { return .concurrent }
        _ = cursor.accept("serial")
        return .serial
    }

    /// `async [workItem] NAME on QUEUE work DURATION`: `queue.async { work }`, or `queue.async(execute: item)` of a
    /// `DispatchWorkItem` (which `cancel NAME` may then cancel).
    func parseAsync(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> [Action] {
        let kind: DispatchSubmission.Kind = cursor.accept("workItem") ? .workItem : .block
        guard let nameToken = expectWord(&cursor, what: "the block's name, or a range such as b1..3") else {
            return []
        }
        guard let names = expandRange(nameToken, line) else { return [] }
        if nameToken.text == "all" {
            error(line, at: nameToken, "'all' is a keyword (`cancel all on QUEUE`); choose another name")
        }
        guard cursor.accept("on") else {
            error(
                line, at: cursor.peek,
                "expected 'on' and a dispatch queue: `async \(nameToken.text) on QUEUE work 20ms`")
            return []
        }
        guard let queueToken = cursor.peek, let queue = queueReference(&cursor, line, what: "the dispatch queue")
        else { return [] }
        queueActionUses.append((queue, .async, line, queueToken.column))
        guard cursor.accept("work") else {
            error(line, at: cursor.peek, DispatchDiagnostic.needsWork)
            return []
        }
        guard let duration = expectDuration(&cursor, what: "how long the block works, e.g. 20ms") else { return [] }
        finish(&cursor)
        for name in names {
            if let first = operationDefinitions[name] {
                error(
                    line, at: nameToken,
                    "duplicate operation '\(name)' (already added on line \(first.line.number)); "
                        + "give each operation its own name")
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
