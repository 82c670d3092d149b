#if os(Linux)
import CLoopKernel
import CoreFoundation
import Dispatch
import Foundation
import LoopEngine
import Synchronization

/// One scenario thread on the real CFRunLoop: its items, created on that thread, and the real CF's adapter of the
/// `.loop` language (``ScenarioLoop``, `OracleHost+Actions.swift`), which performs its program, its callouts' scripts
/// and the outside events addressing its loop through the engine's one interpreter.
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

    let stopModeFunction: CFBridge.StopModeFunction?
    var sources: [String: CFRunLoopSource] = [:]
    /// Each source0's callbacks and command queue (`OracleHost+SourceCallouts.swift`).
    var customSources: [String: CustomSourceInfo] = [:]
    /// The thread's program has returned: CF's teardown of its loop at thread exit calls cancel callouts the
    /// engine does not model, and they are not recorded.
    let programEnded = LoopLocked(false)
    /// The eventfd of each port source.
    private(set) var ports: [String: Int32] = [:]
    var timers: [String: CFRunLoopTimer] = [:]
    /// Each item's callout (`Timer.fire()` runs a timer's outside the loop).
    var scripts: [String: [ScriptStep]] = [:]
    var observers: [String: CFRunLoopObserver] = [:]
    var tracer: CFRunLoopObserver?
    private var fileDescriptors: [Int32] = []
    /// Callout counts per item name (the first call is 1), which the one interpreter reads.
    let callCounts = ScriptCallCounts()
    /// The tasks other threads perform on this one (`perform … on THREAD`) and the source that serves them.
    let performer = OraclePerformer()
    /// This thread's ordered performs (`perform TASK order N`) and the timer that runs them.
    let orderedPerformer = OracleOrderedPerformer()
    /// This thread's delayed performs (`perform TASK afterDelay D`), each with its timer.
    let delayedPerformer = OracleDelayedPerformer()

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
            for mode in item.modes { add(item.name, mode, onThread: nil) }
        }
        traceCreatedModes()
    }

    private func create(_ item: ItemSpec) throws {
        let name = item.name
        let script = item.script
        scripts[name] = script
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
            let (fireDate, cfInterval) =
                item.foundationTimer.map { foundationTimerDate($0, interval: first, repeats: interval != .zero) }
                ?? (originAbsolute + first.secondsValue, interval.secondsValue)
            let timer = CFRunLoopTimerCreateWithHandler(nil, fireDate, cfInterval, 0, CFIndex(item.timerOrder)) {
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
    /// runs (the interpreter's ``runScript(_:_:activity:as:)``).
    func callout(
        _ kind: LoopEvent.Kind, _ name: String, _ script: [ScriptStep], activity: Activity?,
        before: (() -> Void)? = nil
    ) {
        // An item in another thread's loop too (`add … on THREAD`): that thread's callout (OracleHost+SharedItems).
        let performer = performingHost()
        performer.trace.record(kind, name, fact: activity.map { .activity($0) })
        before?()
        runScript(name, script, activity: activity, as: performer)
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
        delayedPerformer.invalidate()
    }
}

#endif
