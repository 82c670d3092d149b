#if os(Linux)
import CoreFoundation

/// The real CFRunLoop's items made the way a C program makes them: C callbacks, state through `context.info`.
/// The engine's side of each workload gets the same work in its closures, so that the two compare like for like.
enum BenchCF {
    /// The Swift code a CF callback runs.
    final class Callback {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// A version-0 source whose perform calls `perform`. The source retains the closure.
    static func source(order: Int = 0, _ perform: @escaping () -> Void) -> CFRunLoopSource {
        let callback = Callback(perform)
        var context = CFRunLoopSourceContext()
        context.version = 0
        context.info = Unmanaged.passUnretained(callback).toOpaque()
        context.retain = { info in
            if let info { _ = Unmanaged<Callback>.fromOpaque(info).retain() }
            return info
        }
        context.release = { info in
            if let info { Unmanaged<Callback>.fromOpaque(info).release() }
        }
        context.perform = { info in
            guard let info else { return }
            Unmanaged<Callback>.fromOpaque(info).takeUnretainedValue().body()
        }
        return CFRunLoopSourceCreate(nil, CFIndex(order), &context)
    }

    /// A repeating observer of every activity that only counts its calls in `counter` (the engine's benchmark
    /// observers do the same in a closure).
    static func countingObserver(_ counter: UnsafeMutablePointer<Int>) -> CFRunLoopObserver {
        var context = CFRunLoopObserverContext()
        context.info = UnsafeMutableRawPointer(counter)
        return CFRunLoopObserverCreate(
            nil, CFRunLoopActivity.allActivities.rawValue, true, 0,
            { _, _, info in
                info?.assumingMemoryBound(to: Int.self).pointee += 1
            }, &context)
    }

    /// A repeating timer whose callout calls `fire`.
    static func timer(
        fireDate: CFAbsoluteTime, interval: CFTimeInterval, _ fire: @escaping () -> Void
    )
        -> CFRunLoopTimer
    {
        let callback = Callback(fire)
        var context = CFRunLoopTimerContext()
        context.info = Unmanaged.passUnretained(callback).toOpaque()
        context.retain = { info in
            if let info { _ = Unmanaged<Callback>.fromOpaque(info).retain() }
            return info
        }
        context.release = { info in
            if let info { Unmanaged<Callback>.fromOpaque(info).release() }
        }
        return CFRunLoopTimerCreate(
            nil, fireDate, interval, 0, 0,
            { _, info in
                guard let info else { return }
                Unmanaged<Callback>.fromOpaque(info).takeUnretainedValue().body()
            }, &context)
    }

    /// `CFRunLoopRunInMode(kCFRunLoopDefaultMode, seconds, false)`.
    @discardableResult
    static func runDefault(seconds: Double) -> CFRunLoopRunResult {
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, seconds, false)
    }

    /// A time limit CF treats as "forever" (above its ~16-year limit: no timeout timer at all).
    static let forever: Double = 1.0e10
}
#endif
