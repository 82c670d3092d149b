extension ChromeTraceFormatter {
    /// The flows of a trace, worked out before any output so that a flow is only started when its end exists.
    struct FlowPlan {
        /// Flow ids starting at an event index.
        var starts: [Int: [Int]] = [:]
        /// Flow ids ending at an event index.
        var ends: [Int: [Int]] = [:]
        /// The flow id starting at each hand-over that has one (an index into the hand-overs).
        var handOverStarts: [Int: Int] = [:]
        /// The name of each flow (a flow's start and end must share name and category).
        var names: [Int: String] = [:]

        /// A cause: an event of the trace, or a hand-over (`HandOver`), which starts on its sending thread.
        enum Cause {
            case event(Int)
            case handOver(Int)
        }

        init(_ events: LoopTrace, handOvers: [HandOver] = []) {
            var pairs: [(start: Cause, end: Int, name: String)] = []
            // Per thread: causes waiting for their effect, as event indexes.
            var signals: [String: [String: [Int]]] = [:]
            var sends: [String: [String: [Int]]] = [:]
            var wakeUps: [String: [Int]] = [:]
            var waiting = HandOverQueues()
            var nextHandOver = 0
            for (index, event) in events.enumerated() {
                // The hand-overs noted before this event (a signal's, a send's or a block's is this event).
                while nextHandOver < handOvers.count, handOvers[nextHandOver].position <= index {
                    waiting.add(handOvers[nextHandOver], at: nextHandOver, eventAt: index)
                    nextHandOver += 1
                }
                for handOver in waiting.effect(of: event, at: index) where handOvers[handOver].crossesThreads {
                    pairs.append((.handOver(handOver), index, Self.handOverFlowName))
                }
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
                    for start in signals[thread]?[name] ?? [] { pairs.append((.event(start), index, "signal")) }
                    signals[thread]?[name] = nil
                case .wake:
                    switch event.wakeCause {
                    case .wakeUpPort:
                        for start in wakeUps[thread] ?? [] { pairs.append((.event(start), index, "wakeUp")) }
                        wakeUps[thread] = nil
                    case .port(let port, _):
                        for start in sends[thread]?[port] ?? [] { pairs.append((.event(start), index, "send")) }
                        sends[thread]?[port] = nil
                    default:
                        break
                    }
                default:
                    break
                }
            }
            // Ids in the order the flows start, so the output does not depend on how effects interleave. A
            // hand-over starts before the event at its position.
            func order(_ cause: Cause) -> (Int, Int) {
                switch cause {
                case .event(let index): (index, 1)
                case .handOver(let index): (handOvers[index].position, 0)
                }
            }
            let sorted = pairs.sorted {
                let (left, right) = (order($0.start), order($1.start))
                return (left.0, left.1, $0.end) < (right.0, right.1, $1.end)
            }
            for (offset, pair) in sorted.enumerated() {
                let id = offset + 1
                switch pair.start {
                case .event(let index): starts[index, default: []].append(id)
                case .handOver(let index): handOverStarts[index] = id
                }
                ends[pair.end, default: []].append(id)
                names[id] = pair.name
            }
        }

        /// The name of every hand-over's flow.
        static let handOverFlowName = "handOver"
    }

    /// The hand-overs waiting for the callout each causes, per loop and name, in the order they came. Sends and
    /// blocks queue with their trace event (an event without a hand-over - a backend that does not know its
    /// threads - holds its place as nil), so that a callout takes the ones it really consumes.
    struct HandOverQueues {
        private var performs: [String: [String: [Int]]] = [:]
        private var signals: [String: [String: [Int]]] = [:]
        private var mainQueue: [String: [String: [Int]]] = [:]
        private var sends: [String: [String: [Int?]]] = [:]
        private var blocks: [String: [String: [Int?]]] = [:]
        /// The hand-over of the send or enqueue event at an index, until that event is read.
        private var atEvent: [Int: Int] = [:]

        mutating func add(_ handOver: HandOver, at position: Int, eventAt index: Int) {
            let loop = handOver.to
            switch handOver.what {
            case .perform(let task): performs[loop, default: [:]][task, default: []].append(position)
            case .signal(let source): signals[loop, default: [:]][source, default: []].append(position)
            case .mainQueue(let job): mainQueue[loop, default: [:]][job, default: []].append(position)
            case .send, .block:
                // Noted right before its event: the event at the hand-over's position.
                if handOver.position == index { atEvent[index] = position }
            }
        }

        /// The hand-overs `event` (at `index`) is the effect of; queues a send's or a block's hand-over.
        mutating func effect(of event: LoopEvent, at index: Int) -> [Int] {
            let loop = event.loop
            guard let name = event.name else { return [] }
            switch event.kind {
            case .send:
                sends[loop, default: [:]][name, default: []].append(atEvent.removeValue(forKey: index))
            case .enqueue:
                blocks[loop, default: [:]][name, default: []].append(atEvent.removeValue(forKey: index))
            case .perform:
                if let first = performs[loop]?[name]?.first {
                    performs[loop]?[name]?.removeFirst()
                    return [first]
                }
            case .source0:
                let all = signals[loop]?[name] ?? []
                signals[loop]?[name] = nil
                return all
            case .mainQueue:
                if let first = mainQueue[loop]?[name]?.first {
                    mainQueue[loop]?[name]?.removeFirst()
                    return [first]
                }
            case .source1:
                let queued = sends[loop]?[name] ?? []
                let taken = min(queued.count, event.messagesConsumed)
                sends[loop]?[name] = Array(queued.dropFirst(taken))
                return queued.prefix(taken).compactMap { $0 }
            case .block:
                if let first = blocks[loop]?[name]?.first {
                    blocks[loop]?[name]?.removeFirst()
                    return first.map { [$0] } ?? []
                }
            default:
                break
            }
            return []
        }
    }
}
