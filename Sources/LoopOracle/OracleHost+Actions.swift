#if os(Linux)
import CLoopKernel
import CoreFoundation
import Dispatch
import Foundation
import LoopEngine
import Synchronization

/// The interpreter of a thread's actions on the real CF: its program, its callouts' scripts and the outside events
/// addressing its loop, each action as the engine's `ScriptInterpreter` performs it.
extension OracleHost {

    /// Performs `actions` in order; on an outside thread (`outside`) they stop once the program has ended.
    func perform(_ actions: [Action], outside: Bool = false) {
        for action in actions {
            guard mayAct(outside: outside) else { return }
            perform(action, outside: outside)
        }
    }

    func mayAct(outside: Bool) -> Bool {
        !isHalted && !(outside && world.isFinished)
    }

    func perform(_ action: Action, outside: Bool) {
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
        case .performDelayed(let task, let target, let delay, let modes, let inner):
            performDelayed(task, target: target, delay: delay, modes: modes, inner)
        case .cancelDelayedPerforms(let task, let target):
            cancelDelayedPerforms(task: task, target: target)
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

    func add(_ name: String, _ mode: ModeName) {
        let tag = cfMode(mode)
        if let source = sources[name] { CFRunLoopAddSource(loop, source, tag) }
        if let timer = timers[name] { CFRunLoopAddTimer(loop, timer, tag) }
        if let observer = observers[name] { CFRunLoopAddObserver(loop, observer, tag) }
    }

    func remove(_ name: String, _ mode: ModeName) {
        let tag = cfMode(mode)
        if let source = sources[name] { CFRunLoopRemoveSource(loop, source, tag) }
        if let timer = timers[name] { CFRunLoopRemoveTimer(loop, timer, tag) }
        if let observer = observers[name] { CFRunLoopRemoveObserver(loop, observer, tag) }
    }

    /// Runs the loop. Only direct `CFRunLoopRunInMode` calls get `runStart`/`result` events; the wrappers
    /// (`CFRunLoopRun`, Foundation's `run(mode:before:)` and `run()`) make inner calls the oracle cannot see, so
    /// they are only counted for `depth` and `mode`.
    func run(_ call: RunCall) {
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
    func holds(_ condition: Condition) -> Bool {
        var notes: [LoopEvent.Note] = []
        let result = world.flags.holds(condition, notes: &notes)
        if !isHalted { for note in notes { trace.record(.note, note.ownerName, fact: .note(note)) } }
        return result
    }

    /// The Bool a `run(mode:before:)` of the program returned (recorded outside the run it made).
    func returned(_ value: Bool) {
        if isHalted { return }
        trace.record(.note, fact: .returned(value))
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
