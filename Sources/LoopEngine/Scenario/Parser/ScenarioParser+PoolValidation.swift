/// The thread pool's checks once the whole file is read: every queue and operation named is declared, none
/// waits for itself, and what an `expect` line may name as its thread.
extension ScenarioParserState {
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
