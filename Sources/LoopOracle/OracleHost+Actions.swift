#if os(Linux)
import CLoopKernel
import CoreFoundation
import Dispatch
import Foundation
import LoopEngine
import Synchronization

/// The real CFRunLoop's adapter of the `.loop` language (``ScenarioLoop``): what each action does to the scenario
/// thread's `CFRunLoop`, with the very CF (or Foundation) call it names. What an action means - flags, conditions,
/// owners, counts, which thread's item it reaches - is the engine's one interpreter (`ScenarioLoop+Interpreter.swift`
/// in LoopEngine); the oracle adds nothing of its own to it.
extension OracleHost: ScenarioLoop {
    // MARK: - The scenario around the loop

    var flags: ScenarioFlags { world.flags }

    func thread(named name: String) -> OracleHost? {
        world.host(named: name)
    }

    /// A started thread's loop exists once its thread has made it (`OracleWorld.start` waits for that).
    func hasLoop(named name: String) -> Bool {
        world.loopHost(named: name) != nil
    }

    func isThisThread(_ name: String) -> Bool {
        world.loopHost(named: name) === self
    }

    func firstThread(where test: (OracleHost) -> Bool) -> OracleHost? {
        world.firstHost(where: test)
    }

    // MARK: - The interpreter's hooks

    func mayPerform(outside: Bool) -> Bool {
        mayAct(outside: outside)
    }

    /// On an outside thread (`outside`) actions stop once the program has ended.
    func mayAct(outside: Bool) -> Bool {
        !isHalted && !(outside && world.isFinished)
    }

    /// An action may have made a mode: the tracer must see it.
    func didPerform() {
        traceCreatedModes()
    }

    func record(_ kind: LoopEvent.Kind, _ name: String?, fact: LoopEvent.Fact?) {
        trace.record(kind, name, fact: fact)
    }

    /// The engine's explanations are not CF's doing: nothing is recorded.
    func diagnose(_ note: LoopEvent.Note) {}

    // MARK: - Items and modes

    /// `CFRunLoopAddSource` (or `AddTimer`, `AddObserver`), into another thread's loop for `add … on THREAD`:
    /// CF applies its own rule there (a timer or an observer of another loop is not added).
    func add(_ name: String, _ mode: ModeName, onThread thread: String?) {
        guard let target = thread.map({ world.loopHost(named: $0) }) ?? self else { return }
        let tag = target.cfMode(mode)
        if let source = sources[name] { CFRunLoopAddSource(target.loop, source, tag) }
        if let timer = timers[name] { CFRunLoopAddTimer(target.loop, timer, tag) }
        if let observer = observers[name] { CFRunLoopAddObserver(target.loop, observer, tag) }
        // The add may have made the mode there: the other loop's tracer must see it (a thread still making its
        // items traces every mode there once they are made).
        if let thread, world.host(named: thread) != nil { target.traceCreatedModes() }
    }

    func remove(_ name: String, _ mode: ModeName, onThread thread: String?) {
        guard let target = thread.map({ world.loopHost(named: $0) }) ?? self else { return }
        let tag = target.cfMode(mode)
        if let source = sources[name] { CFRunLoopRemoveSource(target.loop, source, tag) }
        if let timer = timers[name] { CFRunLoopRemoveTimer(target.loop, timer, tag) }
        if let observer = observers[name] { CFRunLoopRemoveObserver(target.loop, observer, tag) }
    }

    func invalidate(_ name: String) {
        if let source = sources[name] { CFRunLoopSourceInvalidate(source) }
        customSources[name]?.dropCommands()
        if let timer = timers[name] { CFRunLoopTimerInvalidate(timer) }
        if let observer = observers[name] { CFRunLoopObserverInvalidate(observer) }
    }

    func signal(_ name: String) {
        if let source = sources[name] { CFRunLoopSourceSignal(source) }
    }

    func send(_ name: String) {
        if let fd = ports[name] { _ = eventfd_write(fd, 1) }
    }

    func setNextFireDate(_ name: String, after delay: Duration) {
        if let timer = timers[name] {
            CFRunLoopTimerSetNextFireDate(timer, CFAbsoluteTimeGetCurrent() + delay.secondsValue)
        }
    }

    /// `CFRunLoopTimerIsValid`, then `CFRunLoopTimerDoesRepeat`: what Foundation's `Timer.fire()` reads.
    func timerRepeats(_ name: String) -> Bool? {
        guard let timer = timers[name], CFRunLoopTimerIsValid(timer) else { return nil }
        return CFRunLoopTimerDoesRepeat(timer)
    }

