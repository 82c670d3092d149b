import LoopEngine
import Testing

extension Rules {
    @Suite("determinism of the virtual engine")
    struct DeterminismTests {
        /// A scenario that touches most of the engine: sources of both versions, a repeating and a one-shot timer,
        /// observers, blocks, a nested run, wake-ups and a stop from the outside world.
        static let busyScenario = Scenario(
            name: "busy",
            items: [
                .source0(
                    "A", order: 1, [ScriptStep(.work(.milliseconds(7))), ScriptStep(.signal("A"), when: .call(1))]),
                .source0("B", order: 0, [ScriptStep(.performBlock("B1", modes: [.default], [.note("block ran")]))]),
                .port("S", [ScriptStep(.work(.milliseconds(3)))]),
                .timer(
                    "T", first: .milliseconds(15), every: .milliseconds(25),
                    [
                        ScriptStep(
                            .run(.inMode(.default, seconds: 0.03, returnAfterSourceHandled: false)), when: .call(2))
                    ]),
                .timer("U", first: .milliseconds(40)),
                .observer("O", .allActivities, order: 0, [ScriptStep(.work(.milliseconds(1)), when: .callsThrough(5))]),
            ],
            program: [
                .signal("A"), .signal("B"),
                .run(.inMode(.default, seconds: 0.3, returnAfterSourceHandled: false)),
                .run(.untilStopped),
            ],
            outside: [
                OutsideEvent(at: .milliseconds(33), [.send("S", count: 2)]),
                OutsideEvent(at: .milliseconds(90), [.signal("B"), .wakeUp]),
                OutsideEvent(at: .milliseconds(400), [.stop]),
            ])

        @Test("the same scenario run twice gives byte-identical traces")
        func sameScenarioSameTrace() {
            let first = ScenarioRunner.run(Self.busyScenario)
            let second = ScenarioRunner.run(Self.busyScenario)
            let firstText = first.events.map { String(describing: $0) }
            let secondText = second.events.map { String(describing: $0) }
            #expect(firstText.count > 50)
            #expect(firstText == secondText)
            #expect(first.endTime == second.endTime)
            #expect(first.haltReason == second.haltReason)
        }

        @Test("the same harness scenario built twice gives byte-identical traces")
        func sameHarnessScenarioSameTrace() {
            func build() -> [String] {
                let h = VirtualHarness()
                h.keepAlive()
                let a = h.source("A") { h.work(5) }
                let s = h.port("S")
                h.timer("T", at: 10, every: 20) { _ in h.block("B") }
                h.observer("O", [.beforeWaiting, .afterWaiting])
                h.at(12) { a.signal() }
                h.at(13) { h.loop.wakeUp() }
                h.at(44) { s.send() }
                h.run(.default, 0.1)
                return h.eventText
            }
            let first = build()
            #expect(first.count > 30)
            #expect(first == build())
        }
    }
}
