import Testing

@testable import LoopEngine

/// Modes with the same timers that no run is in rest: one queue and one arm of their timer ports for them all at
/// each fire, their own brought up to date when a run of them begins or their timers change
/// (`RunLoopCore+RestingModes.swift`, `VirtualWorld+ArmGroups.swift`). Nothing a trace shows may change: each case
/// runs with no mode resting (every mode moved and armed at every fire, as CF does), with every idle mode resting
/// after one move, and with the standard policy, and the three whole traces must be the same.
@Suite("resting modes: the same trace as moving and arming every mode at every fire")
struct RestingModesTests {
    /// Two groups of modes with different timers beside the running default; callouts reschedule, add, remove,
    /// invalidate, ask for the next fire date of a resting mode, run a resting mode nested and write ports in
    /// resting modes; later runs wake each mode.
    static let groups = """
        thread T
          port p in M1, M4
          port q in M2, M5
          timer a at 1ms every 1ms tolerance 400us in default, M1, M2, M3, M4, M5
            call 3: send p
            call 5: reschedule b in 300us
            call 7: query nextTimerFireDate M1
            call 8: add c to M2
            call 10: run M3 for 1500us
            call 12: send q
            call 14: remove a from M4
          timer b at 2ms every 1500us tolerance 1ms in default, M1, M2, M3
          timer c at 1500us every 2500us in default, M4, M5
            call 3: invalidate b
          run default for 20ms
          run M1 for 2ms
          run M2 for 3ms
          run M4 for 2ms
          query nextTimerFireDate M5
          run M5 for 2ms
          run M3 for 2ms
        """

    /// A timer whose callout runs a nested run of a resting mode while it fires (left out of every window then),
    /// a one-shot timer that fires in default and leaves every resting mode, and dates in the past.
    static let firingAndOneShot = """
        thread T
          port p in N1, N2
          timer a at 1ms every 1ms in default, N1, N2, N3
            call 4: run N1 for 2ms
            call 6: reschedule a in -1ms
            call 9: send p
          timer b at 2ms every 700us in default, N1, N2, N3
          timer single at 4500us in default, N1, N2, N3
          run default for 12ms
          run N2 for 3ms
          run N3 for 1ms
          run N1 for 2ms
        """

    /// A mode that rests, wakes for a short run, rests again, many times; ports written while it rests.
    static let restAndWake = """
        thread T
          port p in R
          timer a at 1ms every 1ms in default, R
            call 3: send p
            call 6: run R for 500us
            call 9: run R for 0ms
            call 12: send p
            call 13: run R for 2ms
          timer b at 1200us every 900us in default, R
          run default for 18ms
          run R for 3ms
        """

    /// B's run takes its timer port; a reschedule moves B's window without an expiry (B rests), a second one arms
    /// the group with B's port not due (B's first arm with the group), then `a` fires in A's run, its deadline
    /// passed: on linux B's port goes on B's ready list there, and stays through later arms. `p` is written after
    /// that, and B runs once its port's last deadline has passed: linux takes the timer port from that first
    /// place, before `p`; darwin orders it by its last arm, after `p`.
    static let firstExpiryWhileResting = """
        thread T
          port p in B
          timer a at 1ms every 1ms in A, B
            call 3: send p
          timer b at 50ms in A, B
          timer c at 60ms in C
          run B for 1500us
          reschedule a in 1ms
          reschedule a in 300us
          run A for 3ms
          run C for 2ms
          run B for 1ms
        """

    /// As above with one reschedule: B's own port, armed before it rested, is due at the group's first arm, which
    /// expires it (linux: B's ready list holds it from there, ahead of `p`, written in the callout of that fire).
    static let ownExpiryAtFirstGroupArm = """
        thread T
          port p in B
          timer a at 1ms every 1ms in A, B
            call 2: send p
          timer b at 50ms in A, B
          timer c at 60ms in C
          run B for 1500us
          reschedule a in 1ms
          run A for 3ms
          run C for 2ms
          run B for 1ms
        """

