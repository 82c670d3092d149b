/// A query fact as tokens: `["query", QUESTION..., ANSWER...]`, e.g. `["query","limitDate","default","date",300000000]`
/// or `["query","allModes","modes",2,"Tracking","default"]`.
extension TokenWriter {
    mutating func query(_ question: LoopQuery, _ answer: QueryAnswer) {
        tag("query", .text(question.word))
        switch question {
        case .currentMode, .isWaiting, .allModes: break
        case .limitDate(let mode), .nextTimerFireDate(let mode): add(.text(mode.rawValue))
        case .contains(let item, let mode):
            add(.text(item))
            add(.text(mode.rawValue))
        case .isValid(let item), .nextFireDate(let item), .interval(let item), .tolerance(let item),
            .repeats(let item):
            add(.text(item))
        }
        switch answer {
        case .none: add(.text("none"))
        case .mode(let mode): tag("mode", .text(mode.rawValue))
        case .date(let instant): tag("date", .number(instant.nanoseconds))
        case .distantFuture: add(.text("distantFuture"))
        case .flag(let flag): tag("flag", .flag(flag))
        case .modes(let modes):
            tag("modes", .number(Int64(modes.count)))
            for mode in modes { add(.text(mode.rawValue)) }
        case .duration(let duration): tag("duration", .number(duration.nanosecondsClamped))
        }
    }
}

extension TokenReader {
    /// The question and answer after the `query` tag; nil when the tokens are not those of a query.
    mutating func query() -> LoopEvent.Fact? {
        let question: LoopQuery
        switch text() {
        case "currentMode": question = .currentMode
        case "isWaiting": question = .isWaiting
        case "allModes": question = .allModes
        case "limitDate":
            guard let mode = text() else { return nil }
            question = .limitDate(ModeName(mode))
        case "nextTimerFireDate":
            guard let mode = text() else { return nil }
            question = .nextTimerFireDate(ModeName(mode))
        case "contains":
            guard let item = text(), let mode = text() else { return nil }
            question = .contains(item: item, mode: ModeName(mode))
        case "isValid":
            guard let item = text() else { return nil }
            question = .isValid(item: item)
        case "nextFireDate":
            guard let item = text() else { return nil }
            question = .nextFireDate(timer: item)
        case "interval":
            guard let item = text() else { return nil }
            question = .interval(timer: item)
        case "tolerance":
            guard let item = text() else { return nil }
            question = .tolerance(timer: item)
        case "repeats":
            guard let item = text() else { return nil }
            question = .repeats(timer: item)
        default: return nil
        }
        let answer: QueryAnswer
        switch text() {
        case "none": answer = .none
        case "mode":
            guard let mode = text() else { return nil }
            answer = .mode(ModeName(mode))
        case "date":
            guard let instant = instant() else { return nil }
            answer = .date(instant)
        case "distantFuture": answer = .distantFuture
        case "flag":
            guard let flag = flag() else { return nil }
            answer = .flag(flag)
        case "modes":
            guard let modes = list() else { return nil }
            answer = .modes(modes.map { ModeName($0) })
        case "duration":
            guard let duration = duration() else { return nil }
            answer = .duration(duration)
        default: return nil
        }
        return .query(question, answer)
    }
}
