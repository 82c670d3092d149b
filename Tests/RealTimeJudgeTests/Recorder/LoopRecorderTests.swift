import CoreFoundation
import Foundation
import LoopEngine
import LoopRecorder
import SnapshotSupport
import Testing

/// LoopRecorder on a real CFRunLoop: what it writes is read back with the trace reader. Serialized: marks go to the
/// one recorder of the process.
@Suite("LoopRecorder", .serialized, .timeLimit(.minutes(10)))
struct LoopRecorderTests {
    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-\(name)-\(getpid()).jsonl")
    }

    /// Runs `body` on a fresh thread (a secondary thread's default mode is empty until something is added) and
    /// waits for it.
    static func onThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.name = "recorded"
        thread.start()
        done.wait()
    }

    static func read(_ url: URL) throws -> JSONLTrace {
        try JSONLTraceReader.read(Array(try Data(contentsOf: url)), maximumEvents: 1_000_000)
    }

    /// An event without its time: times are the real clock's.
    struct Step: Equatable, CustomStringConvertible {
        var depth: Int, mode: String?, iteration: Int, kind: LoopEvent.Kind, name: String?, fact: LoopEvent.Fact?
        init(_ event: LoopEvent) {
            (depth, mode, iteration, kind, name, fact) =
                (event.depth, event.mode, event.iteration, event.kind, event.name, event.fact)
        }
        init(
            _ depth: Int, _ iteration: Int, _ kind: LoopEvent.Kind, _ name: String? = nil, _ fact: LoopEvent.Fact? = nil
        ) {
            (self.depth, mode, self.iteration, self.kind, self.name, self.fact) = (
                depth, "default", iteration, kind, name, fact
            )
        }
        var description: String {
            "d\(depth) \(mode ?? "-") #\(iteration) \(kind) \(name ?? "") \(fact.map { "\($0)" } ?? "")"
        }
    }

    @Test("a source and a timer: the activities in CF's order, the marks where the callouts ran")
    func activitiesInOrder() throws {
        let url = Self.temporaryFile("order")
        defer { try? FileManager.default.removeItem(at: url) }
        Self.onThread {
            let loop = CFRunLoopGetCurrent()!
            var context = CFRunLoopSourceContext()
            context.perform = { _ in LoopRecorder.mark("source \"A\"") }
            let source = CFRunLoopSourceCreate(nil, 0, &context)!
            CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode)
            let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.02, 0, 0, 0) { _ in
                LoopRecorder.interval("timer T") {}
                CFRunLoopStop(CFRunLoopGetCurrent())
            }
            CFRunLoopAddTimer(loop, timer, kCFRunLoopDefaultMode)
            try! LoopRecorder.start(on: loop, to: url, thread: "recorded")
            CFRunLoopSourceSignal(source)
            _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 10, false)
            LoopRecorder.stop()
        }
        let trace = try Self.read(url)
        let recorder = "LoopRecorder"
        #expect(
            trace.events.map(Step.init) == [
                Step(1, 0, .entry),
                Step(1, 1, .beforeTimers), Step(1, 1, .beforeSources), Step(1, 1, .note, "source \"A\"", .mark(.point)),
                Step(1, 2, .beforeTimers), Step(1, 2, .beforeSources), Step(1, 2, .beforeWaiting),
                Step(1, 2, .observer, recorder, .activity(.beforeWaiting)), Step(1, 2, .afterWaiting),
                Step(1, 2, .note, "timer T", .mark(.begin)), Step(1, 2, .note, "timer T", .mark(.end)),
                Step(1, 2, .exit), Step(1, 2, .observer, recorder, .activity(.exit)),
            ])
        #expect(trace.events.map(\.loop).allSatisfy { $0 == "recorded" })
        #expect(zip(trace.events, trace.events.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(trace.header.clock == .real && trace.header.events == trace.events.count)
        #expect(trace.header.recording?.thread == "recorded")
        #expect(trace.header.recording?.pid == Int(getpid()))
        // The recorder writes what LoopEngine's formatter writes for the same events, byte for byte.
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)
        #expect(lines == trace.events.map(JSONLTraceFormatter.line))
    }

    @Test("sampleInterval: samples of the loop's thread while a timer's callout works, none while the loop sleeps")
    func stackSamples() throws {
        let url = Self.temporaryFile("stacks")
        defer { try? FileManager.default.removeItem(at: url) }
        RealTimeGate.exclusive {
            Self.onThread {
                let loop = CFRunLoopGetCurrent()!
                // 100 ms of work in a timer's callout, after 100 ms of sleep; the loop sleeps 100 ms more.
                let work = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.1, 0, 0, 0) { _ in
                    let end = CFAbsoluteTimeGetCurrent() + 0.1
                    var spin = 0
                    while CFAbsoluteTimeGetCurrent() < end { spin &+= 1 }
                    if spin == -1 { print("") }
                }
                let stop = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.3, 0, 0, 0) { _ in
                    CFRunLoopStop(CFRunLoopGetCurrent())
                }
                CFRunLoopAddTimer(loop, work, kCFRunLoopDefaultMode)
                CFRunLoopAddTimer(loop, stop, kCFRunLoopDefaultMode)
                try! LoopRecorder.start(on: loop, to: url, thread: "recorded", sampleInterval: 0.005)
                _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 10, false)
                LoopRecorder.stop()
            }
        }
        let trace = try Self.read(url)
        let samples = trace.events.filter { if case .stack = $0.fact { true } else { false } }
        #expect(samples.count >= 3)
        // Each sample inside the busy stretch of the timer's callout: after its wake, before the next sleep.
        let wakes = trace.events.filter { $0.kind == .afterWaiting }.map(\.time)
        #expect(wakes.count == 2)
        #expect(samples.allSatisfy { $0.time >= wakes[0] && $0.time < wakes[1] })
        #expect(samples.allSatisfy { if case .stack(let sample) = $0.fact { !sample.frames.isEmpty } else { false } })
        // The objects the frames lie in are written before the first sample, and hold its first frame.
        let modules = trace.events.compactMap { if case .module(let module) = $0.fact { module } else { nil } }
        let first = samples.first.flatMap { if case .stack(let sample) = $0.fact { sample.frames.first } else { nil } }
        #expect(first.map { frame in modules.contains { $0.contains(frame) } } == true)
        // The recorder writes what LoopEngine's formatter writes for the same events, byte for byte.
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)
        #expect(lines == trace.events.map(JSONLTraceFormatter.line))
    }

    @Test("a flood of marks into a small buffer: the drops are counted and written where they began")
    func dropsUnderAFlood() throws {
        let url = Self.temporaryFile("flood")
        defer { try? FileManager.default.removeItem(at: url) }
        nonisolated(unsafe) var summary: LoopRecorder.Summary?
        Self.onThread {
            // The writer never wakes by itself: the buffer only empties at stop().
            try! LoopRecorder.start(on: CFRunLoopGetCurrent(), to: url, capacity: 16, flushInterval: 3600)
            for index in 0..<1000 { LoopRecorder.mark("m\(index)") }
            summary = LoopRecorder.stop()
        }
        #expect(summary == LoopRecorder.Summary(events: 17, dropped: 984, writeFailed: false))
        let trace = try Self.read(url)
        #expect(trace.events.prefix(16).map(\.name) == (0..<16).map { "m\($0)" })
        #expect(trace.events.count == 17)
        #expect(trace.events[16].kind == .note && trace.events[16].fact == .dropped(984))
        #expect(trace.events[16].detail == "the recorder dropped 984 events: its buffer was full")
        #expect(trace.events[16].time >= trace.events[15].time)
        let header = try String(contentsOf: url, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains(#""events":17,"dropped":984}"#))
    }

    @Test("stop() writes every buffered event before it returns, and nothing after")
    func stopFlushes() throws {
        let url = Self.temporaryFile("flush")
        defer { try? FileManager.default.removeItem(at: url) }
        nonisolated(unsafe) var summary: LoopRecorder.Summary?
        Self.onThread {
            try! LoopRecorder.start(on: CFRunLoopGetCurrent(), to: url, flushInterval: 3600)
            for index in 0..<5000 { LoopRecorder.mark("m\(index)") }
            summary = LoopRecorder.stop()
            LoopRecorder.mark("after stop")
        }
        #expect(summary == LoopRecorder.Summary(events: 5000, dropped: 0, writeFailed: false))
        let trace = try Self.read(url)
        #expect(trace.events.map(\.name) == (0..<5000).map { "m\($0)" })
        #expect(trace.events.allSatisfy { $0.depth == 0 && $0.mode == nil && $0.fact == .mark(.point) })
    }
}
