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
/// `@unchecked Sendable`: the item tables are filled by ``setUp()`` on the scenario thread before the host
/// is shared, and only read afterwards; CF's calls are thread-safe; the mutable state is in `LoopLocked`/`Atomic`.
final class OracleHost: @unchecked Sendable {
    let spec: ThreadSpec
    /// The scenario thread's run loop (`CFRunLoopGetCurrent()` on that thread).
    let loop: CFRunLoop
    let trace: OracleTrace
    unowned let world: OracleWorld

    /// The scenario thread's `RunLoop` (Foundation's queries are asked of it, from any thread).
    let runLoop: RunLoop
    /// The modes the tracer observes: only those that exist, kept up to date after every action and before every
    /// run. Adding the tracer to a mode creates it, and a mode that exists changes what CF does (a run of a mode
    /// nothing created returns `finished` at once; `CFRunLoopCopyAllModes` lists it), so the tracer must never be
    /// what made a mode (see `OracleHost+Query.swift`).
    let tracedModes = LoopLocked<Set<ModeName>?>(nil)

    private let stopModeFunction: CFBridge.StopModeFunction?
    var sources: [String: CFRunLoopSource] = [:]
    /// Each source0's callbacks and command queue (`OracleHost+SourceCallouts.swift`).
    var customSources: [String: CustomSourceInfo] = [:]
    /// The thread's program has returned: CF's teardown of its loop at thread exit calls cancel callouts the
    /// engine does not model, and they are not recorded.
    let programEnded = LoopLocked(false)
    /// The eventfd of each port source.
    private var ports: [String: Int32] = [:]
    var timers: [String: CFRunLoopTimer] = [:]
    var observers: [String: CFRunLoopObserver] = [:]
    var tracer: CFRunLoopObserver?
    private var fileDescriptors: [Int32] = []
    /// Callout counts per item name (the first call is 1), as the engine's host counts them.
    private let calls = LoopLocked<[String: Int]>([:])
    /// The tasks other threads perform on this one (`perform … on THREAD`) and the source that serves them.
    let performer = OraclePerformer()
    /// This thread's ordered performs (`perform TASK order N`) and the timer that runs them.
    let orderedPerformer = OracleOrderedPerformer()

    /// Must be called on the scenario thread.
    init(spec: ThreadSpec, world: OracleWorld) {
        self.spec = spec
        self.world = world
        self.trace = OracleTrace(loop: spec.name, log: world.log)
        self.loop = CFRunLoopGetCurrent()
        self.runLoop = RunLoop.current
        self.stopModeFunction = CFBridge.stopModeFunction()
    }

    deinit {
        for fd in fileDescriptors { close(fd) }
    }

    var isHalted: Bool { world.isHalted }
    /// `CFAbsoluteTimeGetCurrent()` at the scenario start: timers' fire dates are measured from here.
    var originAbsolute: CFAbsoluteTime { world.originAbsolute }

    /// Whether this thread has an item called `name`.
    func hasItem(_ name: String) -> Bool {
        sources[name] != nil || timers[name] != nil || observers[name] != nil
    }

    /// The CF name of a scenario mode on this loop (see ``OracleWorld/mainModePrefix``).
    func cfMode(_ name: ModeName) -> CFRunLoopMode {
        CFBridge.mode(name, prefix: spec.isMain ? world.mainModePrefix : "")
    }

    /// The scenario's name of a CF mode of this loop: ``cfMode(_:)`` undone.
    func scenarioMode(_ name: CFString) -> ModeName {
        let mode = CFBridge.modeName(name)
        let prefix = spec.isMain ? world.mainModePrefix : ""
        guard !prefix.isEmpty, mode.rawValue.hasPrefix(prefix) else { return mode }
        return ModeName(String(mode.rawValue.dropFirst(prefix.count)))
    }

    func foundationMode(_ name: ModeName) -> RunLoop.Mode {
        CFBridge.foundationMode(name, prefix: spec.isMain ? world.mainModePrefix : "")
    }

