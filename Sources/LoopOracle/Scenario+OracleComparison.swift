import LoopEngine

/// How a scenario's engine trace is compared with the oracle's, for `loopviz compare` and the fuzzer alike.
extension Scenario {
    /// Whether the scenario is compared thread by thread: it declares several threads, or a thread of its made
    /// another (`detach`).
    package func isComparedThreadByThread(engine: [LoopEvent]) -> Bool {
        threads.count > 1 || engine.contains { $0.loop != threads[0].name }
    }

    /// CFRunLoopRun and Foundation's run methods hide their inner runs from the oracle.
    package var usesRunWrappers: Bool {
        let wrapper: Bool? = firstAction { action in
            switch action {
            case .run(.inMode): return nil
            case .run: return true
            // limitDate(forMode:) polls the mode with a CFRunLoopRunInMode of its own.
            case .query(.limitDate): return true
            default: return nil
            }
        }
        return wrapper ?? false
    }
}
