/// `expect` sections and the event patterns they (and `say … after`) are written in.
///
///     pattern = [TIME] [THREAD ":"] ( KIND [NAME] | "returned" BOOL | "query" QUESTION ["is" ANSWER] )
///               { "in" MODE | "between" TIME "and" TIME | "before" TIME | "after" TIME }
///     claim   = "never" pattern | pattern [ N "times" | "once" | "at" ("most" | "least") (N "times" | "once") ]
extension ScenarioParserState {
    /// An event as an `expect` line names it: `[TIME] [THREAD:] KIND [NAME]` (`0.370 timer tick`, `worker: sleep`)
    /// with any of its clauses (`in Tracking`, `between 2.0s and 2.5s`); in a section of claims (`allowCount`) also
    /// a count. `say … after` names its event the same way, and matches it the same way.
    func parseEventPattern(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, allowCount: Bool = false
    ) -> Expectation.Step? {
        var time: Duration?
        var resolution = Duration.nanoseconds(1)
        if let token = cursor.peek, case .number = token.kind {
            _ = cursor.next()
            guard let (value, written) = self.time(token, line) else { return nil }
            time = value
            resolution = written
        }
        var thread: String?
        if let word = cursor.peek, word.isWord, cursor.peekSecond?.isPunctuation(":") == true {
            thread = word.text
            _ = cursor.next()
            _ = cursor.next()
            expectedThreads.append((word.text, line, word.column))
        }
        guard let kindToken = expectWord(&cursor, what: .event) else { return nil }
        var step: Expectation.Step
        if kindToken.text == "returned" {
            let value = expectWord(&cursor, what: .returnedValue)
            if let value, value.text != "true" && value.text != "false" {
                error(line, at: value, .returnedNotBool(value.text))
            }
            step = Expectation.Step(kind: .note, returned: value?.text == "true", line: line.number)
            if value?.text == "false" { lint.expectsEmptyRun = true }
        } else if kindToken.text == "query" {
            guard let query = parseQueryPattern(&cursor, line) else { return nil }
            step = Expectation.Step(kind: .query, query: query, line: line.number)
        } else {
            guard let kind = LoopEvent.Kind(rawValue: kindToken.text) else {
                error(line, at: kindToken, .unknownEvent(kindToken.text))
                return nil
            }
            var name: String?
            if let token = cursor.peek, token.isWord, !startsClause(cursor) {
                name = token.text
                _ = cursor.next()
                noteName(kind, token, line)
                if kind == .result && RunResult.allCases.allSatisfy({ $0.description != token.text }) {
                    error(line, at: token, .unknownResult(token.text))
                }
            }
            step = Expectation.Step(kind: kind, name: name, line: line.number)
        }
        step.time = time
        step.resolution = resolution
        step.thread = thread
        parseStepClauses(&cursor, line, into: &step, allowCount: allowCount)
        if step.time != nil && step.range != nil, !linesWithErrors.contains(line.number) {
            error(line, at: line.tokens.first, .timeAndRange)
        }
        return step
    }

    /// True when the next word starts a clause rather than naming the event's item: `in`, a count (`once`, `at
    /// most`), or `between`/`before`/`after` followed by a time. Item names cannot be `in`, `at` or `once`.
    private func startsClause(_ cursor: TokenCursor) -> Bool {
        guard let token = cursor.peek else { return false }
        if token.isWord("in") || token.isWord("at") || token.isWord("once") { return true }
        guard token.isWord("between") || token.isWord("before") || token.isWord("after") else { return false }
        if case .number = cursor.peekSecond?.kind { return true }
        return false
    }

