/// Compares what an operation queue did in two traces: the engine's pool model and a reference (Foundation's
/// `OperationQueue`, run by the pool oracle). Pure: it reads two `[LoopEvent]` arrays and the scenario's queues and
/// operations, so the differential tests and `loopviz compare` share it.
///
/// What must agree, and is compared:
/// - **start order** of every queue whose limit was 1 at each of its starts, on both sides (one slot: the queue
///   alone decides which ready operation goes next - the highest priority, the first added within a level);
/// - **the limit**: on each side, no operation starts while the queue already executes as many as its limit in
///   force (`queue limit` events change it; lowering a limit stops nothing that executes, so only starts count);
///   a queue at the default limit is not checked (the engine models a width, Foundation leaves it to libdispatch);
/// - **outcomes**: each operation ended the same way - done, cancelled before it started, cancelled while
///   running, or never finished; on a dispatch queue (real `DispatchQueue` in the reference) a work item skipped
///   by its queue counts as cancelled before it started, and one cancelled while its block ran as done despite
///   the cancel (a serial dispatch queue is a queue of limit 1, so its start order is compared too);
/// - **dependency order**: on each side, an operation starts only after every dependency finished, whichever queue
///   each dependency is on (Foundation's `addDependency` works across queues).
///
/// What legitimately differs, and is only reported side by side: which thread ran an operation and whether it was
/// new or reused (libdispatch, not the queue, owns the threads: it reuses a worker or parks it by its own rules,
/// and its threads outlive a scenario), how many threads were created or retired, every time (the engine's
/// clock is virtual; Foundation runs in real time with scheduling noise), the start order of a queue wider than
/// one (several starts race on the real machine).
package struct PoolComparison: Sendable {
    /// How an operation ended, from its `opFinish` fact.
    package enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// It ran to its end (perhaps cancelled after its last check point).
        case done
        case cancelledBeforeStart
        case cancelledWhileRunning
        /// A work item cancelled while its block ran, which ran to its end (libdispatch interrupts no block).
        case doneDespiteCancel
        /// No `opFinish` in the trace.
        case neverFinished
        /// An `opFinish` that does not say how it ended.
        case unknown

        /// The outcome an `opFinish` event's fact gives.
        package init(_ event: LoopEvent) {
            switch event.fact {
            case .finish(.done), .finish(.doneAfterLateCancel), .finish(.blockDone): self = .done
            case .finish(.workItemRanDespiteCancel): self = .doneDespiteCancel
            // A work item the queue skipped is one cancelled before it started; both sides say which it was.
            case .finish(.cancelledBeforeStart), .finish(.workItemSkipped): self = .cancelledBeforeStart
            case .finish(.cancelledWhileRunning): self = .cancelledWhileRunning
            default: self = .unknown
            }
        }

        package var description: String {
            switch self {
            case .done: "done"
            case .cancelledBeforeStart: "cancelled before it started"
            case .cancelledWhileRunning: "cancelled while running"
            case .doneDespiteCancel: "done, though cancelled while running"
            case .neverFinished: "never finished"
            case .unknown: "finished (how is not said)"
            }
        }
    }

    /// The rules a difference breaks.
    package enum Check: String, Sendable, Equatable {
        /// An operation was added on one side only.
        case added
        case startOrder = "start order"
        case limit
        case outcome
        case dependency
    }

    /// One way the two sides disagree (or one side breaks a rule), in plain words.
    package struct Difference: Sendable, Equatable, CustomStringConvertible {
        package var check: Check
        package var explanation: String

        package init(_ check: Check, _ explanation: String) {
            self.check = check
            self.explanation = explanation
        }

        /// Terminal-safe: the explanation names operations and queues of the scenario file.
        package var description: String { "\(check.rawValue): \(TerminalSafeText.terminalSafe(explanation))" }
    }

    /// What one side's trace says the queues did.
    package struct Side: Sendable {
        package let title: String
        /// Its pool events and notes, in trace order.
        package let events: [LoopEvent]
        /// Operation names in the order they were added (the first `opAdd` of a name wins).
        package let added: [String]
        /// The queue each operation was added to.
        package let queueOf: [String: String]
        /// Per queue, the operations in the order they started.
        package let starts: [String: [String]]
        /// Queues whose limit was 1 at every one of their starts.
        package let limitOneThroughout: Set<String>
        /// Per queue, the most operations executing at once.
        package let maxExecuting: [String: Int]
        /// Per queue, the threads that started its operations, in first-use order (reported, not compared).
        package let threads: [String: [String]]
        /// How many `threadCreate` events the side recorded (reported, not compared).
        package let threadsCreated: Int
        /// How each added operation ended.
        package let outcomes: [String: Outcome]
        /// Starts over the limit in force, explained.
        package let limitViolations: [String]
        /// Starts before a dependency finished, explained.
        package let dependencyViolations: [String]

        /// Reads `trace`: `limits` are the queues' limits at the start (nil or absent: the default, unchecked);
        /// `dependencies` says what each operation waits for.
        package init(
            title: String, trace: [LoopEvent], limits: [String: Int?], dependencies: [String: [String]]
        ) {
            self.title = title
            events = trace.filter { $0.kind.isPool || $0.kind == .note }
            var added: [String] = []
            var queueOf: [String: String] = [:]
            var starts: [String: [String]] = [:]
            var notLimitOne: Set<String> = []
            var maxExecuting: [String: Int] = [:]
            var threads: [String: [String]] = [:]
            var threadsCreated = 0
            var outcomes: [String: Outcome] = [:]
            var limitViolations: [String] = []
            var dependencyViolations: [String] = []
            var limit: [String: Int] = [:]
            for (queue, value) in limits { limit[queue] = value }
            var executing: [String: [String]] = [:]
            var finished: Set<String> = []
            for event in trace {
                guard let name = event.name else { continue }
                switch event.kind {
                case .opAdd where queueOf[name] == nil:
                    queueOf[name] = event.loop
                    added.append(name)
                case .queue:
                    if case .limit(let value) = event.fact { limit[event.loop] = value.count }
                case .threadCreate:
                    threadsCreated += 1
                case .opStart:
                    let queue = queueOf[name] ?? "?"
                    let before = executing[queue, default: []]
                    if let current = limit[queue], before.count >= current {
                        let list = before.isEmpty ? "none" : before.joined(separator: ", ")
                        limitViolations.append(
                            "\(title) started \(name) on queue \(queue) while \(before.count) executed (\(list)), "
                                + "over its limit \(current)")
                    }
                    if limit[queue] != 1 { notLimitOne.insert(queue) }
                    executing[queue] = before + [name]
                    maxExecuting[queue] = max(maxExecuting[queue] ?? 0, before.count + 1)
                    starts[queue, default: []].append(name)
                    if !threads[queue, default: []].contains(event.loop) {
                        threads[queue, default: []].append(event.loop)
                    }
                    // Dependencies are operations of any queue: `finished` spans them all.
                    let unfinished = (dependencies[name] ?? []).filter { !finished.contains($0) }
                    if !unfinished.isEmpty {
                        // A dependency of another queue is named with its queue (once that queue is known).
                        let named = unfinished.map { dependency in
                            guard let other = queueOf[dependency], other != queue else { return dependency }
                            return "\(dependency) (queue \(other))"
                        }
                        let what = queueOf[name].map { "\(name) (queue \($0))" } ?? name
                        let shown = named == unfinished ? name : what
                        dependencyViolations.append(
                            "\(title) started \(shown) before its dependency \(named.joined(separator: ", ")) finished")
                    }
                case .opFinish:
                    if outcomes[name] == nil { outcomes[name] = Outcome(event) }
                    finished.insert(name)
                    if let queue = queueOf[name] { executing[queue]?.removeAll { $0 == name } }
                default:
                    break
                }
            }
            for name in added where outcomes[name] == nil { outcomes[name] = .neverFinished }
            self.added = added
            self.queueOf = queueOf
            self.starts = starts
            limitOneThroughout = Set(starts.keys).subtracting(notLimitOne)
            self.maxExecuting = maxExecuting
            self.threads = threads
            self.threadsCreated = threadsCreated
            self.outcomes = outcomes
            self.limitViolations = limitViolations
            self.dependencyViolations = dependencyViolations
        }
    }

    package let engine: Side
    package let reference: Side
    /// The queues, in declaration order, with their limits at the start.
    package let queues: [QueueSpec]
    /// Every difference found, grouped by check in the order: added, start order, limit, outcome, dependency.
    package let differences: [Difference]

    package var agrees: Bool { differences.isEmpty }
    package var firstDifference: Difference? { differences.first }

    /// Compares two traces of a scenario with these `queues` (their starting limits) and operations (their
    /// dependencies).
    package init(
        engine: [LoopEvent], reference: [LoopEvent], queues: [QueueSpec], operations: [OperationSpec],
        engineTitle: String = "LoopEngine", referenceTitle: String = "Foundation"
    ) {
        var limits: [String: Int?] = [:]
        for queue in queues { limits[queue.name] = queue.limit }
        var dependencies: [String: [String]] = [:]
        for operation in operations where dependencies[operation.name] == nil {
            dependencies[operation.name] = operation.dependencies
        }
        let left = Side(title: engineTitle, trace: engine, limits: limits, dependencies: dependencies)
        let right = Side(title: referenceTitle, trace: reference, limits: limits, dependencies: dependencies)
        self.engine = left
        self.reference = right
        self.queues = queues
        differences = Self.differences(left, right, queues: queues)
    }

    /// Compares two traces of `scenario`.
    package init(
        engine: [LoopEvent], reference: [LoopEvent], scenario: Scenario, engineTitle: String = "LoopEngine",
        referenceTitle: String = "Foundation"
    ) {
        self.init(
            engine: engine, reference: reference, queues: scenario.queues,
            operations: Self.operations(in: scenario), engineTitle: engineTitle, referenceTitle: referenceTitle)
    }

    /// Every operation a scenario adds, wherever the `addOperation` is (programs, callouts, outside events, nested
    /// blocks and tasks), in declaration order.
    package static func operations(in scenario: Scenario) -> [OperationSpec] {
        addedOperations(in: scenario).map(\.spec)
    }

    /// ``operations(in:)`` with the queue each is added to: where a dependency of another queue lives.
    package static func addedOperations(in scenario: Scenario) -> [(queue: String, spec: OperationSpec)] {
        var found: [(queue: String, spec: OperationSpec)] = []
        for list in scenario.actionLists() {
            Action.forEach(in: list) { action in
                if case .addOperation(let queue, let spec) = action { found.append((queue, spec)) }
            }
        }
        return found
    }

    private static func differences(_ left: Side, _ right: Side, queues: [QueueSpec]) -> [Difference] {
        var found: [Difference] = []
        for name in left.added where right.queueOf[name] == nil {
            found.append(Difference(.added, "\(left.title) added \(name), \(right.title) never did"))
        }
        for name in right.added where left.queueOf[name] == nil {
            found.append(Difference(.added, "\(right.title) added \(name), \(left.title) never did"))
        }
        var queueNames = queues.map(\.name)
        for name in (left.added + right.added).compactMap({ left.queueOf[$0] ?? right.queueOf[$0] })
        where !queueNames.contains(name) {
            queueNames.append(name)
        }
        for queue in queueNames {
            if let difference = startOrderDifference(queue, left, right) { found.append(difference) }
        }
        found += (left.limitViolations + right.limitViolations).map { Difference(.limit, $0) }
        var names = left.added
        for name in right.added where !names.contains(name) { names.append(name) }
        for name in names {
            let mine = left.outcomes[name] ?? .neverFinished
            let theirs = right.outcomes[name] ?? .neverFinished
            if mine != theirs {
                found.append(Difference(.outcome, "\(name): \(left.title) \(mine), \(right.title) \(theirs)"))
            }
        }
        found += (left.dependencyViolations + right.dependencyViolations).map { Difference(.dependency, $0) }
        return found
    }

    private static func startOrderDifference(_ queue: String, _ left: Side, _ right: Side) -> Difference? {
        let mine = left.starts[queue] ?? []
        let theirs = right.starts[queue] ?? []
        // Compared only when one slot decided it on both sides (a side that started nothing qualifies).
        guard mine.isEmpty || left.limitOneThroughout.contains(queue),
            theirs.isEmpty || right.limitOneThroughout.contains(queue), mine != theirs
        else { return nil }
        let both = "(\(left.title): \(list(mine)); \(right.title): \(list(theirs)))"
        guard let index = mine.indices.first(where: { $0 < theirs.count && mine[$0] != theirs[$0] }) else {
            let (longer, shorter, extra) =
                mine.count > theirs.count
                ? (left.title, right.title, mine[theirs.count]) : (right.title, left.title, theirs[mine.count])
            return Difference(
                .startOrder,
                "queue \(queue) (limit 1): \(longer) started \(extra) as its operation number "
                    + "\(min(mine.count, theirs.count) + 1); \(shorter) never started it then \(both)")
        }
        return Difference(
            .startOrder,
            "queue \(queue) (limit 1): operation number \(index + 1) to start was \(mine[index]) on \(left.title) "
                + "but \(theirs[index]) on \(right.title) \(both)")
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }

    // MARK: - Reports

    /// The verdict: "agree", or the first difference and how many there are.
    package var verdict: String {
        guard let first = firstDifference else { return "the pools agree" }
        let more = differences.count > 1 ? " (and \(differences.count - 1) more)" : ""
        return "first difference - \(first)\(more)"
    }

    /// What each side did, side by side: per queue the start order, the most executing at once and the threads
    /// used; per operation the outcome. Threads and the wider queues' orders are marked as not compared.
    package func summary() -> String {
        var rows: [[String]] = [["", engine.title, reference.title]]
        var queueNames = queues.map(\.name)
        for name in engine.added + reference.added {
            if let queue = engine.queueOf[name] ?? reference.queueOf[name], !queueNames.contains(queue) {
                queueNames.append(queue)
            }
        }
        for queue in queueNames {
            let initial = queues.first { $0.name == queue }?.limit
            rows.append(["queue \(queue) (limit \(initial.map(String.init) ?? "default") at the start)", "", ""])
            let compared = [engine, reference].allSatisfy { side in
                (side.starts[queue] ?? []).isEmpty || side.limitOneThroughout.contains(queue)
            }
            rows.append([
                compared ? "  start order" : "  start order (not compared: limit above 1)",
                Self.list(engine.starts[queue] ?? []), Self.list(reference.starts[queue] ?? []),
            ])
            rows.append([
                "  most executing at once", String(engine.maxExecuting[queue] ?? 0),
                String(reference.maxExecuting[queue] ?? 0),
            ])
            rows.append([
                "  threads used (not compared)", Self.list(engine.threads[queue] ?? []),
                Self.list(reference.threads[queue] ?? []),
            ])
        }
        rows.append([
            "threads created (not compared)", String(engine.threadsCreated), String(reference.threadsCreated),
        ])
        var names = engine.added
        for name in reference.added where !names.contains(name) { names.append(name) }
        for name in names {
            rows.append([
                "operation \(name)", (engine.outcomes[name] ?? .neverFinished).description,
                (reference.outcomes[name] ?? .neverFinished).description,
            ])
        }
        // Cells carry names from the scenario file: shown terminal-safe, escaped before the columns are measured.
        return TextTraceFormatter.align(rows.map { $0.map(TerminalSafeText.terminalSafe) })
    }

    /// Each side's pool events and notes, one block per side: `time thread step (detail)`.
    package func eventListing() -> String {
        var lines: [String] = []
        for side in [engine, reference] {
            lines.append("\(TerminalSafeText.terminalSafe(side.title)) pool events:")
            let rows = side.events.map { event in
                ["  " + event.time.description, event.loop, event.step + (event.detail.map { " (\($0))" } ?? "")]
            }
            if rows.isEmpty {
                lines.append("  (none)")
            } else {
                lines.append(TextTraceFormatter.align(rows.map { $0.map(TerminalSafeText.terminalSafe) }))
            }
        }
        return lines.joined(separator: "\n")
    }
}
