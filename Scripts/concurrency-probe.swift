// Probes of Swift Concurrency on the main thread's CFRunLoop (Linux, swift-corelibs-foundation); docs/concurrency.md
// says what each shows. Build: swiftc -swift-version 5 -O Scripts/concurrency-probe.swift -o /tmp/concurrency-probe
// Usage: /tmp/concurrency-probe NAME (fifo, private, yield, handled, until, sleep, sleepprivate, commonrun,
// asyncafter, asyncafterrash, perform, performtrack, commonadded, thread, nested, late, yieldhop)
import CoreFoundation
import Dispatch
import Foundation

nonisolated(unsafe) var log: [String] = []
nonisolated(unsafe) var t0 = Date()
func note(_ s: String) {
    let ms = Int((Date().timeIntervalSince(t0) * 1000).rounded())
    log.append(String(format: "%5d ms  %@", ms, s))
}

let names: [CFOptionFlags: String] = [
    CFRunLoopActivity.entry.rawValue: "entry", CFRunLoopActivity.beforeTimers.rawValue: "beforeTimers",
    CFRunLoopActivity.beforeSources.rawValue: "beforeSources",
    CFRunLoopActivity.beforeWaiting.rawValue: "beforeWaiting", CFRunLoopActivity.afterWaiting.rawValue: "afterWaiting",
    CFRunLoopActivity.exit.rawValue: "exit",
]
func observe(_ mode: CFRunLoopMode) {
    let obs = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.allActivities.rawValue, true, 0) { _, act in
        note("  [" + (names[act.rawValue] ?? "?") + "]")
    }
    CFRunLoopAddObserver(CFRunLoopGetMain(), obs, mode)
}
let privateMode = CFStringCreateWithCString(nil, "private", CFStringBuiltInEncodings.UTF8.rawValue)!
observe(kCFRunLoopCommonModes)
observe(privateMode)
func run(_ mode: CFRunLoopMode, _ s: Double, _ rash: Bool) {
    note("run \(String(describing: mode)) \(s)s rash=\(rash)")
    let r = CFRunLoopRunInMode(mode, s, rash)
    let words = [1: "finished", 2: "stopped", 3: "timedOut", 4: "handledSource"]
    note("result \(words[Int(r.rawValue)] ?? "?")")
}
func dump() { for l in log { print(l) } }

// For `yieldhop`: the runtime's global-enqueue hook, and a log in microseconds that any thread may write.
typealias Original = @convention(c) (OpaquePointer) -> Void
typealias Hook = @convention(c) (OpaquePointer, Original) -> Void
let hopLock = NSLock()
nonisolated(unsafe) var hops: [String] = []
let mainThread = pthread_self()
let hopBegin = DispatchTime.now().uptimeNanoseconds
func hop(_ s: String) {
    let us = (DispatchTime.now().uptimeNanoseconds - hopBegin) / 1000
    hopLock.lock()
    hops.append(String(format: "%7d µs  %@", us, s))
    hopLock.unlock()
}

let probe = CommandLine.arguments.dropFirst().first ?? "fifo"
precondition(Thread.isMainThread)
t0 = Date()
switch probe {
case "fifo":
    // Main-queue blocks and MainActor jobs interleaved, queued before the run: one drain, FIFO.
    DispatchQueue.main.async { note("block b1") }
    Task { @MainActor in note("task t1 body") }
    DispatchQueue.main.async { note("block b2") }
    Task.detached { await MainActor.run { note("MainActor.run from detached") } }
    Thread.sleep(forTimeInterval: 0.05)  // let the detached task reach the main queue
    DispatchQueue.main.async { note("block b3") }
    run(kCFRunLoopDefaultMode, 0.3, false)
case "private":
    // Not served in a private mode; served by the next common-mode run.
    Task { @MainActor in note("task body") }
    DispatchQueue.main.async { note("block") }
    let tick = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.05, 0.05, 0, 0) { _ in
        note("timer tick (private)")
    }
    CFRunLoopAddTimer(CFRunLoopGetMain(), tick, privateMode)
    run(privateMode, 0.12, false)
    CFRunLoopTimerInvalidate(tick)
    run(kCFRunLoopDefaultMode, 0.2, true)
case "yield":
    Task { @MainActor in
        note("task part 1"); await Task.yield(); note("task part 2 (after yield)")
        await Task.yield(); note("task part 3 (after 2nd yield)")
    }
    run(kCFRunLoopDefaultMode, 0.2, false)
case "handled":
    // Each drain ends a rash run; RunLoop.run(mode:before:) returns true; run(until:) inner runs.
    Task { @MainActor in
        note("job A"); await Task.yield(); note("job A resumed")
    }
    run(kCFRunLoopDefaultMode, 1, true)
    run(kCFRunLoopDefaultMode, 1, true)
    Task { @MainActor in note("job B") }
    note("RunLoop.main.run(mode: .default, before: +1)")
    let r = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
    note("-> \(r)")
case "sleep":
    Task { @MainActor in
        note("before sleep 100ms"); try? await Task.sleep(for: .milliseconds(100)); note("after sleep")
    }
    run(kCFRunLoopDefaultMode, 0.3, false)
