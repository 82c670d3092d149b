/// The parser: the small pieces every line is made of: words, strings, numbers, durations, modes.
extension ScenarioParserState {
    func expectWord(_ cursor: inout TokenCursor, what: Expected) -> ScenarioToken? {
        guard let token = cursor.peek, token.isWord else {
            error(cursor.line, at: cursor.peek, .expected(what))
            return nil
        }
        return cursor.next()
    }

    func expectString(_ cursor: inout TokenCursor, what: Expected) -> String? {
        guard let token = cursor.peek, token.kind == .string else {
            error(cursor.line, at: cursor.peek, .expected(what))
            return nil
        }
        return cursor.next()?.text
    }

    func expectInteger(_ cursor: inout TokenCursor, _ line: ScenarioLine, what: Expected) -> Int? {
        guard let value = cursor.peekInteger else {
            error(line, at: cursor.peek, .expected(what))
            return nil
        }
        _ = cursor.next()
        return value
    }

    func expectDuration(_ cursor: inout TokenCursor, what: Expected, allowNegative: Bool = false) -> Duration? {
        guard let token = cursor.peek, case .number = token.kind else {
            error(cursor.line, at: cursor.peek, .expected(what))
            return nil
        }
        _ = cursor.next()
        if case .number(_, "") = token.kind, let unit = cursor.peek, unit.isWord,
            ScenarioProblem.unitWords.contains(unit.text)
        {
            error(cursor.line, at: token, .spaceBeforeUnit(token.text, unit: unit.text))
            return nil
        }
        guard let value = duration(token, cursor.line) else { return nil }
        if value < .zero && !allowNegative {
            error(cursor.line, at: token, .negativeDuration)
            return nil
        }
        return value
    }

    /// `250ms`, `1.5s`, `40us`, `2m`: a number directly followed by its unit.
    func duration(_ token: ScenarioToken, _ line: ScenarioLine) -> Duration? {
        guard case .number(let value, let unit) = token.kind else { return nil }
        let scale: Double
        switch unit {
        case "s": scale = 1
        case "ms": scale = 1e-3
        case "us", "µs": scale = 1e-6
        case "ns": scale = 1e-9
        case "m", "min": scale = 60
        case "":
            error(line, at: token, .durationWithoutUnit(token.text))
            return nil
        default:
            error(line, at: token, .unknownUnit(unit, in: token.text))
            return nil
        }
        let seconds = value * scale
        guard seconds.magnitude < 1e9 else {
            error(line, at: token, .durationTooLong(token.text))
            return nil
        }
        return .secondsValue(seconds)
    }

    func expectMode(_ cursor: inout TokenCursor, _ line: ScenarioLine, allowCommon: Bool) -> ModeName? {
        guard let token = expectWord(&cursor, what: .modeName) else { return nil }
        if token.text == "common" && !allowCommon {
            error(line, at: token, .commonNotAllowed)
            return nil
        }
        let mode = ModeName(token.text)
        if modeNames.count <= Self.maxModes, modeNames.insert(mode).inserted, modeNames.count > Self.maxModes {
            error(line, at: token, .tooManyModes(limit: Self.maxModes))
        }
        return mode
    }

    /// The modes one file may name (so one thread may have): far more than a program uses, few enough that an
    /// item in every mode costs little. Each mode is a port set, a timer port and a heap on every thread that
    /// runs or fills it, and an item added to thousands of modes made each of its events cost as many updates.
    static let maxModes = 1000

    func parseModeList(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, allowCommon: Bool, allowNothing: Bool = false
    ) -> [ModeName] {
        if allowNothing && cursor.accept("nothing") { return [] }
        var modes: [ModeName] = []
        var listed: Set<ModeName> = []
        repeat {
            guard let mode = expectMode(&cursor, line, allowCommon: allowCommon) else { break }
            if !listed.insert(mode).inserted { error(line, at: cursor.last, .modeListedTwice(mode)) }
            modes.append(mode)
        } while cursor.acceptPunctuation(",")
        return modes
    }

    func parseActivities(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Activity? {
        var activities: Activity = []
        repeat {
            guard
                let token = expectWord(
                    &cursor,
                    what: .activity)
            else {
                return nil
            }
            guard let activity = Activity(name: token.text) else {
                error(line, at: token, .unknownActivity(token.text))
                return nil
            }
            activities.formUnion(activity)
        } while cursor.acceptPunctuation(",")
        return activities
    }

    /// Reports anything left on the line.
    func finish(_ cursor: inout TokenCursor) {
        if let extra = cursor.peek, !linesWithErrors.contains(cursor.line.number) {
            error(cursor.line, at: extra, .unexpectedAtEndOfLine(extra.text))
            cursor.index = cursor.tokens.count
        }
    }
}
