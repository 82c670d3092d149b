#if os(Linux)
import Foundation
import Testing

/// The probe behind docs/cfrunloop.md §9.5, kept: what this machine's Foundation does with `Timer.fire()`, an
/// interval of 0 or less, and the two convenience initialisers' fire dates. No run loop runs: each fact is read
/// from the timer at once (dates with a wide margin, the machine may be loaded).
@Suite("§9.5 Foundation's timers on this machine")
struct FoundationTimerProbeTests {
    /// How often a timer's block ran.
    final class Calls: @unchecked Sendable {
        // @unchecked Sendable: only the test's own thread touches it (fire() calls the block synchronously).
        var count = 0
    }

    @Test("fire() calls a repeating timer's block at once; the timer stays valid and its date does not move")
    func fireKeepsARepeatingTimer() {
        let calls = Calls()
        let date = Date(timeIntervalSinceNow: 10)
        let timer = Timer(fire: date, interval: 1, repeats: true) { _ in calls.count += 1 }
        RunLoop.current.add(timer, forMode: .default)
        defer { timer.invalidate() }
        timer.fire()
        #expect(calls.count == 1)
        #expect(timer.isValid)
        #expect(timer.fireDate == date)
    }

    @Test("fire() invalidates a one-shot timer after its block, and does nothing to an invalid one")
    func fireInvalidatesAOneShotTimer() {
        let calls = Calls()
        let timer = Timer(fire: Date(timeIntervalSinceNow: 10), interval: 0, repeats: false) { _ in calls.count += 1 }
        RunLoop.current.add(timer, forMode: .default)
        timer.fire()
        #expect(calls.count == 1)
        #expect(!timer.isValid)
        timer.fire()
        #expect(calls.count == 1)
    }

    @Test("fire() calls a timer that is in no run loop all the same")
    func fireCallsATimerInNoLoop() {
        let calls = Calls()
        let timer = Timer(fire: Date(timeIntervalSinceNow: 10), interval: 1, repeats: true) { _ in calls.count += 1 }
        defer { timer.invalidate() }
        timer.fire()
        #expect(calls.count == 1)
    }

    @Test("an interval of 0 or less reads 0: the timer does not repeat; a non-repeating timer's interval reads 0")
    func nonPositiveIntervalReadsZero() {
        let negative = Timer(fire: Date(), interval: -0.2, repeats: true) { _ in }
        let oneShot = Timer(fire: Date(), interval: 0.2, repeats: false) { _ in }
        let scheduled = Timer.scheduledTimer(withTimeInterval: -1, repeats: true) { _ in }
        defer { scheduled.invalidate() }
        #expect(negative.timeInterval == 0)
        #expect(oneShot.timeInterval == 0)
        #expect(scheduled.timeInterval == 0)
        // Dated one (negative) interval from now: in the past, so it fires at once.
        #expect(scheduled.fireDate.timeIntervalSinceNow < -0.5)
    }

    @Test("tolerance reads 0 on Linux, whatever was set")
    func toleranceReadsZero() {
        let timer = Timer(fire: Date(), interval: 0.2, repeats: true) { _ in }
        timer.tolerance = 0.05
        #expect(timer.tolerance == 0)
    }

    @Test("Timer(timeInterval:repeats:block:) is dated at its creation, scheduledTimer one interval ahead")
    func timeIntervalInitialiserFiresAtOnce() {
        let created = Date()
        let plain = Timer(timeInterval: 0.5, repeats: false) { _ in }
        let scheduled = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: false) { _ in }
        defer { scheduled.invalidate() }
        #expect(plain.fireDate.timeIntervalSince(created) < 0.25)
        #expect(scheduled.fireDate.timeIntervalSince(created) > 0.25)
    }

    @Test("a repeating Timer(timeInterval:) is dated at its creation and keeps its interval; a negative one reads 0")
    func repeatingTimeIntervalInitialiser() {
        let created = Date()
        let plain = Timer(timeInterval: 0.5, repeats: true) { _ in }
        let negative = Timer(timeInterval: -1, repeats: true) { _ in }
        let scheduled = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { _ in }
        defer { scheduled.invalidate() }
        #expect(plain.timeInterval == 0.5)
        #expect(plain.fireDate.timeIntervalSince(created) < 0.25)
        #expect(negative.timeInterval == 0)
        #expect(abs(negative.fireDate.timeIntervalSince(created)) < 0.25)
        #expect(scheduled.timeInterval == 0.5)
        #expect(scheduled.fireDate.timeIntervalSince(created) > 0.25)
    }
}
#endif
