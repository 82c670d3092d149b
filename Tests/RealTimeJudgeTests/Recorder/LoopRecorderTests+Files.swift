import CoreFoundation
import Foundation
import LoopEngine
import LoopRecorder
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// LoopRecorder's file (audit D7, D8): written in place whatever the path names, and readable by every trace
/// reader whatever the program does (long labels, deep nesting, odd settings). In `LoopRecorderTests`, which is
/// serialized: marks go to the one recorder of the process.
extension LoopRecorderTests {
    /// A fresh folder, removed by the caller.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-recorder-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Records `marks` on a fresh thread's loop into `url`; the summary, or the error `start` threw.
    static func record(
        _ marks: [String], to url: URL, capacity: Int = LoopRecorder.defaultCapacity, flushInterval: TimeInterval = 0.05
    ) -> Result<LoopRecorder.Summary, CocoaError> {
        nonisolated(unsafe) var result: Result<LoopRecorder.Summary, CocoaError>?
        onThread {
            do {
                try LoopRecorder.start(
                    on: CFRunLoopGetCurrent(), to: url, thread: "recorded", capacity: capacity,
                    flushInterval: flushInterval)
                for mark in marks { LoopRecorder.mark(mark) }
                result = .success(LoopRecorder.stop()!)
            } catch {
                result = .failure(error as! CocoaError)
            }
        }
        return result!
    }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test("a symbolic link is followed: the recording goes into its target, and the link stays a link")
    func recordsThroughALink() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "old\n".write(to: folder.appendingPathComponent("target.jsonl"), atomically: false, encoding: .utf8)
        let link = folder.appendingPathComponent("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.jsonl")
        #expect(try Self.record(["a", "b"], to: link).get() == .init(events: 2, dropped: 0, writeFailed: false))
        #expect(Self.kind(link.path) == S_IFLNK)
        let trace = try Self.read(folder.appendingPathComponent("target.jsonl"))
        #expect(trace.events.map(\.name) == ["a", "b"] && trace.header.events == 2)
    }

    @Test("a second recorder on the same file stops the first before it opens it: the second recording reads whole")
    func secondRecorderOnTheSameFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("same.jsonl")
        nonisolated(unsafe) var first: LoopRecorder?
        Self.onThread {
            first = try! LoopRecorder.start(on: CFRunLoopGetCurrent(), to: url, thread: "first", flushInterval: 3600)
            for index in 0..<500 { LoopRecorder.mark("first \(index)") }
            try! LoopRecorder.start(on: CFRunLoopGetCurrent(), to: url, thread: "second", flushInterval: 3600)
            LoopRecorder.mark("second")
            LoopRecorder.stop()
        }
        #expect(first?.stop() == .init(events: 500, dropped: 0, writeFailed: false))
        let trace = try Self.read(url)
        #expect(trace.header.recording?.thread == "second" && trace.header.events == 1)
        #expect(trace.events.map(\.name) == ["second"])
    }

    @Test("a FIFO is streamed to its reader and stays a FIFO; its header, which cannot be rewritten, says null")
    func recordsIntoAFIFO() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("live.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        _ = fcntl(reader, F_SETFL, 0)
        // A writer of the test's own until the recording is over: the reader sees no end of file before it.
        let keeper = open(fifo, O_WRONLY | O_NONBLOCK)
        nonisolated(unsafe) var received: [UInt8] = []
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = Glibc.read(reader, &buffer, buffer.count)
                guard count > 0 else { break }
                received += buffer[0..<count]
            }
            finished.signal()
        }
        #expect(try Self.record(["a", "b"], to: URL(fileURLWithPath: fifo)).get().writeFailed == false)
        close(keeper)
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let trace = try JSONLTraceReader.read(received, maximumEvents: 100)
        #expect(trace.events.map(\.name) == ["a", "b"] && trace.header.events == nil)
        #expect(Self.kind(fifo) == S_IFIFO)
    }

    @Test("a FIFO whose reader leaves fails the recording (EPIPE), reported in the summary; the program goes on")
    func readerOfAFIFOLeaves() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("live.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        nonisolated(unsafe) var summary: LoopRecorder.Summary?
        Self.onThread {
            try! LoopRecorder.start(on: CFRunLoopGetCurrent(), to: URL(fileURLWithPath: fifo), thread: "recorded")
            close(reader)
            LoopRecorder.mark("nobody reads this")
            summary = LoopRecorder.stop()
        }
        #expect(summary == .init(events: 0, dropped: 0, writeFailed: true))
        #expect(Self.kind(fifo) == S_IFIFO)
    }

    @Test(
        "a device is written into, never replaced: /dev/null's twin takes the recording, /dev/full's is refused at start (root: nodes made with mknod in a temporary folder, never the real /dev)",
        .enabled(if: getuid() == 0))
    func recordsIntoADevice() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let null = folder.appendingPathComponent("null").path
        let full = folder.appendingPathComponent("full").path
        #expect(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        #expect(mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0)
        #expect(try Self.record(["a"], to: URL(fileURLWithPath: null)).get().writeFailed == false)
        guard case .failure(let error) = Self.record(["a"], to: URL(fileURLWithPath: full)) else {
            Issue.record("a recording into a full device must be refused at start")
            return
        }
        #expect(error.code == .fileWriteOutOfSpace)
        #expect(Self.kind(null) == S_IFCHR && Self.kind(full) == S_IFCHR)
    }

    @Test("a mark's label is cut at 1,000 Unicode scalars with an ellipsis: a 70 KB label still reads")
    func longLabelsAreCut() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("long.jsonl")
        let plain = String(repeating: "x", count: 70_000)
        // Controls are written as \u0001 (6 bytes each): the cut bounds the escaped line too.
        let controls = String(repeating: "\u{1}", count: 70_000)
        let accents = String(repeating: "e\u{301}", count: 600)
        #expect(try Self.record([plain, controls, accents, "short"], to: url).get().events == 4)
        let trace = try Self.read(url)
        #expect(
            trace.events.map(\.name) == [
                String(repeating: "x", count: 999) + "…", String(repeating: "\u{1}", count: 999) + "…",
                // Cut at a whole character: 499 accented e's (998 scalars), then the ellipsis.
                String(repeating: "e\u{301}", count: 499) + "…", "short",
            ])
        #expect(LoopRecorder.maximumNameLength * 6 + 1_000 < JSONLTraceReader.maximumLineLength)
    }

    @Test("runs nested deeper than 256 are written at depth 256, with one note where they begin: the file reads")
    func deepNestingIsBounded() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("deep.jsonl")
        #expect(LoopRecorder.maximumDepth == RunLoopCore.maximumNestingDepth)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let loop = CFRunLoopGetCurrent()!
            // A source keeps the mode from being empty (an empty mode's run returns at once, with no entry).
            var context = CFRunLoopSourceContext()
            let source = CFRunLoopSourceCreate(nil, 0, &context)!
            CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode)
            try! LoopRecorder.start(on: loop, to: url, thread: "deep")
            func nest(_ depth: Int) {
                guard depth < 260 else { return }
                CFRunLoopPerformBlock(loop, kCFRunLoopDefaultMode as CFTypeRef) { nest(depth + 1) }
                _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, true)
            }
            nest(0)
            LoopRecorder.stop()
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        let trace = try Self.read(url)
        let entries = trace.events.filter { $0.kind == .entry }.map(\.depth)
        #expect(entries == Array(1...256) + [256, 256, 256, 256])
        let notes = trace.events.filter { $0.kind == .note }
        #expect(notes.map(\.name) == ["LoopRecorder: runs nested deeper than 256 are recorded at depth 256"])
        #expect(notes.first?.depth == 256 && notes.first?.fact == .mark(.point))
    }

    @Test("capacity Int.max and a flush interval of 0, NaN or infinity are bounded: the recording is whole")
    func oddSettingsAreBounded() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, interval) in [0, -1, .nan, .infinity].enumerated() {
            let url = folder.appendingPathComponent("odd\(index).jsonl")
            let marks = (0..<100).map { "m\($0)" }
            #expect(
                try Self.record(marks, to: url, capacity: .max, flushInterval: interval).get()
                    == .init(events: 100, dropped: 0, writeFailed: false))
            #expect(try Self.read(url).events.map(\.name) == marks)
        }
        #expect(LoopRecorder.maximumCapacity == 1 << 20 && LoopRecorder.flushIntervals == 0.001...3600)
    }
}
