extension ChromeTraceFormatter {
    /// The flows of a trace, worked out before any output so that a flow is only started when its end exists.
    struct FlowPlan {
        /// Flow ids starting at an event index.
        var starts: [Int: [Int]] = [:]
        /// Flow ids ending at an event index.
        var ends: [Int: [Int]] = [:]
        /// The name of each flow (a flow's start and end must share name and category).
        var names: [Int: String] = [:]

        init(_ events: LoopTrace) {
            var pairs: [(start: Int, end: Int, name: String)] = []
            // Per thread: causes waiting for their effect, as event indexes.
            var signals: [String: [String: [Int]]] = [:]
            var sends: [String: [String: [Int]]] = [:]
            var wakeUps: [String: [Int]] = [:]
            for (index, event) in events.enumerated() {
                let thread = event.loop
                switch event.kind {
                case .signal:
                    if let name = event.name { signals[thread, default: [:]][name, default: []].append(index) }
                case .send:
                    if let name = event.name { sends[thread, default: [:]][name, default: []].append(index) }
                case .wakeUp:
                    if !event.wasIgnored { wakeUps[thread, default: []].append(index) }
                case .source0:
                    guard let name = event.name else { break }
                    for start in signals[thread]?[name] ?? [] { pairs.append((start, index, "signal")) }
                    signals[thread]?[name] = nil
                case .wake:
                    switch event.wakeCause {
                    case .wakeUpPort:
                        for start in wakeUps[thread] ?? [] { pairs.append((start, index, "wakeUp")) }
                        wakeUps[thread] = nil
                    case .port(let port, _):
                        for start in sends[thread]?[port] ?? [] { pairs.append((start, index, "send")) }
                        sends[thread]?[port] = nil
                    default:
                        break
                    }
                default:
                    break
                }
            }
            // Ids in the order the flows start, so the output does not depend on how effects interleave.
            for (offset, pair) in pairs.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }).enumerated() {
                let id = offset + 1
                starts[pair.start, default: []].append(id)
                ends[pair.end, default: []].append(id)
                names[id] = pair.name
            }
        }
    }
}
