// Probe: does an async `main` drive the main CFRunLoop on Linux? (docs/concurrency.md, "The async main").
// Build: swiftc -swift-version 5 -parse-as-library Scripts/concurrency-async-main-probe.swift -o /tmp/am && /tmp/am
// Arguments: `runfirst` runs the main loop for 50 ms before the first await; `long` adds a second sleep after a
// job queued by the rest of `main` (to see whether that job runs before `main` returns).
// Each line: milliseconds since the start, what ran, whether on the main thread, and the main loop's mode then.
import CoreFoundation
import Dispatch
import Foundation

let start = DispatchTime.now().uptimeNanoseconds
func log(_ text: String) {
    let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    let mode = CFRunLoopCopyCurrentMode(CFRunLoopGetMain()).map { "\($0)" } ?? "nil"
    print(String(format: "%7.2f ", ms) + text + " [main thread: \(Thread.isMainThread), main loop's mode: \(mode)]")
    fflush(stdout)
}

@main struct AsyncMain {
    static func main() async {
        _ = start
        log("main begins")
        let observer = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.allActivities.rawValue, true, 0) {
            _, activity in log("observer of the main loop: activity \(activity.rawValue)")
        }
        CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes)
        RunLoop.main.add(Timer(timeInterval: 0.02, repeats: true) { _ in log("timer on RunLoop.main fires") }, forMode: .common)
        RunLoop.main.perform { log("RunLoop.main.perform block") }
        DispatchQueue.main.async { log("DispatchQueue.main.async queued in the first part") }
        Task { @MainActor in log("Task { @MainActor } queued in the first part") }
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(60)) {
            log("CFRunLoopStop(CFRunLoopGetMain())")
            CFRunLoopStop(CFRunLoopGetMain())
        }
        if CommandLine.arguments.contains("runfirst") {
            log("the first part runs the main loop for 50 ms")
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.05))
            log("the first part's run returned")
        }
        Thread.detachNewThread {
            usleep(30_000)
            log("another thread queues a main.async block and a main-actor task")
            DispatchQueue.main.async { log("main.async from another thread") }
            Task { @MainActor in log("main-actor task from another thread") }
            usleep(400_000)
            log("the other thread is still alive")
        }
        log("main awaits Task.sleep(100 ms)")
        try? await Task.sleep(for: .milliseconds(100))
        log("main resumed after its sleep")
        await Task.yield()
        log("main resumed after Task.yield()")
        DispatchQueue.main.async { log("a job the rest of main queued") }
        if CommandLine.arguments.contains("long") {
            try? await Task.sleep(for: .milliseconds(300))
            log("main resumed after a second sleep")
        }
        log("main returns (exit(0) follows)")
    }
}
