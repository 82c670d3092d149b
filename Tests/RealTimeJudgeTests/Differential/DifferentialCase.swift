import LoopEngine
import Testing

/// One scenario that runs on both LoopEngine and the real CFRunLoop.
struct DifferentialCase: Sendable, CustomTestStringConvertible {
    /// The section of docs/cfrunloop.md it checks, e.g. "§9.3".
    var section: String
    var scenario: Scenario
    /// Wrapper calls (CFRunLoopRun, RunLoop.run) hide their inner runs from the oracle.
    var ignoringRunBoundaries = false

    var testDescription: String { "\(section) \(scenario.name)" }
}

/// Shorthands that keep the case table readable.
enum DSL {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    static func run(_ seconds: Double, _ mode: ModeName = .default, rash: Bool = false) -> Action {
        .run(.inMode(mode, seconds: seconds, returnAfterSourceHandled: rash))
    }

    static func at(_ milliseconds: Int, _ actions: Action...) -> OutsideEvent {
        OutsideEvent(at: .milliseconds(milliseconds), actions)
    }

    static func step(_ action: Action, _ when: ScriptStep.When = .always) -> ScriptStep {
        ScriptStep(action, when: when)
    }

    static func scenario(
        _ name: String, commonModes: [ModeName] = [], _ items: [ItemSpec], _ program: [Action],
        outside: [OutsideEvent] = []
    ) -> Scenario {
        Scenario(name: name, commonModes: commonModes, items: items, program: program, outside: outside)
    }

    /// A version-0 source that is never signalled: it only keeps its mode alive.
    static func keepAlive(_ name: String = "K", modes: [ModeName] = [.default]) -> ItemSpec {
        .source0(name, modes: modes)
    }
}