case "sleepprivate":
    Task { @MainActor in
        note("before sleep 50ms"); try? await Task.sleep(for: .milliseconds(50)); note("after sleep")
    }
    run(kCFRunLoopDefaultMode, 0.01, true)
    run(privateMode, 0.2, false)
    run(kCFRunLoopDefaultMode, 0.2, true)
case "commonrun":
    Task { @MainActor in note("task body") }
    let start = Date()
    let r = RunLoop.main.run(mode: .common, before: Date(timeIntervalSinceNow: 0.2))
    note("RunLoop.main.run(mode: .common) -> \(r) after \(Int(Date().timeIntervalSince(start) * 1000)) ms")
    let r2 = CFRunLoopRunInMode(kCFRunLoopCommonModes, 0.2, false)
    note("CFRunLoopRunInMode(common) -> \(r2.rawValue)")
    run(kCFRunLoopDefaultMode, 0.1, true)
case "asyncafter":
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(50)) { note("asyncAfter block") }
    run(kCFRunLoopDefaultMode, 0.3, false)
case "asyncafterrash":
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(50)) { note("asyncAfter block") }
    run(kCFRunLoopDefaultMode, 0.3, true)
    run(kCFRunLoopDefaultMode, 0.1, true)
    run(kCFRunLoopDefaultMode, 0.1, true)
case "perform":
    RunLoop.main.perform(inModes: [.default]) { note("perform default") }
    DispatchQueue.main.async { note("main.async") }
    RunLoop.main.perform(inModes: [.common]) { note("perform common") }
    Task { @MainActor in note("task") }
    run(privateMode, 0.05, false)
    run(kCFRunLoopDefaultMode, 0.1, false)
case "performtrack":
    RunLoop.main.perform(inModes: [.default]) { note("perform default") }
    DispatchQueue.main.async { note("main.async") }
    RunLoop.main.perform { note("perform (no modes)") }
    run(CFStringCreateWithCString(nil, "tracking", CFStringBuiltInEncodings.UTF8.rawValue)!, 0.05, false)
    run(kCFRunLoopDefaultMode, 0.05, false)
case "commonadded":
    // a private mode added to the common modes DOES serve the main queue?
    CFRunLoopAddCommonMode(CFRunLoopGetMain(), privateMode)
    Task { @MainActor in note("task body") }
    run(privateMode, 0.1, true)
case "thread":
    // a MainActor task started from another thread
    let th = Thread {
        Task { @MainActor in note("task from thread") }; note("thread started task")
    }
    th.start()
    run(kCFRunLoopDefaultMode, 0.2, true)
case "until":
    // run(until:) runs run(mode: .default, before:) again and again: each drain ends one inner run.
    Task { @MainActor in
        note("job 1"); await Task.yield(); note("job 2"); await Task.yield(); note("job 3")
    }
    note("RunLoop.main.run(until: +0.1)")
    RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.1))
    note("run(until:) returned")
case "nested":
    // A MainActor task queued from a callout of the outer run, while a nested private-mode run (a modal) runs.
    let modal = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.02, 0, 0, 0) { _ in
        note("timer opens modal; queues a MainActor task")
        Task { @MainActor in note("MainActor task body") }
        let tick = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.03, 0.03, 0, 0) { _ in
            note("modal tick")
        }
        CFRunLoopAddTimer(CFRunLoopGetMain(), tick, privateMode)
        run(privateMode, 0.1, false)
        CFRunLoopTimerInvalidate(tick)
        note("modal closed")
    }
    CFRunLoopAddTimer(CFRunLoopGetMain(), modal, kCFRunLoopDefaultMode)
    run(kCFRunLoopDefaultMode, 0.3, false)
case "late":
    // How late each wake-up comes: asyncAfter (a libdispatch timer) and Task.sleep on and off the main actor.
    for d in [20, 100, 500, 1000] {
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(d)) { note("asyncAfter \(d) ms fired") }
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(d)); note("MainActor Task.sleep \(d) ms resumed")
        }
        Task.detached {
            try? await Task.sleep(for: .milliseconds(d)); note("detached Task.sleep \(d) ms resumed")
        }
    }
    RunLoop.main.run(until: Date(timeIntervalSinceNow: 1.3))
    log.sort {
        Int($0.prefix(5).trimmingCharacters(in: .whitespaces))! < Int(
            $1.prefix(5).trimmingCharacters(in: .whitespaces))!
    }
case "yieldhop":
    // Where the rest of a main-actor task goes at `await Task.yield()`: the runtime's global-enqueue hook logs
    // every job sent to the global executor and from which thread, in microseconds.
    let hook: Hook = { job, original in
        hop(pthread_equal(pthread_self(), mainThread) != 0 ? "global enqueue (main thread)" : "global enqueue (another thread)")
        original(job)
    }
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { fatalError("no hook") }
    symbol.assumingMemoryBound(to: Hook?.self).pointee = hook
    Task { @MainActor in
        hop("task part 1, then Task.yield()")
        await Task.yield()
        hop("task part 2 (after yield)")
    }
    run(kCFRunLoopDefaultMode, 0.1, false)
    for line in hops { print(line) }
default:
    print("unknown probe")
}
dump()
