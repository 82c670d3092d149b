#if os(Linux)
import CoreFoundation
import LoopEngine

/// The per-iteration workload (rows 1 and 5): one version-0 source that re-signals itself from its own perform,
/// `iterations` times, then stops the run; `observers` observers of every activity count their calls.
///
/// Each perform makes the next iteration poll instead of sleep (a source0 ran), so an iteration is: beforeTimers,
/// beforeSources (each observer called twice), a blocks pass, the source0 pass, a polling wait, a blocks pass.
/// That is the loop's own overhead with as little else as possible; on the real backend (and in CF) the polling
/// wait is a system call. The figure is wall time per iteration of one `run` call on a fresh thread.
enum PerIterationBench {
    final class Counter {
        var count = 0
    }

    private final class EngineState {
        var remaining: Int
        unowned let loop: RunLoopCore
        var source: LoopSource?

        init(remaining: Int, loop: RunLoopCore) {
            self.remaining = remaining
            self.loop = loop
        }

        func fire() {
            remaining -= 1
            if remaining > 0 { source?.signal() } else { loop.stop() }
        }
    }

    private final class CFState {
        var remaining: Int
        let loop: CFRunLoop
        var source: CFRunLoopSource?

        init(remaining: Int, loop: CFRunLoop) {
            self.remaining = remaining
            self.loop = loop
        }

        func fire() {
            remaining -= 1
            if remaining > 0 { CFRunLoopSourceSignal(source) } else { CFRunLoopStop(loop) }
        }
    }

    /// Nanoseconds per iteration of LoopEngine on `engine`; `sink` (if any) records every event.
    static func engine(
        _ engine: BenchEngine, iterations: Int, observers: Int, sink: @escaping () -> (any TraceSink)? = { nil }
    ) -> Double {
        var elapsed: Int64 = 0
        BenchThread.run {
            let loop = engine.makeLoop(named: "bench")
            let recorder = sink()
            loop.sink = recorder
            let counter = Counter()
            for index in 0..<observers {
                let observer = LoopObserver(name: "o\(index)", activities: .allActivities) { _ in counter.count += 1 }
                loop.add(observer, to: .default)
            }
            let state = EngineState(remaining: iterations, loop: loop)
            let source = LoopSource(name: "again") { state.fire() }
            state.source = source
            loop.add(source, to: .default)
            source.signal()
            let start = BenchPlatform.now()
            loop.run(mode: .default, seconds: BenchCF.forever)
            elapsed = BenchPlatform.now() - start
            state.source = nil
            withExtendedLifetime(recorder) {}
        }
        return Double(elapsed) / Double(max(iterations, 1))
    }

    /// Nanoseconds per iteration of the real CFRunLoop (`CFRunLoopRunInMode` on a fresh thread).
    static func cf(iterations: Int, observers: Int) -> Double {
        var elapsed: Int64 = 0
        BenchThread.run {
            let loop = CFRunLoopGetCurrent()!
            let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
            counter.initialize(to: 0)
            defer { counter.deallocate() }
            var made: [CFRunLoopObserver] = []
            for _ in 0..<observers {
                let observer = BenchCF.countingObserver(counter)
                CFRunLoopAddObserver(loop, observer, kCFRunLoopDefaultMode)
                made.append(observer)
            }
            let state = CFState(remaining: iterations, loop: loop)
            let source = BenchCF.source { state.fire() }
            state.source = source
            CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode)
            CFRunLoopSourceSignal(source)
            let start = BenchPlatform.now()
            BenchCF.runDefault(seconds: BenchCF.forever)
            elapsed = BenchPlatform.now() - start
            state.source = nil
            CFRunLoopSourceInvalidate(source)
            for observer in made { CFRunLoopObserverInvalidate(observer) }
        }
        return Double(elapsed) / Double(max(iterations, 1))
    }
}
#endif
