/// The parser: the claims a `say` line rests on, indented under it.
///
///     say-claim = "claims" "next" pattern | "claims" ( "later" | "earlier" ) claim
///
/// `pattern` and `claim` are an `expect` line's, parsed by the same code (ScenarioParser+Expectations.swift).
extension ScenarioParserState {
    /// The lines under a `say` (`node`): its claims, kept with the say's `anchor` and `text` (nil when the say
    /// line itself is wrong: its claims are still read, for their errors).
    func parseSayClaims(_ node: Node, anchor: SayClaims.Anchor?, text: String?) {
        guard !node.children.isEmpty else { return }
        var claims: [NarrationClaim] = []
        for child in node.children {
            rejectChildren(child, of: "claims")
            var cursor = TokenCursor(child.line)
            if let claim = parseSayClaim(&cursor, child.line) { claims.append(claim) }
            finish(&cursor)
        }
        guard let anchor, let text, !claims.isEmpty else { return }
        sayClaims.append(SayClaims(anchor: anchor, text: text, line: node.line.number, claims: claims))
    }

    /// `claims next PATTERN`, `claims later CLAIM` or `claims earlier CLAIM`.
    private func parseSayClaim(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> NarrationClaim? {
        guard let keyword = cursor.next(), keyword.isWord("claims") else {
            error(line, at: line.tokens.first, .notAClaim(found: line.tokens.first?.text ?? ""))
            return nil
        }
        guard let word = expectWord(&cursor, what: .claimReach) else { return nil }
        guard let reach = NarrationClaim.Reach(rawValue: word.text) else {
            error(line, at: word, .unknownClaimReach(word.text))
            return nil
        }
        guard reach == .next else { return parseClaim(&cursor, line).map { NarrationClaim(reach, $0) } }
        let first = cursor.peek
        guard let step = parseClaim(&cursor, line) else { return nil }
        if step.count != nil, !linesWithErrors.contains(line.number) {
            error(line, at: first, .countInNextClaim)
            return nil
        }
        return NarrationClaim(.next, step)
    }
}
