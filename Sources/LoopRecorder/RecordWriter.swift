import Foundation

/// The writer thread: every `interval` it takes what the loop buffered and appends it to the file, so the loop
/// never waits for a disk. The header line is written first with room to spare and rewritten at the end with the
/// number of events and of drops (a recording cut short by a crash still reads: its header says `null`).
final class RecordWriter: @unchecked Sendable {
    /// Room left after the first header, for the final counts.
    static let headerSlack = 80

    private let file: FileHandle
    private let buffer: RecordBuffer
    /// The thread's name as a JSON string, made once.
    private let thread: [UInt8]
    private let headerFields: String
    private let headerWidth: Int
    private let interval: TimeInterval
    private let wake = NSCondition()
    /// Guarded by `wake`.
    private var stopping = false
    private var finished = false
    /// Written by the writer thread only, read after it finished.
    private(set) var written = 0
    private(set) var writeFailed = false

    init(url: URL, buffer: RecordBuffer, thread: String, process: String, pid: Int32, interval: TimeInterval) throws {
        var fields: [UInt8] = []
        fields += Array("{\"format\":\"loopviz-trace\",\"version\":1,\"scenario\":".utf8)
        RecordedEvent.appendQuoted(process, to: &fields)
        fields += Array(",\"clock\":\"real\",\"recorded\":{\"process\":".utf8)
        RecordedEvent.appendQuoted(process, to: &fields)
        fields += Array(",\"pid\":\(pid),\"thread\":".utf8)
        RecordedEvent.appendQuoted(thread, to: &fields)
        fields += Array("}".utf8)
        headerFields = String(decoding: fields, as: UTF8.self)
        let first = Array((headerFields + ",\"events\":null}").utf8)
        headerWidth = first.count + Self.headerSlack
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        file = try FileHandle(forWritingTo: url)
        self.buffer = buffer
        var quoted: [UInt8] = []
        RecordedEvent.appendQuoted(thread, to: &quoted)
        self.thread = quoted
        self.interval = interval
        try file.write(contentsOf: Self.padded(first, to: headerWidth))
    }

    /// The header's bytes padded with spaces to `width`, then a newline (spaces after a JSON value are allowed).
    private static func padded(_ bytes: [UInt8], to width: Int) -> Data {
        Data(bytes + [UInt8](repeating: 0x20, count: max(0, width - bytes.count)) + [0x0A])
    }

    /// Starts the writer thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "LoopRecorder writer"
        thread.start()
    }

    private func run() {
        while true {
            wake.lock()
            if !stopping { _ = wake.wait(until: Date(timeIntervalSinceNow: interval)) }
            let last = stopping
            wake.unlock()
            let (events, dropped) = buffer.take(closing: last)
            write(events)
            if last {
                finish(dropped: dropped)
                wake.lock()
                finished = true
                wake.broadcast()
                wake.unlock()
                return
            }
        }
    }

    private func write(_ events: [RecordedEvent]) {
        guard !events.isEmpty else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 130)
        for event in events { event.appendLine(thread: thread, to: &bytes) }
        do {
            try file.write(contentsOf: bytes)
            written += events.count
        } catch {
            writeFailed = true
        }
    }

    private func finish(dropped: Int) {
        let header = Array((headerFields + ",\"events\":\(written),\"dropped\":\(dropped)}").utf8)
        do {
            try file.seek(toOffset: 0)
            try file.write(contentsOf: Self.padded(header, to: headerWidth))
            try file.close()
        } catch {
            writeFailed = true
        }
    }

    /// Asks the writer to write what is left and close the file, and waits until it has.
    func stopAndWait() {
        wake.lock()
        stopping = true
        wake.broadcast()
        while !finished { wake.wait() }
        wake.unlock()
    }
}
