#if os(Linux)
import LoopEngine

/// The real backend behind the shared rule harness (`LoopHarness`, `Backend.real`).
extension RealHarness: LoopHarness {
    func makePort(_ name: String, in mode: ModeName, perform: @escaping @Sendable (Int) -> Void) -> LoopSource {
        let source = LoopSource(portNamed: name, on: waiter, perform: perform)
        loop.add(source, to: mode)
        return source
    }

    func fromAnotherThread(at milliseconds: Int, _ action: @escaping @Sendable () -> Void) {
        at(milliseconds, action)
    }

    func settle() { finish() }

    var observableSteps: [String] { Real.observableSteps(events) }
}

extension Backend {
    static func makeRealHarness() -> any LoopHarness { RealHarness() }
}
#endif
