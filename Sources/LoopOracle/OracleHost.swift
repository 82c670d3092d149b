#if os(Linux)
import CLoopKernel
import CoreFoundation
import Dispatch
import Foundation
import LoopEngine
import Synchronization

/// The real-CF twin of the engine's `ScriptInterpreter`: one scenario thread's items, created on that thread, and the
/// interpreter of their scripts, of the thread's program and of the outside events addressing its loop.
///
/// `@unchecked Sendable`: the item tables are filled by ``setUp(modes:)`` on the scenario thread before the host
/// is shared, and only read afterwards; CF's calls are thread-safe; the mutable state is in `LoopLocked`/`Atomic`.
final class OracleHost: @unchecked Sendable {
    let spec: ThreadSpec
    /// The scenario thread's run loop (`CFRunLoopGetCurrent()` on that thread).
    let loop: CFRunLoop
    let trace: OracleTrace
    /// `CFAbsoluteTimeGetCurrent()` at the scenario start: timers' fire dates are measured from here.
    let originAbsolute: CFAbsoluteTime

    private let stopModeFunction: CFBridge.StopModeFunction?
    private var sources: [String: CFRunLoopSource] = [:]
    /// The eventfd of each port source.
    private var ports: [String: Int32] = [:]
    private var timers: [String: CFRunLoopTimer] = [:]
    private var observers: [String: CFRunLoopObserver] = [:]
    private var tracer: CFRunLoopObserver?
    private var fileDescriptors: [Int32] = []
    /// Callout counts per item name (the first call is 1), as the engine's host counts them.
    private let calls = LoopLocked<[String: Int]>([:])
    /// The scenario's flags and owners, under the engine's rules (``ScenarioFlags``); outside threads may set them.
    private let flags: ScenarioFlags
    /// Set when the time limit passed: nothing performs actions any more.
    private let halted = Atomic<Bool>(false)
    /// Set when the program ended: outside events that have not happened yet never will.
    private let finished = Atomic<Bool>(false)
    private let outsideThreads = DispatchGroup()

    /// Must be called on the scenario thread.
    init(spec: ThreadSpec, owners: [OwnerSpec], trace: OracleTrace, originAbsolute: CFAbsoluteTime) {
        self.spec = spec
        self.flags = ScenarioFlags(owners: owners)
        self.trace = trace
        self.originAbsolute = originAbsolute
        self.loop = CFRunLoopGetCurrent()
        self.stopModeFunction = CFBridge.stopModeFunction()
    }

    deinit {
        for fd in fileDescriptors { close(fd) }
    }

    var isHalted: Bool { halted.load(ordering: .acquiring) }

    // MARK: - Set-up

    /// Registers the tracer observer in every mode in `modes`, makes the thread's common modes common, creates the
    /// items and adds them to their modes in declaration order (the engine host's order).
    func setUp(modes: [ModeName]) throws {
        let trace = self.trace
        let tracer = CFRunLoopObserverCreateWithHandler(
            nil, CFRunLoopActivity.allActivities.rawValue, true, CFIndex.min
        ) { _, activity in
            trace.record(LoopEvent.Kind(Activity(rawValue: UInt32(activity.rawValue))))
        }
        self.tracer = tracer
        for mode in modes { CFRunLoopAddObserver(loop, tracer, CFBridge.mode(mode)) }
        for mode in spec.commonModes { CFRunLoopAddCommonMode(loop, CFBridge.mode(mode)) }
        for item in spec.items { try create(item) }
        for item in spec.items {
            for mode in item.modes { add(item.name, mode) }
        }
    }