    func script(of name: String) -> [ScriptStep] {
        scripts[name] ?? []
    }

    /// `Timer.fire()` ends with `invalidate()` when the timer's interval is 0: `CFRunLoopTimerInvalidate`.
    func invalidateAfterFire(_ name: String) {
        if let timer = timers[name] { CFRunLoopTimerInvalidate(timer) }
    }

    func post(_ command: String, to source: String) {
        customSources[source]?.post(command)
    }

    func addCommonMode(_ mode: ModeName) {
        CFRunLoopAddCommonMode(loop, cfMode(mode))
        orderedPerformer.noteCommon([mode])
    }

    // MARK: - The loop

    func work(_ duration: Duration, outside: Bool) {
        let (deadline, overflow) = OracleClock.now().addingReportingOverflow(max(duration.nanosecondsClamped, 0))
        OracleClock.sleep(until: overflow ? .max : deadline) { self.mayAct(outside: outside) }
    }

    func wakeUp() {
        CFRunLoopWakeUp(loop)
    }

    func wakeUp(thread: String) {
        if let target = world.loopHost(named: thread) { CFRunLoopWakeUp(target.loop) }
    }

    func stop() {
        CFRunLoopStop(loop)
    }

    func stopMode(_ mode: ModeName) {
        // Scenarios using it are rejected up front when the symbol is missing.
        stopModeFunction?(loop, cfMode(mode))
    }

    func runOnce(_ mode: ModeName) -> Bool {
        RunLoop.current.run(mode: foundationMode(mode), before: .distantFuture)
    }

    /// The idiom's runs are one run for the trace's depth and mode (its inner calls cannot be seen).
    func runs(in mode: ModeName, _ body: () -> Void) {
        traceCreatedModes()
        trace.beginRun(mode, runStart: nil)
        body()
        trace.endRun(result: nil)
    }

    // MARK: - Blocks and threads

    func performBlock(_ name: String, modes: [ModeName], _ inner: [Action]) {
        let tag = CFBridge.blockTag(modes, prefix: spec.isMain ? world.mainModePrefix : "")
        CFRunLoopPerformBlock(loop, tag) { [weak self] in
            guard let self else { return }
            self.trace.record(.block, name)
            self.perform(inner)
        }
    }

    func mainQueue(_ name: String, _ inner: [Action]) {
        // DispatchQueue.main.async from any thread: libdispatch's main queue, which only the main thread's loop
        // drains (in a common mode). Scenarios without a main thread are rejected up front.
        guard let main = world.mainHost else { return }
        DispatchQueue.main.async { [weak main] in
            guard let main, !main.isHalted else { return }
            main.trace.record(.mainQueue, name)
            main.perform(inner)
        }
    }

    func startThread(_ name: String) {
        world.start(name)
    }

    func detach(_ task: String, _ inner: [Action]) {
        world.detach(task, inner)
    }

    // MARK: - Operation queues: rejected up front (see CFOracle.unsupportedReason)

    func addOperation(_ spec: OperationSpec, to queue: String) {}
    func cancelOperation(_ name: String) {}
    func cancelAll(_ queue: String) {}
    func setSuspended(_ queue: String, _ flag: Bool) {}
    func setLimit(_ queue: String, _ limit: Int?) {}
    func finishOperation(_ name: String) {}
    func waitUntilAllFinished(_ queue: String) {}

    /// Runs the loop. Only direct `CFRunLoopRunInMode` calls get `runStart`/`result` events; the wrappers
    /// (`CFRunLoopRun`, Foundation's `run(mode:before:)` and `run()`) make inner calls the oracle cannot see, so
    /// they are only counted for `depth` and `mode`.
    func run(_ call: RunCall) {
        // Runs from outside threads are rejected up front: they would run that thread's own loop.
        traceCreatedModes()
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
        case .whileNot, .whileHolds:
            // The language's own (`ScenarioLoop+Interpreter.swift`): a run per turn, ``runOnce(_:)``.
            break
        }
    }

    /// The Foundation date a scenario's date stands for, made at the call as the program would make it.
    func date(_ date: FoundationDate) -> Date {
        switch date {
        case .fromNow(let delay): Date(timeIntervalSinceNow: delay.secondsValue)
        case .sinceStart(let time): Date(timeIntervalSinceReferenceDate: originAbsolute + time.secondsValue)
        case .distantPast: .distantPast
        case .distantFuture: .distantFuture
        }
    }
}
#endif
