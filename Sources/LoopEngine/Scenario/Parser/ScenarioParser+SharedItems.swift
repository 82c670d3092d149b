/// The parser: an item of one thread added to (or removed from) another thread's loop (`add tick to default on
/// worker`), CF's `CFRunLoopAddTimer(otherLoop, …)`.
extension ScenarioParserState {
    /// After `add NAMES to MODE` (`remove NAMES from MODE`): an optional `on THREAD`, the loop the items go to.
    /// Without it, or naming the acting thread itself, it is the plain `add`/`remove`. The items stay the acting
    /// thread's (checked as usual); the thread is checked once every thread is known.
    func parseItemTarget(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, thread: String, names: [String], adding: Bool,
        mode: ModeName
    ) -> [Action] {
        guard cursor.accept("on") else { return names.map { adding ? .add($0, mode) : .remove($0, mode) } }
        guard
            let target = expectWord(&cursor, what: .loopThread)
        else { return [] }
        if !threadNameSet.contains(target.text) { threadReferences.append((target.text, line, target.column)) }
        guard target.text != thread else { return names.map { adding ? .add($0, mode) : .remove($0, mode) } }
        // The references `names` just made are the last ones: they now say where the items go.
        for index in references.indices.suffix(names.count) { references[index].handedTo = target.text }
        return names.map {
            adding ? .addOn(thread: target.text, item: $0, mode) : .removeOn(thread: target.text, item: $0, mode)
        }
    }
}
