/// Owners that go away, and the flags and conditions that test them: `owner vc weak weakSelf` at the top level;
/// `set vc.stopped`, `clear vc.thread`, `if COND` with a block, `dealloc vc` with a block, and the condition of
/// `while COND RunLoop.run`. Conditions are `TERM and TERM …`, a term `not TERM`, a flag, an owner's property
/// (`vc.stopped` through the owner, `weakSelf.stopped` through its weak reference) or a weak reference
/// (`weakSelf`: not nil).
extension ScenarioParserState {
    /// `owner NAME [weak WEAKNAME]`.
    func parseOwner(_ node: Node) {
        var cursor = TokenCursor(node.line)
        _ = cursor.next()
        rejectChildren(node, of: "owner")
        guard let name = expectWord(&cursor, what: .ownerName) else { return }
        var spec = OwnerSpec(name: name.text)
        var names = [name]
        if cursor.accept("weak") {
            guard let weak = expectWord(&cursor, what: .weakReferenceName) else {
                return
            }
            spec.weakName = weak.text
            names.append(weak)
        }
        finish(&cursor)
        for token in names {
            if token.text.contains(".") {
                error(node.line, at: token, .ownerNameWithDot)
                return
            }
            if ownerReferenceNames[token.text] != nil {
                error(node.line, at: token, .ownerNameTaken(token.text))
                return
            }
        }
        ownerReferenceNames[spec.name] = (spec.name, false)
        if let weak = spec.weakName { ownerReferenceNames[weak] = (spec.name, true) }
        owners.append(spec)
    }

    /// `set NAME` and `clear NAME` (`keyword` is the action word, already taken).
    func parseAssignment(_ keyword: ScenarioToken, _ cursor: inout TokenCursor, _ line: ScenarioLine) -> [Action] {
        let value = keyword.text == "set"
        guard let token = expectWord(&cursor, what: .assignedFlag) else { return [] }
        guard let reference = flagReference(token, line) else { return [] }
        if value { flagsSet.insert(reference.key) }
        if value, case .flag(let name) = reference { return [.setFlag(name)] }
        return [.assign(reference, value)]
    }

    /// `if CONDITION` and its block (in the context of the lines around it).
    func parseIf(_ cursor: inout TokenCursor, _ node: Node, thread: String, context: Context) -> [Action] {
        guard let condition = parseCondition(&cursor, node.line, endingAt: nil) else { return [] }
        if node.children.isEmpty {
            error(node.line, node.line.text.count + 1, .ifWithoutBlock)
        }
        return [.ifHolds(condition, parseActions(node.children, thread: thread, context: context))]
    }

    /// `dealloc OWNER` and its block (the body of the owner's `dealloc`).
    func parseDealloc(_ cursor: inout TokenCursor, _ node: Node, thread: String, context: Context) -> [Action] {
        guard let token = expectWord(&cursor, what: .deallocatedOwner) else { return [] }
        guard let owner = ownerReferenceNames[token.text], !owner.weak else {
            error(node.line, at: token, .unknownOwner(token.text, known: owners.map(\.name)))
            return []
        }
        return [.dealloc(owner: owner.owner, parseActions(node.children, thread: thread, context: context))]
    }

    /// A condition up to the end of the line, or up to the word `endingAt` (left for the caller).
    func parseCondition(_ cursor: inout TokenCursor, _ line: ScenarioLine, endingAt end: String?) -> Condition? {
        var terms: [Condition] = []
        repeat {
            guard let term = parseTerm(&cursor, line) else { return nil }
            terms.append(term)
        } while cursor.accept("and")
        if let end, cursor.peek?.isWord(end) != true {
            error(line, at: cursor.peek, .conditionNotEnded(end))
            return nil
        }
        return terms.count == 1 ? terms[0] : .all(terms)
    }

    /// `not … not WORD`: read without recursion (a line may hold any number of `not`s), and an even number of
    /// them cancels, so a condition nests at most one `not` deep.
    private func parseTerm(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Condition? {
        var negated = false
        while cursor.accept("not") { negated.toggle() }
        return parseWord(&cursor, line).map { negated ? .not($0) : $0 }
    }

    private func parseWord(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Condition? {
        let what = Expected.conditionTerm
        // A word of the language (`RunLoop.run`, `and`) is no flag: the condition is missing.
        if let next = cursor.peek, next.isWord, ScenarioKeywords.all.contains(next.text) {
            error(line, at: next, .expected(what))
            return nil
        }
        guard let token = expectWord(&cursor, what: what) else { return nil }
        if !token.text.contains("."), let owner = ownerReferenceNames[token.text] {
            guard owner.weak else {
                error(line, at: token, .ownerInCondition(token.text))
                return nil
            }
            return .ownerAlive(owner.owner)
        }
        return flagReference(token, line).map { .isSet($0) }
    }

    /// A flag (`stopped`) or an owner's property (`vc.stopped`, `weakSelf.stopped`).
    private func flagReference(_ token: ScenarioToken, _ line: ScenarioLine) -> FlagReference? {
        guard let dot = token.text.firstIndex(of: ".") else {
            if ownerReferenceNames[token.text] != nil {
                error(line, at: token, .ownerAssigned(token.text))
                return nil
            }
            return .flag(token.text)
        }
        let prefix = String(token.text[..<dot])
        let property = String(token.text[token.text.index(after: dot)...])
        guard let owner = ownerReferenceNames[prefix] else {
            error(line, at: token, .unknownOwner(prefix, known: owners.map(\.name)))
            return nil
        }
        guard !property.isEmpty, !property.contains(".") else {
            error(line, at: token, .ownerPropertyExpected(owner: prefix))
            return nil
        }
        return .property(owner: owner.owner, name: property, weak: owner.weak)
    }
}
