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

        init(_ events: [LoopEvent]) {
            let ports = Set(events.filter { $0.kind == .source1 || $0.kind == .send }.compactMap(\.name))
            var found: [Role: [String]] = [:]
            func note(_ role: Role, _ name: String?) {
                guard let name, !(found[role] ?? []).contains(name) else { return }
                found[role, default: []].append(name)
            }
            for event in events {
                note(.loop, event.loop)
                switch event.kind {
                case .observer: note(.observer, event.name)
                case .timer: note(.timer, event.name)
                case .source1, .send: note(.port, event.name)
                case .source0, .signal, .schedule, .cancel:
                    note(event.name.map(ports.contains) == true ? .port : .source, event.name)
                default: break
                }
            }
            for role in Role.allCases {
                for name in found[role] ?? [] { declare(role, name) }
            }
        }

        private mutating func declare(_ role: Role, _ name: String) {
            var base = role.prefix + "_"
            for scalar in name.unicodeScalars {
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
            ids[Self.key(role, name)] = id
            declarations.append("participant \(id) as \(role.label) \(MermaidTraceFormatter.escaped(name))")
        }

        private static func key(_ role: Role, _ name: String) -> String { "\(role.label) \(name)" }

        func loop(_ thread: String) -> String { ids[Self.key(.loop, thread)] ?? Self.world }

        /// The participant an item event addresses; sources and ports share a namespace, as in the engine.
        func item(_ event: LoopEvent) -> String? {
            guard let name = event.name else { return nil }
            switch event.kind {
            case .observer: return ids[Self.key(.observer, name)]
            case .timer: return ids[Self.key(.timer, name)]
            default: return ids[Self.key(.source, name)] ?? ids[Self.key(.port, name)]
            }
        }
    }
}
