import CoreFoundation
import Foundation
import LoopEngine
import LoopRecorder
import Testing

extension LoopRecorderTests {
    /// A thread of its own that runs `body`; `started` waits for it to reach `ready`, `join` for its end.
    final class Worker: @unchecked Sendable {
        private let ready = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)
        private let go = DispatchSemaphore(value: 0)

        /// `body` gets a closure to call once it is set up; it then waits until ``release()``.
        init(_ body: @escaping @Sendable (_ setUp: () -> Void) -> Void) {
            let (ready, done, go) = (ready, done, go)
            Thread {
                body {
                    ready.signal()
                    go.wait()
                }
                done.signal()
            }.start()
            ready.wait()
        }

        func release() { go.signal() }
        func join() { done.wait() }
    }

    @Test("addCurrentThreadLoop: another thread's loop in the same file, under its name, with its own marks")
    func secondLoopInTheSameFile() throws {
        let url = Self.temporaryFile("threads")
        defer { try? FileManager.default.removeItem(at: url) }
        let added = RecordedFlags()
        Self.onThread {
            let loop = CFRunLoopGetCurrent()!
            let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.06, 0, 0, 0) { _ in
                LoopRecorder.mark("timer A")
                CFRunLoopStop(CFRunLoopGetCurrent())
            }
            CFRunLoopAddTimer(loop, timer, kCFRunLoopDefaultMode)
            try! LoopRecorder.start(on: loop, to: url, thread: "recorded")
            // A second thread records its loop and runs it; a third is named like it and only marks.
            let second = Worker { setUp in
                added.set("second", LoopRecorder.addCurrentThreadLoop(thread: "second"))
                added.set("second again", LoopRecorder.addCurrentThreadLoop(thread: "other"))
                setUp()
                let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.02, 0, 0, 0) { _ in
                    LoopRecorder.mark("timer B")
                    CFRunLoopStop(CFRunLoopGetCurrent())
                }
                CFRunLoopAddTimer(CFRunLoopGetCurrent(), timer, kCFRunLoopDefaultMode)
                _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 10, false)
            }
            let third = Worker { setUp in
                added.set("third", LoopRecorder.addCurrentThreadLoop(thread: "second"))
                setUp()
                LoopRecorder.mark("from the third thread")
            }
            second.release()
            third.release()
            second.join()
            third.join()
            _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 10, false)
            LoopRecorder.stop()
            added.set("after stop", LoopRecorder.addCurrentThreadLoop())
        }
        #expect(added.values == ["second": true, "second again": false, "third": true, "after stop": false])
        let trace = try Self.read(url)
        let recorder = "LoopRecorder"
        #expect(
            trace.events.filter { $0.loop == "second" }.map(Step.init) == [
                Step(1, 0, .entry), Step(1, 1, .beforeTimers), Step(1, 1, .beforeSources), Step(1, 1, .beforeWaiting),
                Step(1, 1, .observer, recorder, .activity(.beforeWaiting)), Step(1, 1, .afterWaiting),
                Step(1, 1, .note, "timer B", .mark(.point)), Step(1, 1, .exit),
                Step(1, 1, .observer, recorder, .activity(.exit)),
            ])
        // The third thread's loop never ran: its mark alone, outside any run.
        #expect(
            trace.events.filter { $0.loop == "second 2" }.map { "\($0.depth) \($0.kind) \($0.name ?? "")" } == [
                "0 note from the third thread"
            ])
        #expect(
            trace.events.filter { $0.loop == "recorded" }.map(Step.init) == [
                Step(1, 0, .entry), Step(1, 1, .beforeTimers), Step(1, 1, .beforeSources), Step(1, 1, .beforeWaiting),
                Step(1, 1, .observer, recorder, .activity(.beforeWaiting)), Step(1, 1, .afterWaiting),
                Step(1, 1, .note, "timer A", .mark(.point)), Step(1, 1, .exit),
                Step(1, 1, .observer, recorder, .activity(.exit)),
            ])
        #expect(Set(trace.events.map(\.loop)) == ["recorded", "second", "second 2"])
        #expect(zip(trace.events, trace.events.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(trace.header.recording?.thread == "recorded" && trace.header.events == trace.events.count)
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)
        #expect(lines == trace.events.map(JSONLTraceFormatter.line))
    }

    @Test("at most 64 loops: the 65th is refused, and one mark on the first loop names the first thread left out")
    func loopLimit() throws {
        let url = Self.temporaryFile("limit")
        defer { try? FileManager.default.removeItem(at: url) }
        let added = RecordedFlags()
        Self.onThread {
            try! LoopRecorder.start(on: CFRunLoopGetCurrent(), to: url, thread: "first")
            for index in 1...(LoopRecorder.maximumLoops + 1) {
                let worker = Worker { setUp in
                    added.set("\(index)", LoopRecorder.addCurrentThreadLoop(thread: "t\(index)"))
                    setUp()
                }
                worker.release()
                worker.join()
            }
            LoopRecorder.stop()
        }
        let refused = added.values.filter { !$0.value }.map(\.key)
        #expect(added.values.count == LoopRecorder.maximumLoops + 1)
        #expect(refused.sorted() == ["64", "65"])
        let trace = try Self.read(url)
        #expect(
            trace.events.map { "\($0.loop): \($0.name ?? "")" } == [
                "first: LoopRecorder: 64 loops are recorded, the limit: the loop of thread t64 and of every thread after it is not"
            ])
    }
}

/// Results set on other threads, read after they ended.
final class RecordedFlags: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: Bool] = [:]
    func set(_ key: String, _ value: Bool) { lock.withLock { stored[key] = value } }
    var values: [String: Bool] { lock.withLock { stored } }
}
