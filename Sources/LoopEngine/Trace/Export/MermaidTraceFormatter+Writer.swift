extension MermaidTraceFormatter {
    /// Writes one thread's events as diagram lines, keeping `loop`/`rect` blocks balanced.
    struct Writer {
        enum Block {
            case iteration(depth: Int, number: Int)
            case nestedRun(depth: Int)

            var depth: Int {
                switch self {
                case .iteration(let depth, _), .nestedRun(let depth): depth
                }
            }
        }

        let participants: Participants
        /// The loop's participant id.
        let loop: String
        private(set) var lines: [String] = []
        private var blocks: [Block] = []
        private var lastIteration: [Int: Int] = [:]
        /// Loop steps waiting to be written as one compact note.
        private var chain: [String] = []
        /// The participant of each open callout, innermost last, with its depth.
        private var callouts: [(depth: Int, participant: String)] = []

        init(participants: Participants, loop: String) {
            self.participants = participants
            self.loop = loop
        }

        private var indent: String { String(repeating: "    ", count: blocks.count + 1) }

        private mutating func emit(_ line: String) { lines.append(indent + line) }

        private mutating func note(_ text: String) { emit("Note over \(loop): " + escaped(text)) }

        private mutating func flush() {
            guard !chain.isEmpty else { return }
            note(chain.joined(separator: " → "))
            chain = []
        }

        mutating func write(_ event: LoopEvent) {
            if event.kind.isLoopStep {
                callouts.removeAll { $0.depth >= event.depth }
                closeBlocks(for: event)
                openBlocks(for: event)
            }
            let kind = event.kind
            if kind.isActivity {
                chain.append(kind.rawValue)
            } else if kind == .sleep {
                chain.append(event.wait?.isPoll == true ? "poll" : "sleep " + (event.detail ?? ""))
            } else if kind == .wake {
                chain.append("wake at \(event.time): " + (event.detail ?? "nothing"))
            } else if kind.isCallout {
                flush()
                writeCallout(event)
            } else if kind == .result {
                chain.append("result \(event.name ?? "?")")
                if event.depth >= 2, case .nestedRun(let depth)? = blocks.last, depth == event.depth { end() }
            } else if kind != .runStart {
                flush()
                writeControl(event)
            }
        }

        mutating func finish() {
            flush()
            while !blocks.isEmpty { end() }
        }

        // MARK: - Blocks

        private mutating func end() {
            flush()
            blocks.removeLast()
            emit("end")
        }

        private mutating func closeBlocks(for event: LoopEvent) {
            while let top = blocks.last {
                let closes: Bool
                if top.depth != event.depth {
                    closes = top.depth > event.depth
                } else if case .iteration(_, let number) = top {
                    closes =
                        event.kind == .exit || event.kind == .result || event.kind == .runStart
                        || event.iteration != number
                } else {
                    closes = event.kind == .runStart  // a nested run that never reported its result
                }
                guard closes else { return }
                end()
            }
        }

        private mutating func openBlocks(for event: LoopEvent) {
            let depth = event.depth
            if event.kind == .runStart {
                flush()
                lastIteration[depth] = 0
                let limit = event.detail.map { " (\($0))" } ?? ""
                if depth >= 2 {
                    emit("rect rgb(232, 238, 250)")
                    blocks.append(.nestedRun(depth: depth))
                    chain.append("nested run \(event.name ?? "?")\(limit)")
                } else {
                    chain.append("run \(event.name ?? "?")\(limit)")
                }
                return
            }
            guard depth >= 1, event.iteration > lastIteration[depth, default: 0], event.kind != .exit,
                event.kind != .result
            else { return }
            flush()
            lastIteration[depth] = event.iteration
            let label =
                depth >= 2 ? "iteration \(event.iteration) (\(event.mode ?? "?"))" : "iteration \(event.iteration)"
            emit("loop " + escaped(label))
            blocks.append(.iteration(depth: depth, number: event.iteration))
        }

        // MARK: - Arrows

        private mutating func writeCallout(_ event: LoopEvent) {
            var text = event.kind.rawValue
            let target: String
            if let item = participants.item(event), event.kind != .block, event.kind != .mainQueue {
                target = item
            } else {
                target = loop
                if let name = event.name { text += " " + name }
            }
            if let detail = event.detail { text += " (\(detail))" }
            emit("\(loop)->>\(target): " + escaped(text))
            callouts.append((event.depth, target))
        }

        private mutating func writeControl(_ event: LoopEvent) {
            let detail = event.detail ?? ""
            if event.kind == .note {
                emit("Note right of \(loop): " + escaped(detail))
                return
            }
            let sender: String
            if event.fact == .wakeUp(.timeout, ignored: nil) {
                sender = loop
            } else if let callout = callouts.last, callout.depth == event.depth {
                sender = callout.participant
            } else {
                sender = event.depth >= 1 ? Participants.world : loop
            }
            var text = event.kind.rawValue
            var target = loop
            switch event.kind {
            case .signal, .send:
                target = participants.item(event) ?? loop
            case .schedule, .cancel:
                // The loop calls the source's schedule/cancel callout.
                emit(
                    "\(loop)->>\(participants.item(event) ?? loop): "
                        + escaped(text + (detail.isEmpty ? "" : " (\(detail))")))
                return
            default:
                break
            }
            if !detail.isEmpty { text += " (\(detail))" }
            let arrow = event.wasIgnored ? "-x" : "->>"
            emit("\(sender)\(arrow)\(target): " + escaped(text))
        }
    }
}
