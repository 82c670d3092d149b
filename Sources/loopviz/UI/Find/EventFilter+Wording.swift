import LoopEngine

extension EventFilter.Problem {
    /// What the search prompt says under a query that is not a filter.
    var message: String {
        switch self {
        case .unknownKind(let kind):
            let near = LoopEvent.Kind.allCases.map(\.rawValue).filter {
                $0.lowercased().hasPrefix(kind.lowercased().prefix(2))
            }
            let hint = near.isEmpty ? "e.g. timer, source0, sleep, wake" : near.prefix(4).joined(separator: ", ")
            return "'\(kind)' is not an event kind (\(hint))"
        case .unknownField(let field):
            return "no field '\(field):' (thread: kind: item: mode:, or plain words)"
        case .emptyValue(let field):
            return "\(field): needs a value (\(field):NAME)"
        }
    }
}