    /// The clauses after an event, in any order, each at most once.
    private func parseStepClauses(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, into step: inout Expectation.Step, allowCount: Bool
    ) {
        var seen: Set<String> = []
        func once(_ clause: String, _ token: ScenarioToken?) -> Bool {
            if seen.insert(clause).inserted { return true }
            error(line, at: token, .givenTwice(clause))
            return false
        }
        while let token = cursor.peek, !linesWithErrors.contains(line.number) {
            if cursor.accept("in") {
                guard once("in", token), let mode = expectMode(&cursor, line, allowCommon: false) else { return }
                step.mode = mode.rawValue
                if let written = cursor.last { noteName(nil, written, line) }
            } else if cursor.accept("between") {
                guard once("a range", token),
                    let (start, _) = expectTime(&cursor, line, what: .rangeStart)
                else { return }
                guard cursor.accept("and") else {
                    error(line, at: cursor.peek, .rangeWithoutAnd)
                    return
                }
                guard let (end, written) = expectTime(&cursor, line, what: .rangeEnd) else {
                    return
                }
                if end < start { error(line, at: cursor.last, .timeRangeEndsFirst) }
                step.range = Expectation.TimeRange(from: start, upTo: end + written)
            } else if cursor.accept("before") {
                guard once("a range", token), let (end, _) = expectTime(&cursor, line, what: .timeBefore)
                else { return }
                step.range = Expectation.TimeRange(upTo: end)
            } else if cursor.accept("after") {
                guard once("a range", token), let (start, _) = expectTime(&cursor, line, what: .timeAfter)
                else { return }
                step.range = Expectation.TimeRange(from: start)
            } else if token.isWord("never") {
                error(line, at: token, .neverGoesFirst(Self.withNeverFirst(line, never: token)))
                return
            } else if let count = parseCount(&cursor, line) {
                if !allowCount {
                    error(line, at: token, .countOutsideClaims)
                    return
                }
                guard once("a count", token) else { return }
                step.count = count
            } else {
                return
            }
        }
    }

