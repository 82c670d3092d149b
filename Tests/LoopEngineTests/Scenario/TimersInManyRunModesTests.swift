import LoopEngine
import SnapshotSupport
import Testing

/// Timers in many modes that the file runs: a fire moves the timer in each of them and re-arms each mode's timer
/// port, as CF's `__CFRepositionTimerInMode` does, and the kernel's answer to a later wait on such a mode depends
/// on every one of those armings (docs/cfrunloop.md §15; docs/limits.md, "Still open"). These golden traces pin
/// what the eager re-arming gives, so that any cheaper scheme (a lazy re-arm, a lazily sorted queue) must give
/// the same, tie cases included.
@Suite("timers in many modes that the file runs")
struct TimersInManyRunModesTests {
    /// Five timers in up to six modes, all run (one nested in a callout), with tolerance, equal deadlines, a
    /// one-shot timer, and a port written by a callout in a mode whose timer port had expired unread.
    static let manyRunModes = """
        thread T
          port p in default, M1, M2, M3
          timer a at 1ms every 1ms in default, M1, M2, M3, M4, M5
            call 2: run M2 for 1500us
            call 4: send p
          timer b at 1ms every 2ms tolerance 500us in default, M1, M3, M5
          timer c at 3ms every 1500us in M1, M2, M4
          timer d at 2ms every 1ms in default, M2, M4, M5
          timer e at 2ms in M3, M5
          run default for 4ms
          run M1 for 3ms
          run M3 for 2ms
          run M4 for 2ms
          run M5 for 2ms
          run M2 for 2ms
          run default for 2ms
        """

    /// Mode B's timer port is re-armed by fires of `a` in A's run (B's earliest deadline moves from 1 ms to 2 ms,
    /// then to `b`'s 3 ms) and is due again before B runs; `a`'s third callout writes `p` (in B only) at 3 ms,
    /// the deadline B's port was last armed for. Linux: the port keeps the place of its first expiry (1 ms), ahead
    /// of `p`. Darwin: an expired port is ordered by its deadline, or the time of its last arming if that came
    /// later, then by that arming (2 ms, before the write at 3 ms), so the timer port comes first too; a scheme
    /// that armed B's port only when B runs would order it after `p`.
    static let expiredBeforeTheRun = """
        thread T
          port p in B
          timer a at 1ms every 1ms in A, B
            call 3: send p
          timer b at 3ms in B
          run A for 5ms
          run B for 1ms
        """

    /// B's timer port expired unread at 1 ms and is re-armed at every fire of `a` in A's run, last for 4 ms, which
    /// has not come when B runs at 3.5 ms: linux's wait passes the stale entry by and takes `p` (written at 3 ms),
    /// then the timer port at 4 ms; darwin's port was never on the list.
    static let reArmedNotYetDue = """
        thread T
          port p in B
          timer a at 1ms every 1ms in A, B
            call 3: send p
          run A for 3500us
          run B for 1ms
        """

    static let cases: [(name: String, script: String)] = [
        ("many-run-modes", manyRunModes), ("expired-before-the-run", expiredBeforeTheRun),
        ("re-armed-not-yet-due", reArmedNotYetDue),
    ]

    static func trace(_ name: String, profile: String) throws -> [LoopEvent] {
        let script = try #require(cases.first { $0.name == name }).script
        let scenario = try ScenarioParser.parse("profile \(profile)\n" + script).scenario
        return ScenarioRunner.run(scenario, horizon: .seconds(1)).events
    }

    @Test(
        "each case gives its golden whole trace on each profile",
        arguments: ["many-run-modes", "expired-before-the-run", "re-armed-not-yet-due"], ["linux", "darwin"])
    func goldenTrace(_ name: String, _ profile: String) throws {
        let events = try Self.trace(name, profile: profile)
        Snapshot.assertMatches(TextTraceFormatter.format(events), "TimersInManyRunModes/\(name)-\(profile).trace")
    }

    /// The callouts of B's run, in order.
    static func calloutsOfLastRun(_ events: [LoopEvent]) -> [String] {
        let start = events.lastIndex { $0.kind == .runStart } ?? 0
        return events[start...].filter { $0.kind.isCallout }.compactMap(\.name)
    }

    @Test(
        "a timer port re-armed while its mode did not run, due before a later write, comes before that write",
        arguments: ["linux", "darwin"])
    func expiredPortComesFirst(_ profile: String) throws {
        let callouts = Self.calloutsOfLastRun(try Self.trace("expired-before-the-run", profile: profile))
        #expect(callouts.prefix(2) == ["b", "p"])
    }

    @Test("linux: a timer port re-armed for a deadline not yet come is passed by, the later write comes first")
    func notYetDuePassedBy() throws {
        let callouts = Self.calloutsOfLastRun(try Self.trace("re-armed-not-yet-due", profile: "linux"))
        #expect(callouts.prefix(2) == ["p", "a"])
    }
}
