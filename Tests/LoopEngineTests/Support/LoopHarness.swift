import LoopEngine
import Testing

/// One loop to run rules against, whatever its backend: the virtual clock (exact, instant) or real threads on the
/// real clock (the same core, asleep in the kernel). A rule written against this runs on both and must give the
/// same trace on both, as swift-nio runs one behaviour suite against its embedded and its real event loop.
protocol LoopHarness: AnyObject {
    var loop: RunLoopCore { get }
    /// A version-1 source on this harness's backend, added to `mode`.
    func makePort(_ name: String, in mode: ModeName, perform: @escaping @Sendable (Int) -> Void) -> LoopSource
    /// What another thread does `milliseconds` after the start (on the real backend: once the loop also sleeps).
    func fromAnotherThread(at milliseconds: Int, _ action: @escaping @Sendable () -> Void)
    /// Waits for whatever the other threads still do; after this the trace is complete.
    func settle()
    /// The CF-observable steps so far.
    var observableSteps: [String] { get }
}

extension LoopHarness {
    /// A version-1 source whose port is never written (docs/cfrunloop.md's "keep-alive"): it keeps a mode
    /// non-empty and never appears in a trace.
    @discardableResult
    func keepAlive(_ name: String = "K", in mode: ModeName = .default) -> LoopSource {
        makePort(name, in: mode) { _ in }
    }

    /// A version-1 source on this backend's kernel, added to `mode`.
    @discardableResult
    func port(
        _ name: String, in mode: ModeName = .default, perform: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> LoopSource {
        makePort(name, in: mode, perform: perform)
    }

    /// A version-0 source that records nothing itself (the engine traces its performs).
    @discardableResult
    func source(
        _ name: String, order: Int = 0, in mode: ModeName = .default, perform: @escaping () -> Void = {}
    ) -> LoopSource {
        let source = LoopSource(name: name, order: order, perform: perform)
        loop.add(source, to: mode)
        return source
    }

    /// An observer of `activities`, added to `mode`.
    @discardableResult
    func observer(
        _ name: String, _ activities: Activity = .allActivities, repeats: Bool = true, order: Int = 0,
        in mode: ModeName = .default, callout: @escaping (Activity) -> Void = { _ in }
    ) -> LoopObserver {
        let observer = LoopObserver(
            name: name, activities: activities, repeats: repeats, order: order, callout: callout)
        loop.add(observer, to: mode)
        return observer
    }

    /// A timer firing first `first` ms after the start (the clock's zero, on either backend), then every
    /// `interval` ms (0: once).
    @discardableResult
    func timer(
        _ name: String, at first: Int, every interval: Int = 0, in mode: ModeName = .default,
        callout: @escaping (LoopTimer) -> Void = { _ in }
    ) -> LoopTimer {
        makeTimer(name, at: first, every: interval, in: [mode], callout: callout)
    }

    /// A timer with every option of `CFRunLoopTimerCreate`, added to `modes`.
    @discardableResult
    func makeTimer(
        _ name: String, at first: Int, every interval: Int = 0, tolerance: Int = 0, order: Int = 0,
        in modes: [ModeName] = [.default], callout: @escaping (LoopTimer) -> Void = { _ in }
    ) -> LoopTimer {
        let timer = LoopTimer(
            name: name, fireDate: .zero + .milliseconds(first), interval: .milliseconds(interval),
            tolerance: .milliseconds(tolerance), order: order, callout: callout)
        for mode in modes { loop.add(timer, to: mode) }
        return timer
    }

    /// `CFRunLoopRunInMode(mode, seconds, rash)`.
    @discardableResult
    func run(_ mode: ModeName = .default, _ seconds: Double, rash: Bool = false) -> RunResult {
        loop.run(mode: mode, seconds: seconds, returnAfterSourceHandled: rash)
    }

    /// `CFRunLoopPerformBlock` (does not wake the loop).
    func block(_ name: String, _ modes: [ModeName] = [.default], _ action: @escaping () -> Void = {}) {
        loop.perform(name, modes: modes, action)
    }

    /// The trace as steps (`kind name`), without the engine-only events (sleep, wake, signal, …).
    var steps: [String] { observableSteps }
}

extension VirtualHarness: LoopHarness {
    func makePort(_ name: String, in mode: ModeName, perform: @escaping @Sendable (Int) -> Void) -> LoopSource {
        port(name, in: mode, perform: perform)
    }

    func fromAnotherThread(at milliseconds: Int, _ action: @escaping @Sendable () -> Void) {
        world.at(ms(milliseconds), action)
    }

    func settle() {}

    var observableSteps: [String] { recorder.events.filter(\.isCFObservable).map(\.step) }
}

/// The backends a shared rule runs on: the virtual clock everywhere, and real threads where the real backend
/// exists (Linux) in the real-time judges. A rule whose outcome does not depend on how long the machine takes runs
/// on each (`@Test(arguments: Backend.allCases)`); the real side only waits as long as the rule's time limits say.
/// This file is compiled in both LoopEngineTests (the deterministic suite: the virtual case only) and
/// RealTimeJudgeTests (through a link in its Support/; that target defines REAL_TIME_JUDGES, links `Rules/` too and
/// runs their shared rules on the real backend; the real side is `RealHarness+LoopHarness.swift` there).
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case virtual
    #if os(Linux) && REAL_TIME_JUDGES
    case real
    #endif

    #if os(Linux) && REAL_TIME_JUDGES
    /// In RealTimeJudgeTests, which links `Rules/` too, a rule written for both backends runs on the real one: its
    /// virtual run is the deterministic suite's.
    static let allCases: [Backend] = [.real]
    /// Both backends, for the rules written to compare them (`BothBackendsRuleTests`).
    static let both: [Backend] = [.virtual, .real]
    #endif

    /// A fresh loop on this backend (not the main thread's, on the linux profile).
    func makeHarness() -> any LoopHarness {
        switch self {
        case .virtual: VirtualHarness()
        #if os(Linux) && REAL_TIME_JUDGES
        case .real: Self.makeRealHarness()
        #endif
        }
    }

    var testDescription: String { rawValue }
}