    /// `N times` / `N time`, `once`, `at most …`, `at least …`; nil (nothing taken) when no count comes next.
    private func parseCount(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Expectation.Count? {
        if cursor.accept("once") { return .exactly(1) }
        if cursor.peek?.isWord("at") == true {
            _ = cursor.accept("at")
            let atMost = cursor.accept("most")
            if !atMost && !cursor.accept("least") {
                error(line, at: cursor.peek, .atWithoutMostOrLeast)
                return nil
            }
            guard let n = parseTimes(&cursor, line) else { return nil }
            return atMost ? .atMost(n) : .atLeast(n)
        }
        guard cursor.peekInteger != nil else { return nil }
        return parseTimes(&cursor, line).map { .exactly($0) }
    }

    /// `once` or `N times`.
    private func parseTimes(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Int? {
        if cursor.accept("once") { return 1 }
        guard let n = expectInteger(&cursor, line, what: .count) else { return nil }
        if n < 0 { error(line, at: cursor.last, .negativeCount) }
        if !cursor.accept("times") && !cursor.accept("time") {
            error(line, at: cursor.peek, .timesMissing)
            return nil
        }
        return n
    }

    /// A time in an `expect` line: a bare number is seconds (`0.250`), or a duration (`250ms`), negative allowed;
    /// with how precisely it was written.
    func expectTime(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, what: Expected
    ) -> (Duration, resolution: Duration)? {
        guard let token = cursor.peek, case .number = token.kind else {
            error(line, at: cursor.peek, .expected(what))
            return nil
        }
        _ = cursor.next()
        return time(token, line)
    }

    /// A number token read as an `expect` line's time, with how precisely it was written.
    func time(_ token: ScenarioToken, _ line: ScenarioLine) -> (Duration, resolution: Duration)? {
        guard case .number(let value, let unit) = token.kind else { return nil }
        guard let time = unit.isEmpty ? .secondsValue(value) : duration(token, line) else { return nil }
        return (time, Self.resolution(of: token.text, unit: unit))
    }

    /// `query QUESTION [is ANSWER]` in an `expect` line (after the word `query`): the items it names are not
    /// checked (any thread's may be meant), the answer is read as the question's kind of answer.
    private func parseQueryPattern(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Expectation.QueryPattern? {
        let questions = parseQuestion(&cursor, line) { cursor, _, what in
            self.expectWord(&cursor, what: what).map { [$0.text] }
        }
        guard let question = questions?.first else { return nil }
        guard cursor.accept("is") else { return Expectation.QueryPattern(question: question) }
        guard let (answer, resolution) = parseAnswer(&cursor, line, for: question) else { return nil }
        return Expectation.QueryPattern(question: question, answer: answer, resolution: resolution)
    }

    /// An answer as a trace writes it: a mode or `nil`; a time, `nil`/`none` or `distantFuture`; `true` or
    /// `false`; modes separated by commas (in any order) or `nothing`.
    private func parseAnswer(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, for question: LoopQuery
    ) -> (QueryAnswer, Duration)? {
        let exact = Duration.nanoseconds(1)
        switch question.answerKind {
        case .mode:
            guard let word = expectWord(&cursor, what: .modeAnswer) else { return nil }
            return (word.text == "nil" ? .none : .mode(ModeName(word.text)), exact)
        case .date:
            if let word = cursor.peek, word.isWord {
                _ = cursor.next()
                switch word.text {
                case "nil", "none": return (.none, exact)
                case "distantFuture": return (.distantFuture, exact)
                default:
                    error(line, at: word, .answerNotADate(word.text))
                    return nil
                }
            }
            guard let (time, resolution) = expectTime(&cursor, line, what: .dateAnswer) else { return nil }
            return (.date(.zero + time), resolution)
        case .duration:
            let what: Expected = if case .tolerance = question { .tolerance } else { .repeatInterval }
            guard let duration = expectDuration(&cursor, what: what) else { return nil }
            return (.duration(duration), exact)
        case .flag:
            guard let word = expectWord(&cursor, what: .flagAnswer) else { return nil }
            guard word.text == "true" || word.text == "false" else {
                error(line, at: word, .answerNotBool(word.text))
                return nil
            }
            return (.flag(word.text == "true"), exact)
        case .modes:
            if cursor.accept("nothing") { return (.modes([]), exact) }
            var modes: [ModeName] = []
            repeat {
                guard let word = expectWord(&cursor, what: .modeName) else { return nil }
                modes.append(ModeName(word.text))
            } while cursor.acceptPunctuation(",")
            return (.modes(modes.sorted()), exact)
        }
    }

    func parseExpectation(_ cursor: inout TokenCursor, _ node: Node) -> Expectation? {
        let line = node.line
        let mode: Expectation.Mode
        var everySchedule = false
        if cursor.accept("exactly") {
            mode = .exactly
        } else if cursor.accept("in") {
            if cursor.accept("every") {
                // Claims that must hold in every schedule of the scenario's races (docs/races.md).
                if !cursor.accept("schedule") { error(line, at: cursor.peek, .unknownExpectSection) }
                mode = .claims
                everySchedule = true
            } else {
                if !cursor.accept("order") { error(line, at: cursor.peek, .expectOrderMissing) }
                mode = .inOrder
            }
        } else if cursor.peek == nil {
            mode = .claims
        } else {
            error(line, at: cursor.peek, .unknownExpectSection)
            return nil
        }
        finish(&cursor)
        if node.children.isEmpty { error(line, at: line.tokens[0], .emptyExpectSection) }
        var steps: [Expectation.Step] = []
        for child in node.children {
            rejectChildren(child, of: "an expected step")
            var cursor = TokenCursor(child.line)
            let parsed =
                mode == .claims ? parseClaim(&cursor, child.line) : parseEventPattern(&cursor, child.line)
            guard let step = parsed else { continue }
            finish(&cursor)
            steps.append(step)
        }
        var expectation = Expectation(mode: mode, steps: steps, line: line.number)
        expectation.everySchedule = everySchedule
        return expectation
    }

    /// A claim: `never PATTERN`, or a pattern with an optional count (`timer tick 3 times`), as a line of
    /// `expect` alone or of a `say`'s `claims later|earlier` writes it.
    func parseClaim(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Expectation.Step? {
        let never = cursor.accept("never")
        guard var step = parseEventPattern(&cursor, line, allowCount: true) else { return nil }
        if never {
            if step.count != nil, !linesWithErrors.contains(line.number) {
                error(line, at: line.tokens.first, .neverWithCount)
            }
            step.count = .exactly(0)
            // The file says this item never runs: a mode of it no run enters is what it shows, not a slip.
            if let name = step.name, LintRecord.itemKinds.contains(step.kind) { lint.itemsClaimedNever.insert(name) }
        }
        return step
    }

    /// The last digit an expected time was written to: `0.120` (seconds, three decimals) 1 ms, `0.1200015`
    /// 100 ns, `250ms` 1 ms, `1.5ms` 100 µs. The time matches an event at any instant it is the start of
    /// (see ``Expectation/Step/resolution``).
    static func resolution(of text: String, unit: String) -> Duration {
        let number = text.dropLast(unit.count)
        let decimals = number.firstIndex(of: ".").map { number.distance(from: $0, to: number.endIndex) - 1 } ?? 0
        let scale: Double
        switch unit {
        case "ms": scale = 1e-3
        case "us", "µs": scale = 1e-6
        case "ns": scale = 1e-9
        case "m", "min": scale = 60
        default: scale = 1
        }
        let seconds = scale / pow10(min(decimals, 9))
        return max(.secondsValue(seconds), .nanoseconds(1))
    }

    private static func pow10(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<max(exponent, 0) { value *= 10 }
        return value
    }
}
