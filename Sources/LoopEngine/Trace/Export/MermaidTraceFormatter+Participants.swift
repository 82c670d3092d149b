extension MermaidTraceFormatter {
    /// The participants of a diagram and their Mermaid ids.
    struct Participants {
        enum Role: CaseIterable {
            case loop, observer, source, port, timer

            var prefix: String {
                switch self {
                case .loop: "RunLoop"
                case .observer: "Obs"
                case .source: "Src"
                case .port: "Port"
                case .timer: "Timer"
                }
            }

            var label: String {
                switch self {
                case .loop: "loop"
                case .observer: "observer"
                case .source: "source"
                case .port: "port"
                case .timer: "timer"
                }
            }
        }

        static let world = "World"
        private(set) var declarations = ["participant \(world) as outside world"]
        private var ids: [String: String] = [:]
        private var used: Set<String> = [world]

        /// Items are named per thread, as in a scenario: the same name on two threads is two participants, each
        /// labelled with its thread (`port p on A`); a name only one thread uses keeps the plain label.
        init(_ events: some Collection<LoopEvent>) {
            var ports: Set<String> = []
            for event in events where event.kind == .source1 || event.kind == .send {
                if let name = event.name { ports.insert(Self.key(.port, name, on: event.loop)) }
            }
            var found: [Role: [(thread: String, name: String)]] = [:]
            var seen: Set<String> = []
            func note(_ role: Role, _ name: String?, on thread: String) {
                guard let name, seen.insert(Self.key(role, name, on: role == .loop ? "" : thread)).inserted else {
                    return
                }
                found[role, default: []].append((thread, name))
            }
            for event in events {
                note(.loop, event.loop, on: "")
                let thread = event.loop
                switch event.kind {
                case .observer: note(.observer, event.name, on: thread)
                case .timer: note(.timer, event.name, on: thread)
                case .source1, .send: note(.port, event.name, on: thread)
                case .source0, .signal, .schedule, .cancel:
                    let isPort = event.name.map { ports.contains(Self.key(.port, $0, on: thread)) } == true
                    note(isPort ? .port : .source, event.name, on: thread)
                default: break
                }
            }
            for role in Role.allCases {
                let items = found[role] ?? []
                var threadsPerName: [String: Int] = [:]
                for item in items { threadsPerName[item.name, default: 0] += 1 }
                for item in items {
                    let shared = role != .loop && threadsPerName[item.name, default: 0] > 1
                    declare(role, item.name, on: role == .loop ? "" : item.thread, labelledWithThread: shared)
                }
            }
        }

        private mutating func declare(_ role: Role, _ name: String, on thread: String, labelledWithThread: Bool) {
            var base = role.prefix + "_"
            let spelled = labelledWithThread ? "\(name)_\(thread)" : name
            for scalar in spelled.unicodeScalars {
                let ascii = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                base += ascii || scalar == "_" ? String(scalar) : "_"
            }
            var id = base
            var suffix = 2
            while used.contains(id) {
                id = "\(base)_\(suffix)"
                suffix += 1
            }
            used.insert(id)
            ids[Self.key(role, name, on: thread)] = id
            let label = labelledWithThread ? "\(name) on \(thread)" : name
            declarations.append("participant \(id) as \(role.label) \(MermaidTraceFormatter.escaped(label))")
        }

        private static func key(_ role: Role, _ name: String, on thread: String) -> String {
            "\(role.label) \(thread.utf8.count):\(thread) \(name)"
        }

        func loop(_ thread: String) -> String { ids[Self.key(.loop, thread, on: "")] ?? Self.world }

        /// The participant an item event addresses, on the event's thread; sources and ports share a namespace,
        /// as in the engine.
        func item(_ event: LoopEvent) -> String? {
            guard let name = event.name else { return nil }
            let thread = event.loop
            switch event.kind {
            case .observer: return ids[Self.key(.observer, name, on: thread)]
            case .timer: return ids[Self.key(.timer, name, on: thread)]
            default: return ids[Self.key(.source, name, on: thread)] ?? ids[Self.key(.port, name, on: thread)]
            }
        }
    }
}
