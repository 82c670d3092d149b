import Testing

@testable import LoopEngine

/// The one walk over nested actions that the oracles, `compare` and the pool comparison share.
@Suite("walking nested actions")
struct ActionWalkTests {
    static let actions: [Action] = [
        .note("a"),
        .performBlock("b", modes: [.default], [.note("b1"), .mainQueue("m", [.note("m1")])]),
        .performOn(thread: "T", task: "t", wait: false, [.detach(task: "d", [.note("d1")])]),
        .note("z"),
    ]

    static func label(_ action: Action) -> String {
        switch action {
        case .note(let text): text
        case .performBlock(let name, _, _), .mainQueue(let name, _), .performOn(_, let name, _, _),
            .detach(let name, _):
            name
        default: "?"
        }
    }

    @Test("every action is visited depth first, an action before the ones nested in it")
    func order() {
        var seen: [String] = []
        Action.forEach(in: Self.actions) { seen.append(Self.label($0)) }
        #expect(seen == ["a", "b", "b1", "m", "m1", "t", "d", "d1", "z"])
    }

    @Test("first stops at the first answer, however deep")
    func first() {
        var visited = 0
        let found: String? = Action.first(in: Self.actions) { action in
            visited += 1
            if case .note(let text) = action, text.hasPrefix("d") { return text }
            return nil
        }
        #expect(found == "d1")
        #expect(visited == 8)
    }

    @Test("a scenario's lists: programs, item scripts, then outside events (only addressed ones when asked)")
    func scenarioLists() {
        let scenario = Scenario(
            name: "s",
            threads: [
                ThreadSpec(
                    name: "T", items: [.source0("s", [ScriptStep(.note("script"))])], program: [.note("program")])
            ],
            outside: [
                OutsideEvent(at: .zero, thread: "T", [.note("outside")]),
                OutsideEvent(at: .zero, thread: "nobody", [.note("unaddressed")]),
            ])
        #expect(
            scenario.actionLists().map { $0.map(Self.label) } == [
                ["program"], ["script"], ["outside"], ["unaddressed"],
            ])
        #expect(scenario.actionLists(addressedOnly: true).count == 3)
        #expect(scenario.firstAction { Self.label($0) == "outside" ? 1 : nil } == 1)
    }
}