    /// `a`'s third callout writes `p` (in B), then moves `b` (in B and D, which only a callout that never comes
    /// runs: shared, so B's group holds it) to now: B's window moves to that instant
    /// and its port is armed for it, after the write, at the same instant. When B runs, darwin orders the expired
    /// port by that arm, after `p` (linux's first expiry, at 1 ms, comes first).
    static let armedForNowAfterAWrite = """
        thread T
          port p in B
          timer a at 1ms every 1ms in A, B
            call 3: send p
            call 3: reschedule b in -1ms
          timer b at 50ms in B, D
          timer c at 60ms in C
          timer never at 3600s in C
            run D for 1ms
          run A for 4ms
          run C for 1ms
          run B for 1ms
        """

    /// Modes that share `a` and `b` and each hold a timer of its own: X's comes long after, Y's and Z's soon
    /// (the group's window reaches them: those modes wake, and Z's own timer fires in Z's run), W's is
    /// rescheduled while W rests (its move wakes W).
    static let ownTimers = """
        thread T
          port p in X, Y
          timer a at 1ms every 1ms in default, X, Y, Z, W
            call 4: send p
            call 6: reschedule w in 2ms
          timer b at 1500us every 2ms tolerance 300us in default, X, Y, Z, W
          timer x at 900ms in X
          timer y at 4200us in Y
          timer z at 3ms every 4ms in Z
          timer w at 800ms in W
          run default for 10ms
          run Z for 3ms
          run Y for 2ms
          run W for 2ms
          run X for 2ms
        """

    static let cases: [(name: String, script: String)] = [
        ("groups", groups), ("firing-and-one-shot", firingAndOneShot), ("rest-and-wake", restAndWake),
        ("first-expiry-while-resting", firstExpiryWhileResting),
        ("own-expiry-at-first-group-arm", ownExpiryAtFirstGroupArm),
        ("armed-for-now-after-a-write", armedForNowAfterAWrite), ("own-timers", ownTimers),
        ("many-run-modes", TimersInManyRunModesTests.manyRunModes),
        ("expired-before-the-run", TimersInManyRunModesTests.expiredBeforeTheRun),
        ("re-armed-not-yet-due", TimersInManyRunModesTests.reArmedNotYetDue),
        ("modes-never-run", TimerPortsOfWaitedModesTests.mixedModes),
    ]

    /// The whole trace, and the number of ports that joined an arm group and of group arms the world made.
    static func run(
        _ script: String, profile: String, resting: RestingPolicy
    ) throws -> (
        trace: String, joins: Int, arms: Int
    ) {
        let scenario = try ScenarioParser.parse("profile \(profile)\n" + script).scenario
        let (outcome, world) = ScenarioRunner.runHosted(scenario, horizon: .seconds(1), resting: resting)
        return (TextTraceFormatter.format(outcome.events), world.armGroupJoins, world.armGroupArms)
    }

    /// The cases that pin the kernel's rules for a resting port: their groups must arm.
    static let armingCases: Set<String> = [
        "first-expiry-while-resting", "own-expiry-at-first-group-arm", "armed-for-now-after-a-write",
    ]

