/// The parser: the checks made once the whole file is read.
extension ScenarioParserState {
    func validate(_ threads: [ThreadSpec]) {
        // A range names many items at one column: one complaint there is enough.
        var reported: Set<[Int]> = []
        for reference in references where !reported.contains([reference.line.number, reference.column]) {
            guard let known = items[reference.thread] else { continue }
            if known[reference.name] == nil, let target = reference.handedTo, items[target]?[reference.name] != nil {
                error(reference.line, reference.column, .itemOfTargetThread(reference.name, thread: target))
                reported.insert([reference.line.number, reference.column])
                continue
            }
            guard let kind = known[reference.name] else {
                // The names are sorted only for a diagnostic that is kept: never once per reference.
                error(
                    reference.line, reference.column,
                    .unknownItem(reference.name, thread: reference.thread, known: known.keys.sorted()))
                reported.insert([reference.line.number, reference.column])
                continue
            }
            if !reference.allowed.contains(kind) {
                error(
                    reference.line, reference.column,
                    .wrongItemKind(reference.name, is: kind, needed: reference.what, allowed: reference.allowed))
                reported.insert([reference.line.number, reference.column])
            }
        }
        if mainThreads.isEmpty {
            for (line, column) in mainQueueUses {
                error(line, column, .mainQueueWithoutMainThread)
            }
        }
        for (name, line, column) in threadReferences where !threadNameSet.contains(name) {
            error(line, column, .unknownThread(name, known: threadNames))
        }
        for (name, line, column) in expectedThreads where !isTraceThread(name) {
            error(line, column, .unknownThread(name, known: traceThreadNames()))
        }
        for (name, line, column) in flagsRead where !flagsSet.contains(name) {
            error(line, column, .flagNeverSet(name))
        }
    }

    /// An item named by an action, or the items of a range (`send p1..128`), each checked once every item is
    /// known.
    func references(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, thread: String, allowed: Set<ItemClass>, what: Expected
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
