import LoopEngine

/// The fuzzer's second thread `U` and a custom source's callouts: what T may hand over to U, and what U's own
/// callouts do (docs/fuzzing.md says which shapes are excluded and why).
extension FuzzGenerator {
    /// The second thread `U`: a port `q1` and a version-0 source `u1` (a custom source with commands), one run.
    /// T reaches it only from the callouts of T's timers; U's own callouts act on U alone.
    struct SecondThread {
        static let name = "U"
        static let port = "q1"
        static let source = "u1"
        /// Declared `later`: T's program starts it first.
        var later: Bool
    }

    /// U's loop: its port and its source (sometimes with callouts and a small command queue), one run of its own.
    mutating func secondThread(_ second: SecondThread) -> ThreadSpec {
        func steps() -> [ScriptStep] {
            (0..<rng.int(0...2)).map { _ in
                switch rng.int(0...3) {
                case 0: ScriptStep(.stop, when: .call(1))
                case 1: ScriptStep(.query(.currentMode))
                default: ScriptStep(.work(.milliseconds(rng.pick([1, 2, 5]))))
                }
            }
        }
        var source = ItemSpec.source0(SecondThread.source, steps())
        if rng.chance(50) { source.sourceCallouts = sourceCallouts(SecondThread.source) }
        let items = [ItemSpec.port(SecondThread.port, steps()), source]
        let run: RunCall =
            rng.chance(60)
            ? .inMode(.default, seconds: grid(2...10).secondsValue, returnAfterSourceHandled: rng.chance(20))
            : .foundation(.default, before: .fromNow(grid(2...10)))
        return ThreadSpec(name: SecondThread.name, items: items, program: [.run(run)], startsLater: second.later)
    }

    /// A custom source's schedule and cancel callouts (`on schedule:`, `on cancel:`) and its queue's size: what
    /// they may do without a lock or a wait (docs/cfrunloop.md §18.3): work, post a command to the source, signal
    /// it, wake its loop.
    mutating func sourceCallouts(_ source: String) -> SourceCallouts {
        func steps() -> [ScriptStep] {
            (0..<rng.int(0...2)).map { _ in
                let action: Action
                switch rng.int(0...3) {
                case 0: action = .work(.milliseconds(1))
                case 1: action = .post(command: rng.pick(Self.commands), source: source)
                case 2: action = .signal(source)
                default: action = .wakeUp
                }
                return ScriptStep(action, when: rng.chance(30) ? .call(rng.int(1...2)) : .always)
            }
        }
        let capacity = rng.chance(40) ? rng.int(1...3) : SourceCallouts.defaultCommandCapacity
        return SourceCallouts(schedule: steps(), cancel: steps(), commandCapacity: capacity)
    }

    /// What a timer of T hands over to U (`send q1 on U`, `perform uN on U [wait]` - which may post a command to
    /// U's source and signal it, on U: an action names only its own thread's items - or a bare wake-up of U).
    mutating func handOver() -> Action {
        switch rng.int(0...3) {
        case 0: return .sendTo(thread: SecondThread.name, port: SecondThread.port, count: rng.int(1...2))
        case 1, 2:
            var inner: [Action] = []
            switch rng.int(0...2) {
            case 0: inner = [.work(.milliseconds(rng.pick([1, 2, 5])))]
            case 1:
                inner = [
                    .post(command: rng.pick(Self.commands), source: SecondThread.source), .signal(SecondThread.source),
                ]
            default: break
            }
            blocks += 1
            return .performOn(thread: SecondThread.name, task: "u\(blocks)", wait: rng.chance(40), inner)
        default: return .wakeUpThread(SecondThread.name)
        }
    }
}