    private func create(_ item: ItemSpec) throws {
        let name = item.name
        let script = item.script
        switch item.kind {
        case .source0(let order):
            let callout = SourceCallout(host: self, name: name, kind: .source0, script: script)
            var context = CFRunLoopSourceContext()
            context.version = 0
            context.info = Unmanaged.passUnretained(callout).toOpaque()
            context.retain = { info in SourceCallout.retain(info) }
            context.release = { info in SourceCallout.release(info) }
            context.perform = { info in SourceCallout.perform(info) }
            sources[name] = CFRunLoopSourceCreate(nil, CFIndex(order), &context)
        case .port:
            let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
            guard fd >= 0 else { throw CFOracleError.setUpFailed("eventfd for port \(name): errno \(errno)") }
            fileDescriptors.append(fd)
            let callout = SourceCallout(host: self, name: name, kind: .source1, script: script, fd: fd)
            var context = CFRunLoopSourceContext1()
            context.version = 1
            context.info = Unmanaged.passUnretained(callout).toOpaque()
            context.retain = { info in SourceCallout.retain(info) }
            context.release = { info in SourceCallout.release(info) }
            context.getPort = { info in SourceCallout.port(info) }
            context.perform = { info in SourceCallout.perform(info) }
            // Linux CF reads a version-1 context through the version-0 pointer type and switches on `version`.
            let source = withUnsafeMutablePointer(to: &context) { pointer in
                CFRunLoopSourceCreate(
                    nil, 0, UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: CFRunLoopSourceContext.self))
            }
            sources[name] = source
            ports[name] = fd
        case .timer(let first, let interval, let tolerance):
            let fireDate = originAbsolute + first.secondsValue
            let timer = CFRunLoopTimerCreateWithHandler(
                nil, fireDate, interval.secondsValue, 0, CFIndex(item.timerOrder)
            ) {
                [weak self] _ in
                self?.callout(.timer, name, script, activity: nil)
            }
            CFRunLoopTimerSetTolerance(timer, tolerance.secondsValue)
            timers[name] = timer
        case .observer(let activities, let repeats, let order):
            let observer = CFRunLoopObserverCreateWithHandler(
                nil, CFOptionFlags(activities.rawValue), repeats, CFIndex(order)
            ) { [weak self] _, activity in
                self?.callout(.observer, name, script, activity: Activity(rawValue: UInt32(activity.rawValue)))
            }
            observers[name] = observer
        }
    }

    // MARK: - Callouts

    /// A callout of an item: recorded first, then the item's script runs (steps chosen by the engine's
    /// `ScriptStep.applies`).
    func callout(_ kind: LoopEvent.Kind, _ name: String, _ script: [ScriptStep], activity: Activity?) {
        trace.record(kind, name, fact: activity.map { .activity($0) })
        let call = calls.withLock { counts in
            let call = (counts[name] ?? 0) + 1
            counts[name] = call
            return call
        }
        for step in script where step.applies(call: call, activity: activity) {
            if isHalted { return }
            perform([step.action])
        }
    }

    // MARK: - Actions

    /// Performs `actions` in order; on an outside thread (`outside`) they stop once the program has ended.
    func perform(_ actions: [Action], outside: Bool = false) {
        for action in actions {
            guard mayAct(outside: outside) else { return }
            perform(action, outside: outside)
        }
    }

    private func mayAct(outside: Bool) -> Bool {
        !isHalted && !(outside && finished.load(ordering: .acquiring))
    }

    private func perform(_ action: Action, outside: Bool) {
        switch action {
        case .work(let duration):
            let (deadline, overflow) = OracleClock.now().addingReportingOverflow(max(duration.nanosecondsClamped, 0))
            OracleClock.sleep(until: overflow ? .max : deadline) { self.mayAct(outside: outside) }
        case .signal(let name):
            if let source = sources[name] { CFRunLoopSourceSignal(source) }
        case .send(let name, let count):
            if let fd = ports[name] {
                for _ in 0..<max(count, 0) { _ = eventfd_write(fd, 1) }
            }
        case .wakeUp:
            CFRunLoopWakeUp(loop)
        case .stop:
            CFRunLoopStop(loop)
        case .stopMode(let mode):
            // Scenarios using it are rejected up front when the symbol is missing.
            stopModeFunction?(loop, CFBridge.mode(mode))
        case .add(let name, let mode):
            add(name, mode)
        case .remove(let name, let mode):
            let cfMode = CFBridge.mode(mode)
            if let source = sources[name] { CFRunLoopRemoveSource(loop, source, cfMode) }
            if let timer = timers[name] { CFRunLoopRemoveTimer(loop, timer, cfMode) }
            if let observer = observers[name] { CFRunLoopRemoveObserver(loop, observer, cfMode) }
        case .invalidate(let name):
            if let source = sources[name] { CFRunLoopSourceInvalidate(source) }
            if let timer = timers[name] { CFRunLoopTimerInvalidate(timer) }
            if let observer = observers[name] { CFRunLoopObserverInvalidate(observer) }
        case .setNextFireDate(let name, let delay):
            if let timer = timers[name] {
                CFRunLoopTimerSetNextFireDate(timer, CFAbsoluteTimeGetCurrent() + delay.secondsValue)
            }
        case .performBlock(let name, let modes, let inner):
            CFRunLoopPerformBlock(loop, CFBridge.blockTag(modes)) { [weak self] in
                guard let self else { return }
                self.trace.record(.block, name)
                self.perform(inner)
            }
        case .mainQueue:
            // Only the main thread services the main queue; such scenarios are rejected up front.
            break
        case .addCommonMode(let mode):
            CFRunLoopAddCommonMode(loop, CFBridge.mode(mode))
        case .run(let call):
            // Runs from outside threads are rejected up front: they would run that thread's own loop.
            run(call)
        case .note(let text):
            trace.record(.note, fact: .note(.say(text)))
        case .setFlag(let flag):
            _ = flags.assign(.flag(flag), true)
        case .assign(let reference, let value):
            if let note = flags.assign(reference, value) { trace.record(.note, note.ownerName, fact: .note(note)) }
        case .ifHolds(let condition, let inner):
            if holds(condition) { perform(inner, outside: outside) }
        case .dealloc(let owner, let inner):
            guard let begun = flags.beginDealloc(owner) else { return }
            trace.record(.note, begun.ownerName, fact: .note(begun))
            perform(inner, outside: outside)
            if let freed = flags.endDealloc(owner), !isHalted {
                trace.record(.note, freed.ownerName, fact: .note(freed))
            }
        case .performOn, .sendTo, .start, .addOperation, .cancelOperation, .cancelAll, .setSuspended, .setLimit,
            .finishOperation,
            .waitUntilAllFinished, .detach:
            // Rejected up front (see CFOracle.unsupportedReason).
            break
        }
    }

    private func add(_ name: String, _ mode: ModeName) {
        let cfMode = CFBridge.mode(mode)
        if let source = sources[name] { CFRunLoopAddSource(loop, source, cfMode) }
        if let timer = timers[name] { CFRunLoopAddTimer(loop, timer, cfMode) }
        if let observer = observers[name] { CFRunLoopAddObserver(loop, observer, cfMode) }
    }

    /// Runs the loop. Only direct `CFRunLoopRunInMode` calls get `runStart`/`result` events; the wrappers
    /// (`CFRunLoopRun`, Foundation's `run(mode:before:)` and `run()`) make inner calls the oracle cannot see, so
    /// they are only counted for `depth` and `mode`.
    private func run(_ call: RunCall) {
        switch call {
        case .inMode(let mode, let seconds, let rash):
            trace.beginRun(mode, runStart: .run(LoopEvent.RunLimit(seconds: seconds), returnAfterSourceHandled: rash))
            let result = CFRunLoopRunInMode(CFBridge.mode(mode), seconds, rash)
            trace.endRun(result: CFBridge.result(result))
        case .untilStopped:
            trace.beginRun(.default, runStart: nil)
            CFRunLoopRun()
            trace.endRun(result: nil)
        case .foundation(let mode, let before):
            let limit = date(before)
            trace.beginRun(mode, runStart: nil)
            let ran = RunLoop.current.run(mode: CFBridge.foundationMode(mode), before: limit)
            trace.endRun(result: nil)
            returned(ran)
        case .foundationUntil(let limit):
            let date = date(limit)
            trace.beginRun(.default, runStart: nil)
            RunLoop.current.run(until: date)
            trace.endRun(result: nil)
        case .acceptInput(let mode, let before):
            let limit = date(before)
            trace.beginRun(mode, runStart: nil)
            RunLoop.current.acceptInput(forMode: CFBridge.foundationMode(mode).rawValue, before: limit)
            trace.endRun(result: nil)
        case .foundationForever:
            trace.beginRun(.default, runStart: nil)
            RunLoop.current.run()
            trace.endRun(result: nil)
        case .whileNot(let flag, let mode):
            trace.beginRun(mode, runStart: nil)
            while !flags.isSet(flag) && !isHalted {
                // The idiom ignores the result; an empty mode would make it spin, so stop as the engine does.
                let ran = RunLoop.current.run(mode: CFBridge.foundationMode(mode), before: .distantFuture)
                returned(ran)
                guard ran else { break }
            }
            trace.endRun(result: nil)
        case .whileHolds(let condition, let mode):
            trace.beginRun(mode, runStart: nil)
            while holds(condition) && !isHalted {
                let ran = RunLoop.current.run(mode: CFBridge.foundationMode(mode), before: .distantFuture)
                returned(ran)
                guard ran else { break }
            }
            trace.endRun(result: nil)
        }
    }

    /// Tests `condition` by the engine's rules, recording the bad accesses the test makes.
    private func holds(_ condition: Condition) -> Bool {
        var notes: [LoopEvent.Note] = []
        let result = flags.holds(condition, notes: &notes)
        if !isHalted { for note in notes { trace.record(.note, note.ownerName, fact: .note(note)) } }
        return result
    }

    /// The Bool a `run(mode:before:)` of the program returned (recorded outside the run it made).
    private func returned(_ value: Bool) {
        if isHalted { return }
        trace.record(.note, fact: .returned(value))
    }

    /// The Foundation date a scenario's date stands for, made at the call as the program would make it.
    private func date(_ date: FoundationDate) -> Date {
        switch date {
        case .fromNow(let delay): Date(timeIntervalSinceNow: delay.secondsValue)
        case .sinceStart(let time): Date(timeIntervalSinceReferenceDate: originAbsolute + time.secondsValue)
        case .distantPast: .distantPast
        case .distantFuture: .distantFuture
        }
    }

    // MARK: - Outside events and the end

    /// Starts one thread per distinct time of `events`; each sleeps until the scenario start plus that time
    /// (monotonic clock), then performs the events of that time in declaration order against this loop.
    func startOutside(_ events: [OutsideEvent]) {
        for group in OutsideEvent.groupedByTime(events) {
            let (deadline, overflow) = trace.origin.addingReportingOverflow(max(group.time.nanosecondsClamped, 0))
            let actions = group.events.flatMap(\.actions)
            outsideThreads.enter()
            let thread = Thread { [self] in
                defer { outsideThreads.leave() }
                guard OracleClock.sleep(until: overflow ? .max : deadline, while: { self.mayAct(outside: true) })
                else { return }
                perform(actions, outside: true)
            }
            thread.name = "loopviz oracle: outside \(spec.name) at \(LoopInstant.zero + group.time)"
            thread.start()
        }
    }

    /// Called on the scenario thread when its program has ended: cancels the outside events still to come, waits
    /// for the outside threads, and invalidates every item so nothing outlives the scenario.
    func finish() {
        finished.store(true, ordering: .releasing)
        _ = outsideThreads.wait(timeout: .now() + .seconds(2))
        invalidateAll()
    }

    /// The time limit passed: stop performing actions and take the items away so that even Foundation's `run()`
    /// can return. Returns the trace as it was at this moment.
    func halt() -> [LoopEvent] {
        halted.store(true, ordering: .releasing)
        let events = trace.events
        invalidateAll()
        return events
    }

    private func invalidateAll() {
        for source in sources.values { CFRunLoopSourceInvalidate(source) }
        for timer in timers.values { CFRunLoopTimerInvalidate(timer) }
        for observer in observers.values { CFRunLoopObserverInvalidate(observer) }
        if let tracer { CFRunLoopObserverInvalidate(tracer) }
    }
}

