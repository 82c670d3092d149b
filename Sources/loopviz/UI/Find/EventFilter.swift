import LoopEngine

/// What `/` searches for and filters by: typed terms matched against an event's own fields (its thread, kind,
/// item and mode as the engine reports them), never against a line of the log read back. Terms of one field are
/// alternatives (`kind:timer kind:source0`), terms of different fields must all hold, and each free word must be
/// found, ignoring case, in the event's kind, item, thread or mode, or in the words the trace formatter gives its
/// fact (`until`, `timer port`, …).
struct EventFilter: Equatable {
    /// What the user typed, shown in the status bar and the log's title as the filter's name.
    var typed: String
    var threads: [String] = []
    var kinds: [LoopEvent.Kind] = []
    var items: [String] = []
    var modes: [String] = []
    /// Free words, lowercased.
    var words: [String] = []

    /// The field names a term may start with.
    static let fields = ["thread", "kind", "item", "mode"]

    /// Why a typed query is not a filter.
    enum Problem: Error, Equatable {
        case unknownKind(String)
        case unknownField(String)
        case emptyValue(String)
    }

    /// Parses `typed`: words separated by spaces, each either `field:value` or a free word. Nil for an empty query.
    static func parse(_ typed: String) throws(Problem) -> EventFilter? {
        let terms = typed.split(separator: " ").map(String.init)
        guard !terms.isEmpty else { return nil }
        var filter = EventFilter(typed: terms.joined(separator: " "))
        for term in terms {
            guard let colon = term.firstIndex(of: ":"), colon != term.startIndex else {
                filter.words.append(term.lowercased())
                continue
            }
            let field = String(term[..<colon])
            let value = String(term[term.index(after: colon)...])
            guard fields.contains(field) else { throw .unknownField(field) }
            guard !value.isEmpty else { throw .emptyValue(field) }
            switch field {
            case "thread": filter.threads.append(value)
            case "item": filter.items.append(value)
            case "mode": filter.modes.append(value)
            default:
                guard let kind = LoopEvent.Kind(rawValue: value) else { throw .unknownKind(value) }
                filter.kinds.append(kind)
            }
        }
        return filter
    }

    /// True when `event` is one the filter keeps. The typed fields are compared first; the formatter's words of
    /// the fact are made only for an event every other part kept and a word not found elsewhere.
    func matches(_ event: LoopEvent) -> Bool {
        if !kinds.isEmpty && !kinds.contains(event.kind) { return false }
        if !threads.isEmpty && !threads.contains(event.loop) { return false }
        if !items.isEmpty && !items.contains(where: { $0 == event.name }) { return false }
        if !modes.isEmpty && !modes.contains(where: { $0 == event.mode }) { return false }
        guard !words.isEmpty else { return true }
        var detail: String?? = .none
        for word in words {
            if Self.contains(event.kind.rawValue, word) || Self.contains(event.name, word)
                || Self.contains(event.loop, word) || Self.contains(event.mode, word)
            {
                continue
            }
            if detail == nil { detail = .some(event.detail) }
            if Self.contains(detail ?? nil, word) { continue }
            return false
        }
        return true
    }

    /// True when `word` (lowercased) is found in `text`, ignoring its case.
    static func contains(_ text: String?, _ word: String) -> Bool {
        guard let text else { return false }
        return text.lowercased().contains(word)
    }
}
