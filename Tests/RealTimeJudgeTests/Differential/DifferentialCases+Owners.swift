import LoopEngine

// An owner that goes away, and the conditions that test it (`ScenarioFlags`): the oracle's loop runs them with
// Foundation's run(mode:before:) under the same rules, so its trace - the owner's notes included - must match.
extension DifferentialCase {
    static let owners: [DifferentialCase] = {
        typealias D = DSL
        let stopped = FlagReference.property(owner: "vc", name: "stopped", weak: true)
        let fixed = Condition.all([.ownerAlive("vc"), .not(.isSet(stopped))])
        func owned(_ name: String, _ condition: Condition, outside: [OutsideEvent]) -> Scenario {
            var scenario = D.scenario(
                name, [D.keepAlive()], [.run(.whileHolds(condition, mode: .default))], outside: outside)
            scenario.owners = [OwnerSpec(name: "vc", weakName: "weakSelf")]
            return scenario
        }
        return [
            DifferentialCase(
                section: "keep-alive pitfall 7",
                scenario: owned(
                    "while (weakSelf && !weakSelf.stopped) goes round after a stop, ends once the owner's dealloc began",
                    fixed, outside: [D.at(30, .stop), D.at(60, .dealloc(owner: "vc", [.stop]))]),
                ignoringRunBoundaries: true),
            DifferentialCase(
                section: "keep-alive pitfall 8",
                scenario: owned(
                    "an if guards a clear, and the stop after it ends the while by its flag",
                    .not(.isSet(.flag("done"))),
                    outside: [
                        D.at(30, .ifHolds(.not(.isSet(.flag("done"))), [.assign(.flag("done"), true)]), .stop)
                    ]),
                ignoringRunBoundaries: true),
        ]
    }()
}