/// What a source's `context.info` points at: the item and a way back to its host from CF's C callbacks.
/// CF retains it through the context's retain/release callbacks for as long as the source lives.
final class SourceCallout {
    weak var host: OracleHost?
    let name: String
    /// `.source0` or `.source1`.
    let kind: LoopEvent.Kind
    let script: [ScriptStep]
    /// The eventfd of a port source (-1 for version 0).
    let fd: Int32

    init(host: OracleHost, name: String, kind: LoopEvent.Kind, script: [ScriptStep], fd: Int32 = -1) {
        self.host = host
        self.name = name
        self.kind = kind
        self.script = script
        self.fd = fd
    }

    private static func from(_ info: UnsafeRawPointer) -> SourceCallout {
        Unmanaged<SourceCallout>.fromOpaque(info).takeUnretainedValue()
    }

    static func retain(_ info: UnsafeRawPointer?) -> UnsafeRawPointer? {
        if let info { _ = Unmanaged<SourceCallout>.fromOpaque(info).retain() }
        return info
    }

    static func release(_ info: UnsafeRawPointer?) {
        if let info { Unmanaged<SourceCallout>.fromOpaque(info).release() }
    }

    static func port(_ info: UnsafeMutableRawPointer?) -> Int32 {
        guard let info else { return -1 }
        return from(info).fd
    }

    static func perform(_ info: UnsafeMutableRawPointer?) {
        guard let info else { return }
        let callout = from(info)
        callout.host?.callout(callout.kind, callout.name, callout.script, activity: nil)
    }
}
#endif