    @Test(
        "no mode resting, every idle mode resting at once, and the standard policy give the same whole trace",
        arguments: cases.map(\.name), ["linux", "darwin"])
    func sameTrace(_ name: String, _ profile: String) throws {
        let script = try #require(Self.cases.first { $0.name == name }).script
        let eager = try Self.run(script, profile: profile, resting: .never)
        let atOnce = try Self.run(script, profile: profile, resting: .atOnce)
        let standard = try Self.run(script, profile: profile, resting: .standard)
        #expect(eager.joins == 0 && eager.arms == 0)
        // Resting happened: the case checks something.
        #expect(atOnce.joins > 0)
        if Self.armingCases.contains(name) { #expect(atOnce.arms > 0) }
        #expect(atOnce.trace == eager.trace)
        #expect(standard.trace == eager.trace)
    }

    @Test(
        "linux: a timer port that expired while its mode rested keeps that first place, ahead of a later write",
        arguments: ["first-expiry-while-resting", "own-expiry-at-first-group-arm"])
    func restingExpiryKeepsItsPlace(_ name: String) throws {
        let script = try #require(Self.cases.first { $0.name == name }).script
        for (profile, first) in [("linux", ["a", "p"]), ("darwin", ["p", "a"])] {
            let scenario = try ScenarioParser.parse("profile \(profile)\n" + script).scenario
            let events = ScenarioRunner.runHosted(scenario, horizon: .seconds(1), resting: .atOnce).outcome.events
            #expect(TimersInManyRunModesTests.calloutsOfLastRun(events).prefix(2) == first[...], "\(profile)")
        }
    }

    /// 20 timers every 1 ms in default and 199 other modes, only default run: after the first moves every other
    /// mode rests in one group, and a fire moves its timer twice (default's queue and the group's).
    @Test("20 timers in 200 modes: the idle modes rest in one group, and a fire costs two moves, not 200")
    func oneGroupForTheIdleModes() {
        func run(_ policy: RestingPolicy) -> (events: [String], loop: RunLoopCore) {
            let harness = VirtualHarness()
            harness.loop.restingPolicy = policy
            let modes = [ModeName.default] + (0..<199).map { ModeName("m\($0)") }
            for index in 0..<20 {
                let timer = LoopTimer(name: "t\(index)", fireDate: .zero + .nanoseconds(1), interval: .milliseconds(1))
                {
                    _ in
                }
                for mode in modes { harness.loop.add(timer, to: mode) }
            }
            _ = harness.run(.default, 0.0035)
            return (harness.eventText, harness.loop)
        }
        let eager = run(.never)
        let resting = run(.standard)
        #expect(resting.events == eager.events)
        #expect(eager.loop.timerMovesInModes == 80 * 200)
        #expect(resting.loop.restingModeCount == 199)
        #expect(resting.loop.restingGroups.count == 1)
        // Each of the 199 modes rests after 4 moves (20 timers: 4 > 20 / 8), which the first 4 fires give; every
        // later fire moves default and the group.
        #expect(resting.loop.timerMovesInModes == 4 * 200 + 76)
        #expect(resting.loop.restingGroupMoves == 76)
    }

    /// As above, each of the 199 other modes also holding a timer of its own, due in an hour: they share `t0…t19`
    /// only, and rest in one group with their own timers out of it.
    @Test("200 modes that share 20 timers, each with one of its own due later: one group, two moves a fire")
    func oneGroupWithOwnTimers() {
        func run(_ policy: RestingPolicy) -> (events: [String], loop: RunLoopCore) {
            let harness = VirtualHarness()
            harness.loop.restingPolicy = policy
            let modes = [ModeName.default] + (0..<199).map { ModeName("m\($0)") }
            for index in 0..<20 {
                let timer = LoopTimer(name: "t\(index)", fireDate: .zero + .nanoseconds(1), interval: .milliseconds(1))
                {
                    _ in
                }
                for mode in modes { harness.loop.add(timer, to: mode) }
            }
            for mode in modes.dropFirst() {
                let own = LoopTimer(name: "u.\(mode.rawValue)", fireDate: .zero + .seconds(3_600), interval: .zero) {
                    _ in
                }
                harness.loop.add(own, to: mode)
            }
            _ = harness.run(.default, 0.0035)
            return (harness.eventText, harness.loop)
        }
        let eager = run(.never)
        let resting = run(.standard)
        #expect(resting.events == eager.events)
        #expect(resting.loop.restingModeCount == 199)
        #expect(resting.loop.restingGroups.count == 1)
        #expect(resting.loop.restingGroups.values.first?.withExtras.count == 199)
        #expect(resting.loop.timerMovesInModes == 4 * 200 + 76)
        #expect(resting.loop.restingGroupMoves == 76)
    }

    @Test("a run of a resting mode wakes it (its slots moved again, its group gone with it), and the idle one rests")
    func runWakes() throws {
        let harness = VirtualHarness()
        harness.loop.restingPolicy = .atOnce
        let timer = LoopTimer(name: "a", fireDate: .zero + .milliseconds(1), interval: .milliseconds(1)) { _ in }
        harness.loop.add(timer, to: .default)
        harness.loop.add(timer, to: ModeName("B"))
        _ = harness.run(.default, 0.0025)
        #expect(harness.loop.restingModeCount == 1)
        #expect(timer.armedSlots.count == 1 && timer.restingSlots.count == 1)
        let restedIn = try #require(timer.restingSlots.first?.group)
        #expect(restedIn.members.map(\.name) == [ModeName("B")])
        _ = harness.run(ModeName("B"), 0.001)
        // B woke and its group went; default rested at the first fire in B's run, in a group of its own.
        #expect(harness.loop.modesWoken == 1)
        #expect(timer.armedSlots.map(\.mode.name) == [ModeName("B")])
        let defaultRestsIn = try #require(timer.restingSlots.first?.group)
        #expect(defaultRestsIn !== restedIn)
        #expect(defaultRestsIn.members.map(\.name) == [.default])
        #expect(harness.loop.restingGroups.count == 1)
        _ = harness.run(.default, 0.001)
        #expect(harness.loop.modesWoken == 2)
        #expect(timer.armedSlots.map(\.mode.name) == [.default])
        #expect(timer.restingSlots.first?.group.members.map(\.name) == [ModeName("B")])
    }

    @Test("a loop that goes away with resting modes takes its groups and modes with it")
    func groupsGoWithTheLoop() {
        weak var group: RestingTimerGroup?
        weak var mode: LoopModeState?
        do {
            let world = VirtualWorld(profile: .linux)
            let loop = RunLoopCore(name: "T", clock: world, waiter: world)
            loop.restingPolicy = .atOnce
            let timer = LoopTimer(name: "a", fireDate: .zero + .milliseconds(1), interval: .milliseconds(1)) { _ in }
            loop.add(timer, to: .default)
            loop.add(timer, to: ModeName("B"))
            loop.run(mode: .default, seconds: 0.0025)
            let made = loop.restingGroups.values.first
            #expect(made != nil)
            group = made
            mode = made?.members.first
            #expect(mode?.name == ModeName("B"))
        }
        #expect(group == nil)
        #expect(mode == nil)
    }

    @Test("a backend that cannot group arms has no resting mode")
    func noGroupsNoRest() {
        final class Ungrouped: LoopWaiter, @unchecked Sendable {
            let world = VirtualWorld(profile: .linux)
            var profile: PlatformProfile { world.profile }
            var engineLock: LoopLock { world.engineLock }
            var isHalted: Bool { world.isHalted }
            func makePort(_ kind: PortKind, label: String) -> PortID { world.makePort(kind, label: label) }
            func send(_ port: PortID) { world.send(port) }
            func arm(_ port: PortID, at instant: LoopInstant?) { world.arm(port, at: instant) }
            func makePortSet(label: String) -> PortSetID { world.makePortSet(label: label) }
            func insert(_ port: PortID, into set: PortSetID) { world.insert(port, into: set) }
            func remove(_ port: PortID, from set: PortSetID) { world.remove(port, from: set) }
            func wait(on set: PortSetID, poll: Bool) -> WaitOutcome { world.wait(on: set, poll: poll) }
            func poll(_ port: PortID) -> WaitOutcome { world.poll(port) }
            func schedule(at instant: LoopInstant, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
                world.schedule(at: instant, action)
            }
            func cancel(_ action: ScheduledAction) { world.cancel(action) }
            func halt(atNestingLimit limit: NestingLimit) { world.halt(atNestingLimit: limit) }
            func callerIsOutside(_ loop: RunLoopCore) -> Bool { world.callerIsOutside(loop) }
        }
        let waiter = Ungrouped()
        let loop = RunLoopCore(name: "T", clock: waiter.world, waiter: waiter)
        loop.restingPolicy = .atOnce
        let timer = LoopTimer(name: "a", fireDate: .zero + .milliseconds(1), interval: .milliseconds(1)) { _ in }
        loop.add(timer, to: .default)
        loop.add(timer, to: ModeName("B"))
        loop.run(mode: .default, seconds: 0.0035)
        #expect(timer.fireCount == 3)
        #expect(loop.restingModeCount == 0)
        #expect(loop.timerMovesInModes == 6)
    }
}
