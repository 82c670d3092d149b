/// The parser: the checks made once the whole file is read.
extension ScenarioParserState {
    func validate(_ threads: [ThreadSpec]) {
        // A range names many items at one column: one complaint there is enough.
        var reported: Set<[Int]> = []
        for reference in references where !reported.contains([reference.line.number, reference.column]) {
            guard let known = items[reference.thread] else { continue }
            guard let kind = known[reference.name] else {
                // The hint is built only for a diagnostic that is kept: never once per reference.
                func hint() -> DiagnosticMessage {
                    known.isEmpty
                        ? "thread \(reference.thread) has no items" : "known: \(Self.nameList(known.keys.sorted()))"
                }
                error(
                    reference.line, reference.column,
                    "unknown item '\(reference.name)' on thread \(reference.thread) (\(hint()))")
                reported.insert([reference.line.number, reference.column])
                continue
            }
            if !reference.allowed.contains(kind) {
                var message: DiagnosticMessage =
                    "'\(reference.name)' is a \(kind.rawValue), but this needs \(reference.what)"
                if kind == .source0 && reference.allowed == [.port] { message += "; version-0 sources are `signal`led" }
                error(reference.line, reference.column, message)
                reported.insert([reference.line.number, reference.column])
            }
        }
        if mainThreads.isEmpty {
            for (line, column) in mainQueueUses {
                error(line, column, "only the main thread services the main queue; mark a thread `main`")
            }
        }
        for (name, line, column) in threadReferences where !threadNameSet.contains(name) {
            error(line, column, "unknown thread '\(name)' (known: \(Self.nameList(threadNames)))")
        }
        for (name, line, column) in expectedThreads where !isTraceThread(name) {
            error(line, column, "unknown thread '\(name)' (known: \(traceThreadNames()))")
        }
        for (name, line, column) in flagsRead where !flagsSet.contains(name) {
            error(
                line, column, "flag '\(name)' is never set, so this loop could never end; add `set \(name)` somewhere")
        }
    }

    /// An item named by an action, or the items of a range (`send p1..128`), each checked once every item is
    /// known.
    func references(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, thread: String, allowed: Set<ItemClass>, what: String
    ) -> [String]? {
        guard let token = expectWord(&cursor, what: what) else { return nil }
        guard let names = expandRange(token, line) else { return nil }
        for name in names {
            references.append(
                Reference(thread: thread, name: name, allowed: allowed, what: what, line: line, column: token.column))
        }
        return names
    }
}
