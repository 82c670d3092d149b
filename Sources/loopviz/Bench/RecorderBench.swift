#if os(Linux)
import CoreFoundation
import Foundation
import LoopRecorder

/// The recorder's cost (row `recorder/overhead`): the per-iteration workload on the real CFRunLoop (a source0
/// that re-signals itself `iterations` times, no other observer), with LoopRecorder recording the loop to a
/// temporary file, against the same loop unrecorded. Each iteration then records beforeTimers and beforeSources
/// (a polling iteration has no beforeWaiting); the writer thread formats and writes them meanwhile.
enum RecorderBench {
    private final class State {
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

    /// Nanoseconds per iteration, recorded or not. The recording's events are counted into `events`, so a row's
    /// note can say none were dropped.
    static func cf(iterations: Int, recorded: Bool) -> (figure: Double, dropped: Int) {
        var elapsed: Int64 = 0
        var dropped = 0
        BenchThread.run {
            let loop = CFRunLoopGetCurrent()!
            // In a folder of its own (mkdtemp): LoopRecorder follows a symbolic link, and a predictable name in
            // /tmp could be one planted by another user. The folder goes, with the file, when the bench ends or a
            // signal ends it.
            let folder = BenchTemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            let file = URL(fileURLWithPath: folder.file("recording.jsonl"))
            let recorder = recorded ? try? LoopRecorder.start(on: loop, to: file, thread: "bench") : nil
            let state = State(remaining: iterations, loop: loop)
            let source = BenchCF.source { state.fire() }
            state.source = source
            CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode)
            CFRunLoopSourceSignal(source)
            let start = BenchPlatform.now()
            _ = BenchCF.runDefault(seconds: BenchCF.forever)
            elapsed = BenchPlatform.now() - start
            dropped = recorder?.stop().dropped ?? 0
            state.source = nil
            CFRunLoopSourceInvalidate(source)
        }
        return (Double(elapsed) / Double(max(iterations, 1)), dropped)
    }
}
#endif