    // MARK: - Set-up

    /// Makes the tracer observer (added to each mode once the mode exists: ``tracedModes``), makes the thread's common modes common, creates the
    /// items and adds them to their modes in declaration order (the engine host's order).
    func setUp() throws {
        let trace = self.trace
        let tracer = CFRunLoopObserverCreateWithHandler(
            nil, CFRunLoopActivity.allActivities.rawValue, true, CFIndex.min
        ) { _, activity in
            trace.record(LoopEvent.Kind(Activity(rawValue: UInt32(activity.rawValue))))
        }
        self.tracer = tracer
        tracedModes.withLock { $0 = [] }
        for mode in spec.commonModes { CFRunLoopAddCommonMode(loop, cfMode(mode)) }
        orderedPerformer.noteCommon(spec.commonModes)
        for item in spec.items { try create(item) }
        for item in spec.items {
            for mode in item.modes { add(item.name, mode) }
        }
        traceCreatedModes()
    }

    private func create(_ item: ItemSpec) throws {
        let name = item.name
        let script = item.script
        switch item.kind {
        case .source0(let order):
            sources[name] = makeSource0(name, order: order, script: script, callouts: item.sourceCallouts)
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

    /// A callout of an item: recorded first, then `before` (a custom source's commands), then the item's script
    /// runs (steps chosen by the engine's `ScriptStep.applies`).
    func callout(
        _ kind: LoopEvent.Kind, _ name: String, _ script: [ScriptStep], activity: Activity?,
        before: (() -> Void)? = nil
    ) {
        trace.record(kind, name, fact: activity.map { .activity($0) })
        before?()
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
        !isHalted && !(outside && world.isFinished)
    }

    private func perform(_ action: Action, outside: Bool) {
        defer { traceCreatedModes() }
        switch action {
        case .work(let duration):
            let (deadline, overflow) = OracleClock.now().addingReportingOverflow(max(duration.nanosecondsClamped, 0))
            OracleClock.sleep(until: overflow ? .max : deadline) { self.mayAct(outside: outside) }
        case .signal(let name):
            if let source = owner(of: name).sources[name] { CFRunLoopSourceSignal(source) }
        case .send(let name, let count):
            if let fd = owner(of: name).ports[name] {
                for _ in 0..<max(count, 0) { _ = eventfd_write(fd, 1) }
            }
        case .wakeUp:
            CFRunLoopWakeUp(loop)
        case .stop:
            CFRunLoopStop(loop)
        case .stopMode(let mode):
            // Scenarios using it are rejected up front when the symbol is missing.
            stopModeFunction?(loop, cfMode(mode))
        case .add(let name, let mode):
            owner(of: name).add(name, mode)
        case .remove(let name, let mode):
            owner(of: name).remove(name, mode)
        case .invalidate(let name):
            let owner = owner(of: name)
            if let source = owner.sources[name] { CFRunLoopSourceInvalidate(source) }
            owner.customSources[name]?.dropCommands()
            if let timer = owner.timers[name] { CFRunLoopTimerInvalidate(timer) }
            if let observer = owner.observers[name] { CFRunLoopObserverInvalidate(observer) }
        case .setNextFireDate(let name, let delay):
            if let timer = owner(of: name).timers[name] {
                CFRunLoopTimerSetNextFireDate(timer, CFAbsoluteTimeGetCurrent() + delay.secondsValue)
            }
        case .performBlock(let name, let modes, let inner):
            let tag = CFBridge.blockTag(modes, prefix: spec.isMain ? world.mainModePrefix : "")
            CFRunLoopPerformBlock(loop, tag) { [weak self] in
                guard let self else { return }
                self.trace.record(.block, name)
                self.perform(inner)
            }
        case .mainQueue(let name, let inner):
            // DispatchQueue.main.async from any thread: libdispatch's main queue, which only the main thread's loop
            // drains (in a common mode). Scenarios without a main thread are rejected up front.
            guard let main = world.mainHost else { break }
            DispatchQueue.main.async { [weak main] in
                guard let main, !main.isHalted else { return }
                main.trace.record(.mainQueue, name)
                main.perform(inner)
            }
        case .addCommonMode(let mode):
            CFRunLoopAddCommonMode(loop, cfMode(mode))
            orderedPerformer.noteCommon([mode])
        case .run(let call):
            // Runs from outside threads are rejected up front: they would run that thread's own loop.
            traceCreatedModes()
            run(call)
        case .note(let text):
            trace.record(.note, fact: .note(.say(text)))
        case .query(let question):
            ask(question)
        case .setFlag(let flag):
            _ = world.flags.assign(.flag(flag), true)
        case .assign(let reference, let value):
            if let note = world.flags.assign(reference, value) {
                trace.record(.note, note.ownerName, fact: .note(note))
            }
        case .ifHolds(let condition, let inner):
            if holds(condition) { perform(inner, outside: outside) }
        case .dealloc(let owner, let inner):
            guard let begun = world.flags.beginDealloc(owner) else { return }
            trace.record(.note, begun.ownerName, fact: .note(begun))
            perform(inner, outside: outside)
            if let freed = world.flags.endDealloc(owner), !isHalted {
                trace.record(.note, freed.ownerName, fact: .note(freed))
            }
        case .performOn(let thread, let task, let wait, let inner):
            performOn(thread, task, wait: wait, inner)
        case .performOrdered(let task, let target, let order, let modes, let inner):
            performOrdered(task, target: target, order: order, modes: modes, inner)
        case .cancelPerforms(let task, let target):
            cancelOrderedPerforms(task: task, target: target)
        case .detach(let task, let inner):
            world.detach(task, inner)
        case .sendTo(let thread, let port, let count):
            // A port of that thread itself, not of another (the parser made it that thread's item); nothing while
            // that thread has not started.
            if let fd = world.host(named: thread)?.ports[port] {
                for _ in 0..<max(count, 0) { _ = eventfd_write(fd, 1) }
            }
        case .start(let thread):
            world.start(thread)
        case .post(let command, let source):
            post(command, to: source)
        case .wakeUpThread(let thread):
            wakeUp(thread)
        case .addOperation, .cancelOperation, .cancelAll, .setSuspended, .setLimit,
            .finishOperation, .waitUntilAllFinished:
            // Rejected up front (see CFOracle.unsupportedReason).
            break
        }
    }

    func owner(of name: String) -> OracleHost { world.owner(of: name, asker: self) }

    private func add(_ name: String, _ mode: ModeName) {
        let tag = cfMode(mode)
        if let source = sources[name] { CFRunLoopAddSource(loop, source, tag) }
        if let timer = timers[name] { CFRunLoopAddTimer(loop, timer, tag) }
        if let observer = observers[name] { CFRunLoopAddObserver(loop, observer, tag) }
    }

    private func remove(_ name: String, _ mode: ModeName) {
        let tag = cfMode(mode)
        if let source = sources[name] { CFRunLoopRemoveSource(loop, source, tag) }
        if let timer = timers[name] { CFRunLoopRemoveTimer(loop, timer, tag) }
        if let observer = observers[name] { CFRunLoopRemoveObserver(loop, observer, tag) }
    }

    /// Runs the loop. Only direct `CFRunLoopRunInMode` calls get `runStart`/`result` events; the wrappers
    /// (`CFRunLoopRun`, Foundation's `run(mode:before:)` and `run()`) make inner calls the oracle cannot see, so
    /// they are only counted for `depth` and `mode`.
    private func run(_ call: RunCall) {
        switch call {
        case .inMode(let mode, let seconds, let rash):
            trace.beginRun(mode, runStart: .run(LoopEvent.RunLimit(seconds: seconds), returnAfterSourceHandled: rash))
            let result = CFRunLoopRunInMode(cfMode(mode), seconds, rash)
            trace.endRun(result: CFBridge.result(result))
        case .untilStopped:
            trace.beginRun(.default, runStart: nil)
            CFRunLoopRun()
            trace.endRun(result: nil)
        case .foundation(let mode, let before):
            let limit = date(before)
            trace.beginRun(mode, runStart: nil)
            let ran = RunLoop.current.run(mode: foundationMode(mode), before: limit)
            trace.endRun(result: nil)
            returned(ran)
        case .foundationUntil(let limit):
            let date = date(limit)
            trace.beginRun(.default, runStart: nil)
            if spec.isMain {
                // Foundation's own loop (corelibs' `run(until:)`), which a halt can end: on the main thread the
                // default mode is never empty, so taking the items away would not end it.
                while !isHalted && RunLoop.current.run(mode: .default, before: date) && date.timeIntervalSinceNow > 0 {}
            } else {
                RunLoop.current.run(until: date)
            }
            trace.endRun(result: nil)
        case .acceptInput(let mode, let before):
            let limit = date(before)
            trace.beginRun(mode, runStart: nil)
            RunLoop.current.acceptInput(forMode: foundationMode(mode).rawValue, before: limit)
            trace.endRun(result: nil)
        case .foundationForever:
            trace.beginRun(.default, runStart: nil)
            if spec.isMain {
                // Foundation's own loop (corelibs' `run()`), which a halt can end (see `foundationUntil`).
                while !isHalted && RunLoop.current.run(mode: .default, before: .distantFuture) {}
            } else {
                RunLoop.current.run()
            }
            trace.endRun(result: nil)
        case .whileNot(let flag, let mode):
            trace.beginRun(mode, runStart: nil)
            while !world.flags.isSet(flag) && !isHalted {
                // The idiom ignores the result; an empty mode would make it spin, so stop as the engine does.
                let ran = RunLoop.current.run(mode: foundationMode(mode), before: .distantFuture)
                returned(ran)
                guard ran else { break }
            }
            trace.endRun(result: nil)
        case .whileHolds(let condition, let mode):
            trace.beginRun(mode, runStart: nil)
            while holds(condition) && !isHalted {
                let ran = RunLoop.current.run(mode: foundationMode(mode), before: .distantFuture)
                returned(ran)
                guard ran else { break }
            }
            trace.endRun(result: nil)
        }
    }

    /// Tests `condition` by the engine's rules, recording the bad accesses the test makes.
    private func holds(_ condition: Condition) -> Bool {
        var notes: [LoopEvent.Note] = []
        let result = world.flags.holds(condition, notes: &notes)
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
            world.outsideThreads.enter()
            let thread = Thread { [self] in
                defer { world.outsideThreads.leave() }
                OracleScheduling.raiseCurrentThread(to: OracleScheduling.scenarioPriority)
                guard OracleClock.sleep(until: overflow ? .max : deadline, while: { self.mayAct(outside: true) })
                else { return }
                perform(actions, outside: true)
            }
            thread.name = "loopviz oracle: outside \(spec.name) at \(LoopInstant.zero + group.time)"
            thread.start()
        }
    }

    /// Takes every item of this thread away (the end of the scenario, or a halt).
    func invalidateAll() {
        for source in sources.values { CFRunLoopSourceInvalidate(source) }
        for timer in timers.values { CFRunLoopTimerInvalidate(timer) }
        for observer in observers.values { CFRunLoopObserverInvalidate(observer) }
        if let tracer { CFRunLoopObserverInvalidate(tracer) }
        performer.invalidate()
        orderedPerformer.invalidate()
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
    /// What the callout does after the script (the perform source runs its queued tasks).
    let body: (@Sendable () -> Void)?

    init(
        host: OracleHost, name: String, kind: LoopEvent.Kind, script: [ScriptStep], fd: Int32 = -1,
        body: (@Sendable () -> Void)? = nil
    ) {
        self.host = host
        self.name = name
        self.kind = kind
        self.script = script
        self.fd = fd
        self.body = body
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
        callout.body?()
    }
}
#endif
