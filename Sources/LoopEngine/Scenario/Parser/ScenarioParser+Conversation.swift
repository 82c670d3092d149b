/// Threads that talk over ports: `thread worker later` (a thread started on the way, with items of its own),
/// `start worker` (`[thread start]`), and `send P on THREAD` (a message to another thread's port, as the
/// run-loops chapter's main thread and worker exchange them).
extension ScenarioParserState {
    /// `start THREAD`: THREAD must be declared `later` (checked once every thread is known).
    func parseStart(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> [Action] {
        guard let token = expectWord(&cursor, what: .threadToStart) else {
            return []
        }
        startUses.append((token.text, line, token.column))
        return [.start(thread: token.text)]
    }

    /// `on THREAD` after `send P [N times]`: the ports were read as items of the sending thread; they are items
    /// of THREAD instead (the references made since `firstReference` are moved there).
    func parseSendTarget(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, thread: String, names: [String], count: Int,
        firstReference: Int
    ) -> [Action] {
        guard cursor.accept("on") else { return names.map { .send($0, count: count) } }
        guard let target = expectWord(&cursor, what: .portThread) else { return [] }
        if !threadNameSet.contains(target.text) { threadReferences.append((target.text, line, target.column)) }
        for index in firstReference..<references.count { references[index].thread = target.text }
        if target.text == thread { return names.map { .send($0, count: count) } }
        return names.map { .sendTo(thread: target.text, port: $0, count: count) }
    }

    /// Every `start` names a thread declared `later`.
    func validateStarts() {
        for (name, line, column) in startUses where threadNameSet.contains(name) && !laterThreads.contains(name) {
            error(line, column, .threadNotLater(name))
        }
        for (name, line, column) in startUses where !threadNameSet.contains(name) {
            threadReferences.append((name, line, column))
        }
    }
}
