// Probe: does an async `main` drive the main CFRunLoop on Linux? (docs/concurrency.md, "The async main").
// Build: swiftc -swift-version 5 -parse-as-library Scripts/concurrency-async-main-probe.swift -o /tmp/am && /tmp/am
import CoreFoundation
import Foundation

@main struct AsyncMain {
    static func main() async {
        print("async main begins; main thread: \(Thread.isMainThread)")
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(50)) {
            print(
                "stopping the main run loop; its current mode: \(String(describing: CFRunLoopCopyCurrentMode(CFRunLoopGetMain())))"
            )
            CFRunLoopStop(CFRunLoopGetMain())
        }
        try? await Task.sleep(for: .milliseconds(300))
        print("async main after sleep (not reached if the stop ends the process)")
    }
}
