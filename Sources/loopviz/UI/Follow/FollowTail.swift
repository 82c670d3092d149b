import LoopEngine

/// The growing end of a recording, read as it is written (`--follow`): bytes come in chunks of any size, every
/// complete line becomes an event through the streaming reader (``JSONLTraceReader``, its byte scanner), and a
/// torn last line waits for the rest of its bytes (a writer flushes whole lines, but a read can land mid-line).
struct FollowTail {
    private var reader = JSONLTraceReader(maximumEvents: Int.max)
    /// The bytes after the last newline: a line still being written.
    private var partial: [UInt8] = []
    /// The header's line length with its newline, once read: where LoopRecorder rewrites its counts at the end.
    private(set) var headerLength: Int?
    /// Bytes taken so far (complete lines and the torn one).
    private(set) var bytesTaken = 0

    /// The header, once its line is complete.
    var header: JSONLTraceHeader? { reader.header }

    /// The number of bytes of a line still waiting for its newline.
    var waitingBytes: Int { partial.count }

    /// The events of the complete lines in `bytes` (after the torn line of the last chunk, if any).
    mutating func feed(_ bytes: [UInt8]) throws(JSONLTraceReader.Failure) -> [LoopEvent] {
        bytesTaken += bytes.count
        var events: [LoopEvent] = []
        var start = 0
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            let event: LoopEvent?
            if partial.isEmpty {
                event = try line(bytes[start..<newline])
            } else {
                partial += bytes[start..<newline]
                event = try line(partial)
                partial.removeAll(keepingCapacity: true)
            }
            if let event { events.append(event) }
            start = newline + 1
        }
        partial += bytes[start...]
        // A line longer than the readers' bound never ends well: refused now, not held in memory.
        if partial.count > JSONLTraceReader.maximumLineLength {
            throw JSONLTraceReader.Failure(
                line: reader.lineNumber + 1, column: nil,
                message: "longer than \(JSONLTraceReader.maximumLineLength) bytes")
        }
        return events
    }

    private mutating func line(_ bytes: some Collection<UInt8>) throws(JSONLTraceReader.Failure) -> LoopEvent? {
        let wasHeader = reader.header == nil
        let event = try reader.next(line: bytes)
        if wasHeader && reader.header != nil { headerLength = bytes.count + 1 }
        return event
    }

    /// True when `headerLine` (the header's bytes, as rewritten) gives the number of events: LoopRecorder writes
    /// `"events": null` while recording and the count when it stops, so the program has ended.
    static func saysEnded(headerLine: [UInt8]) -> Bool {
        var reader = JSONLTraceReader(maximumEvents: 0)
        let line = headerLine.last == 0x0A ? Array(headerLine.dropLast()) : headerLine
        guard (try? reader.next(line: line)) != nil || reader.header != nil else { return false }
        return reader.header?.events != nil
    }
}
